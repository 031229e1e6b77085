/**
 * The "don't invite me again" page (docs/decisions/0084): opening the link only asks; the
 * page's button and a mail program's RFC 8058 one-click POST list the address, without a
 * session; a forged link changes nothing; a store that refuses the row is a 503 that says
 * nothing was saved.
 */
import type { AddressInfo } from "node:net";
import type { AppLoadContext } from "@remix-run/node";
import express from "express";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import * as page from "../../app/routes/stop-invitations";
import { securityMiddleware } from "../../app/server/http.server";
import { createStopInvitingToken } from "../../app/server/outreach/stop-inviting.server";
import { StoreWriteError } from "../../app/server/store/store.server";
import { testContext } from "../support/services";

const opened: AppLoadContext[] = [];
afterEach(async () => {
  vi.restoreAllMocks();
  await Promise.all(opened.splice(0).map((context) => context.services.store.stop()));
});

async function context(): Promise<AppLoadContext> {
  const made = testContext();
  opened.push(made);
  await made.services.store.refresh();
  return made;
}

const linkOf = (context: AppLoadContext, email: string) =>
  `http://localhost/stop-invitations?token=${encodeURIComponent(createStopInvitingToken(context.services.config.sessionSecrets, email))}`;

type Answered = { data: { state: string; email?: string; token?: string }; init?: ResponseInit | null };

async function open(context: AppLoadContext, url: string): Promise<Answered> {
  return (await page.loader({ request: new Request(url), context, params: {} })) as Answered;
}

/** A post as the page's form sends it without JavaScript, or as a mail program's one-click sends it: the same body. */
async function post(context: AppLoadContext, url: string): Promise<Answered> {
  const request = new Request(url, {
    method: "POST",
    headers: { "Content-Type": "application/x-www-form-urlencoded" },
    body: "List-Unsubscribe=One-Click",
  });
  return (await page.action({ request, context, params: {} })) as Answered;
}

const statusOf = (answered: Answered) => answered.init?.status ?? 200;
const listed = async (context: AppLoadContext) =>
  (await context.services.store.suppressions.readStored()).map((row) => [row.email, row.reason]);

describe("opening the link", () => {
  it("asks, naming the address, and lists nothing: mail scanners open every link", async () => {
    const ctx = await context();
    const answered = await open(ctx, linkOf(ctx, "Dana@Example.com"));
    expect(statusOf(answered)).toBe(200);
    expect(answered.data).toMatchObject({ state: "confirm", email: "dana@example.com" });
    expect(await listed(ctx)).toEqual([]);
  });

  it("says so when the address is listed already, with no button", async () => {
    const ctx = await context();
    await post(ctx, linkOf(ctx, "dana@example.com"));
    expect((await open(ctx, linkOf(ctx, "dana@example.com"))).data).toEqual({ state: "listed", email: "dana@example.com" });
  });

  it("is a 400 for a link that is not ours, a changed one or none", async () => {
    const ctx = await context();
    const genuine = createStopInvitingToken(ctx.services.config.sessionSecrets, "dana@example.com");
    const changed = `${Buffer.from("eve@example.com").toString("base64url")}.${genuine.split(".")[1]}`;
    const others = [createStopInvitingToken(["a secret the app does not have"], "dana@example.com"), changed, ""];
    for (const token of others) {
      const answered = await open(ctx, `http://localhost/stop-invitations?token=${encodeURIComponent(token)}`);
      expect([statusOf(answered), answered.data.state], token).toEqual([400, "invalid"]);
    }
  });
});

describe("the button and the one-click post", () => {
  it("list the address once, as the person's own request, and say it is done, then that it was listed already", async () => {
    const ctx = await context();
    const first = await post(ctx, linkOf(ctx, "Dana@Example.com"));
    expect([statusOf(first), first.data]).toEqual([200, { state: "done", email: "dana@example.com" }]);
    const second = await post(ctx, linkOf(ctx, "dana@example.com"));
    expect(second.data).toEqual({ state: "listed", email: "dana@example.com" });
    expect(await listed(ctx)).toEqual([["dana@example.com", "asked"]]);
  });

  it("store nothing for a forged link: 400", async () => {
    const ctx = await context();
    const forged = `${Buffer.from("eve@example.com").toString("base64url")}.${"x".repeat(43)}`;
    const answered = await post(ctx, `http://localhost/stop-invitations?token=${forged}`);
    expect([statusOf(answered), answered.data.state]).toEqual([400, "invalid"]);
    expect(await listed(ctx)).toEqual([]);
  });

  it("answer 503 and report nothing done when the store refuses the row; the next try lists it", async () => {
    const ctx = await context();
    vi.spyOn(console, "error").mockImplementation(() => undefined);
    const insert = vi
      .spyOn(ctx.services.store.suppressions, "insertOnce")
      .mockRejectedValue(new StoreWriteError("Suppressions", { cause: new Error("quota exceeded") }));
    const refused = await post(ctx, linkOf(ctx, "dana@example.com"));
    expect([statusOf(refused), refused.data]).toEqual([503, { state: "failed" }]);
    expect(await listed(ctx)).toEqual([]);

    insert.mockRestore();
    const again = await post(ctx, linkOf(ctx, "dana@example.com"));
    expect(again.data).toEqual({ state: "done", email: "dana@example.com" });
    expect(await listed(ctx)).toEqual([["dana@example.com", "asked"]]);
  });

  it("answer 503 when the store cannot even take the claim", async () => {
    const ctx = await context();
    vi.spyOn(console, "error").mockImplementation(() => undefined);
    vi.spyOn(ctx.services.store.sendClaims, "insert").mockRejectedValue(new StoreWriteError("SendClaims", { cause: new Error("offline") }));
    const refused = await post(ctx, linkOf(ctx, "dana@example.com"));
    expect([statusOf(refused), refused.data]).toEqual([503, { state: "failed" }]);
    expect(await listed(ctx)).toEqual([]);
  });
});

describe("the cross-site post guard", () => {
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

  it("lets a webmail page's one-click post to exactly /stop-invitations through, and no neighbour", async () => {
    const crossSite = (path: string) =>
      fetch(`${base}${path}`, {
        method: "POST",
        headers: { Origin: "https://mail.example", "Content-Type": "application/x-www-form-urlencoded" },
        body: "List-Unsubscribe=One-Click",
      }).then((response) => response.status);
    expect(await crossSite("/stop-invitations?token=x")).toBe(200);
    expect(reached).toEqual(["/stop-invitations"]);
    for (const path of ["/stop-invitations.data?token=x", "/stop-invitations/x", "/invite"]) expect(await crossSite(path), path).toBe(403);
  });
});
