import type { AppLoadContext } from "@remix-run/node";
import { describe, expect, it } from "vitest";
import { loader } from "../../app/routes/dev.outbox";
import { outcome } from "../integration/requests-support";
import { testContext } from "../support/services";

async function outbox(context: AppLoadContext, clientIp: string | undefined) {
  return outcome(() => loader({ request: new Request("http://localhost/dev/outbox"), context: { ...context, clientIp }, params: {} }));
}

describe("/dev/outbox lists reset links, so only the machine itself may read it", () => {
  it("answers loopback clients outside production", async () => {
    const context = testContext();
    for (const ip of ["127.0.0.1", "127.8.9.10", "::1", "::ffff:127.0.0.1"]) {
      expect(await outbox(context, ip)).toEqual({ mails: [] });
    }
  });

  it("is 404 for any other client, including private networks and an unknown address", async () => {
    const context = testContext();
    for (const ip of ["203.0.113.7", "10.0.0.5", "192.168.1.20", "::ffff:10.0.0.5", "2001:db8::1", "0.0.0.0", undefined]) {
      const answer = await outbox(context, ip);
      expect(answer).toBeInstanceOf(Response);
      expect((answer as Response).status).toBe(404);
    }
  });

  it("is 404 in production, even from loopback", async () => {
    const context = testContext({}, { NODE_ENV: "production", SESSION_SECRET: "s".repeat(40), APP_URL: "https://example.test" });
    const answer = await outbox(context, "127.0.0.1");
    expect((answer as Response).status).toBe(404);
  });
});
