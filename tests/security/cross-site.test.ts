import type { AddressInfo } from "node:net";
import express from "express";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { securityMiddleware } from "../../app/server/http.server";

/** The server's middleware in front of an action that counts the posts that reach it. */
let base = "";
let reached = 0;
let close: () => void = () => undefined;

beforeAll(async () => {
  const app = express();
  app.use(securityMiddleware(false));
  app.all("/contact", (_req, res) => {
    reached += 1;
    res.status(200).send("stored");
  });
  const server = app.listen(0, "127.0.0.1");
  await new Promise((resolve) => server.once("listening", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  close = () => server.close();
});
afterAll(() => close());

async function send(method: string, headers: Record<string, string>) {
  const before = reached;
  const response = await fetch(`${base}/contact`, {
    method,
    headers: { "Content-Type": "application/x-www-form-urlencoded", ...headers },
    body: method === "GET" ? undefined : "message=hi",
  });
  return { status: response.status, text: await response.text(), reached: reached - before };
}

describe("cross-site form posts", () => {
  it("are refused with 403 before reaching any action", async () => {
    for (const origin of [
      "https://evil.example",
      "http://127.0.0.1.evil.example",
      "http://127.0.0.1:1",
      "null",
      "not a url",
      "http://localhost",
    ]) {
      for (const method of ["POST", "PUT", "PATCH", "DELETE"]) {
        const answer = await send(method, { Origin: origin });
        expect(answer, `${method} from ${origin}`).toEqual({ status: 403, text: "Cross-site form posts are not accepted.", reached: 0 });
      }
    }
  });

  it("from the site's own pages go through", async () => {
    expect(await send("POST", { Origin: base })).toEqual({ status: 200, text: "stored", reached: 1 });
  });

  it("without an Origin (no browser sends a cross-site POST without one) go through; the SameSite=Lax cookie keeps the session out", async () => {
    expect((await send("POST", {})).reached).toBe(1);
  });

  it("do not concern GET, which changes nothing", async () => {
    expect((await send("GET", { Origin: "https://evil.example" })).reached).toBe(1);
  });
});
