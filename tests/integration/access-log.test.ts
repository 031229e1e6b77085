import type { AddressInfo } from "node:net";
import { PassThrough } from "node:stream";
import express from "express";
import { describe, expect, it } from "vitest";
import { accessLog, redactSecrets } from "../../app/server/access-log.server";

describe("the access log", () => {
  it("writes a reset link's token as [redacted], in both formats", async () => {
    for (const [i, isProduction] of [true, false].entries()) {
      const stream = new PassThrough();
      const lines: string[] = [];
      stream.on("data", (chunk: Buffer) => lines.push(chunk.toString()));
      const app = express();
      app.use(accessLog({ isProduction }, stream));
      app.get("*", (_request, response) => void response.send("ok"));
      const server = app.listen(3221 + i, "127.0.0.1");
      await new Promise((resolve) => server.once("listening", resolve));
      try {
        const { port } = server.address() as AddressInfo;
        await fetch(`http://127.0.0.1:${port}/reset-password?token=abc.123.SECRETSIG&from=mail`);
        await new Promise((resolve) => setTimeout(resolve, 50));
      } finally {
        server.closeAllConnections();
        await new Promise((resolve) => server.close(resolve));
      }
      const line = lines.join("");
      expect(line).toContain("/reset-password?token=[redacted]&from=mail");
      expect(line).not.toContain("SECRETSIG");
    }
  });

  it("takes the key out of a calendar feed's address, which is the feed's only lock", () => {
    expect(redactSecrets("/calendar/0123456789abcdef0123456789abcdef.SIG-nature_1.ics")).toBe("/calendar/[redacted].ics");
    expect(redactSecrets("/calendar/abc.def.ics?x=1")).toBe("/calendar/[redacted].ics?x=1");
  });

  it("leaves other addresses as they were", () => {
    expect(redactSecrets("/directory?q=Dallas&state=TX")).toBe("/directory?q=Dallas&state=TX");
    expect(redactSecrets("/member-login")).toBe("/member-login");
    expect(redactSecrets("/x?%74oken=abc&%E0%A4%A=1")).toBe("/x?%74oken=[redacted]&%E0%A4%A=1");
  });
});
