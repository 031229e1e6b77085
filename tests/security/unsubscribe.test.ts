import { mkdtempSync } from "node:fs";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import type { AppLoadContext } from "@remix-run/node";
import express from "express";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Agent } from "../../app/domain/workbook/tabs";
import * as unsubscribe from "../../app/routes/unsubscribe";
import { sign } from "../../app/server/auth/signing.server";
import { securityMiddleware } from "../../app/server/http.server";
import { createUnsubscribeToken } from "../../app/server/mail/unsubscribe.server";
import { productionEnv, startBuiltServer, type BuiltServer } from "../../scripts/lib/built-server";
import { insertAgent, testContext } from "../support/services";

/** The server's middleware in front of handlers that count the posts reaching them. */
let base = "";
const reached: string[] = [];
let close: () => void = () => undefined;

beforeAll(async () => {
  const app = express();
  app.use(securityMiddleware(false));
  app.all("*", (req, res) => {
    reached.push(req.path);
    res.status(200).send("reached");
  });
  const server = app.listen(0, "127.0.0.1");
  await new Promise((resolve) => server.once("listening", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  close = () => server.close();
});
afterAll(() => close());

async function crossSitePost(path: string): Promise<number> {
  const response = await fetch(`${base}${path}`, {
    method: "POST",
    headers: { Origin: "https://mail.example", "Content-Type": "application/x-www-form-urlencoded" },
    body: "List-Unsubscribe=One-Click",
  });
  return response.status;
}

describe("the cross-site post guard's one exemption", () => {
  it("lets a mail program's one-click POST to /unsubscribe through", async () => {
    expect(await crossSitePost("/unsubscribe?token=anything")).toBe(200);
    expect(reached).toContain("/unsubscribe");
  });

  it("is exactly that path: its data route, neighbours and other pages are still refused", async () => {
    for (const path of ["/unsubscribe.data?token=x", "/unsubscribe/x", "/settings/notifications", "/contact", "/unsubscribe-me"]) {
      expect(await crossSitePost(path), path).toBe(403);
    }
  });
});

describe("an unsubscribe POST without a session", () => {
  let context: AppLoadContext;
  let member: Agent;
  beforeAll(async () => {
    context = testContext();
    await context.services.store.refresh();
    member = await insertAgent(context);
  });

  async function postToken(token: string): Promise<number> {
    const request = new Request(`http://localhost/unsubscribe?token=${encodeURIComponent(token)}`, {
      method: "POST",
      body: new URLSearchParams({ "List-Unsubscribe": "One-Click" }),
    });
    const answered = (await unsubscribe.action({ request, context, params: {} })) as { init?: ResponseInit | null };
    return answered.init?.status ?? 200;
  }

  function tokenWith(signature: string, kind = "messages"): string {
    const expiresAt = Math.floor(Date.now() / 1000) + 3600;
    return `${Buffer.from(member.id).toString("base64url")}.${kind}.${expiresAt}.${signature}`;
  }

  it("changes nothing when the signature is not the app's: another secret, another purpose, none", async () => {
    const expiresAt = Math.floor(Date.now() / 1000) + 3600;
    const data = JSON.stringify([member.id, "messages", expiresAt]);
    const tokens = [
      createUnsubscribeToken(["a secret the app does not have"], member, "messages"),
      tokenWith(sign(context.services.config.sessionSecrets, "password-reset", data)),
      tokenWith(""),
      tokenWith("x".repeat(43)),
    ];
    for (const token of tokens) expect(await postToken(token), token).toBe(400);
    expect(context.services.store.agents.get(member.id)?.mailOff).toBeUndefined();
  });

  it("works with the app's own signature", async () => {
    expect(await postToken(createUnsubscribeToken(context.services.config.sessionSecrets, member, "digest"))).toBe(200);
    expect(context.services.store.agents.get(member.id)?.mailOff).toEqual(["digest"]);
  });
});

describe("a mail program's one-click POST to the production server", () => {
  let server: BuiltServer | undefined;
  let env: Record<string, string>;
  let member: Agent;
  let secrets: readonly string[];

  beforeAll(async () => {
    env = productionEnv(mkdtempSync(path.join(tmpdir(), "referral-unsubscribe-")));
    const seeding = testContext({}, env);
    await seeding.services.store.refresh();
    member = await insertAgent(seeding);
    secrets = seeding.services.config.sessionSecrets;
    await seeding.services.store.stop();
    server = await startBuiltServer(["node", "scripts/start.mjs"], env);
  }, 120_000);

  afterAll(async () => {
    server?.child.kill("SIGTERM");
    await server?.exited;
  });

  async function storedMailOff(): Promise<readonly string[]> {
    const reading = testContext({}, env);
    await reading.services.store.refresh();
    const stored = reading.services.store.agents.get(member.id);
    await reading.services.store.stop();
    return stored?.mailOff ?? [];
  }

  function oneClick(kind: "messages" | "urgent" | "digest", origin: string | null): Promise<Response> {
    const token = createUnsubscribeToken(secrets, member, kind);
    return fetch(`${server!.baseUrl}/unsubscribe?token=${encodeURIComponent(token)}`, {
      method: "POST",
      headers: { "Content-Type": "application/x-www-form-urlencoded", ...(origin === null ? {} : { Origin: origin }) },
      body: "List-Unsubscribe=One-Click",
      redirect: "manual",
    });
  }

  it("turns the mail off whatever Origin the mail program sends: a webmail page's, null or none", async () => {
    const answers = [await oneClick("messages", "https://mail.example"), await oneClick("urgent", "null"), await oneClick("digest", null)];
    expect(answers.map((answer) => answer.status)).toEqual([200, 200, 200]);
    expect(await storedMailOff()).toEqual(expect.arrayContaining(["messages", "urgent", "digest"]));
  });

  it("lends that to no other post: another page posted from the webmail page is still refused", async () => {
    const contact = await fetch(`${server!.baseUrl}/contact`, {
      method: "POST",
      headers: { "Content-Type": "application/x-www-form-urlencoded", Origin: "https://mail.example" },
      body: "name=A&email=a%40example.com&subject=Hi&message=Hello",
    });
    expect(contact.status).toBe(403);
  });
});
