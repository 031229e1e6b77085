import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import pg from "pg";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import type { AppLoadContext } from "@remix-run/node";
import { conversationIdFor } from "../../app/domain/conversation";
import { MESSAGES_UNAVAILABLE, SEND_FAILED } from "../../app/domain/messages";
import type { Agent } from "../../app/domain/workbook/tabs";
import { loader as rootLoader } from "../../app/root";
import { loader as healthLoader } from "../../app/routes/healthz";
import { loader as dashboardLoader } from "../../app/routes/member-dashboard";
import { loader as directoryLoader } from "../../app/routes/member-directory";
import { action as inboundAction } from "../../app/routes/mail.inbound";
import { action as messagesAction, loader as messagesLoader } from "../../app/routes/messages";
import { loader as eventsLoader } from "../../app/routes/messages_.events";
import { loader as referralsLoader } from "../../app/routes/referrals._index";
import { loader as reportLoader } from "../../app/routes/report";
import { startMemberSession } from "../../app/server/auth/session.server";
import { replyAddressFor } from "../../app/server/mail/reply-address.server";
import { connectDatabase } from "../../app/server/store/postgres/database.server";
import { logIn, postForm, productionEnv, startBuiltServer, type BuiltServer } from "../../scripts/lib/built-server";
import { startPostgres, type PostgresServer } from "../../scripts/lib/postgres-server";
import { basicAuth, parsedPost } from "../mocks/sendgrid-inbound";
import { insertAgent, testContext } from "../support/services";

const PASSWORD = "correct horse battery";
const HEALTH_TOKEN = "operator-health-token-0123456789";

/*
 * A server of this file's own, which the tests stop and start again: the run's shared server
 * must keep serving the other files.
 */
let postgres: PostgresServer;
let running: BuiltServer | undefined;

beforeAll(async () => {
  postgres = await startPostgres();
});
afterAll(async () => {
  await postgres.stop();
});
let down = false;
afterEach(async () => {
  if (running?.child.exitCode === null && running.child.signalCode === null) running.child.kill("SIGKILL");
  running = undefined;
  // A test that failed while the server was down leaves it running for the next.
  if (down) await startAgain();
});

async function shutDown(): Promise<void> {
  await postgres.shutDown();
  down = true;
}

async function startAgain(): Promise<void> {
  await postgres.startAgain();
  down = false;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Ends every connection of the app to its database, as a failover or an idle-connection reaper does: the listener's too. */
async function terminateBackends(databaseUrl: string): Promise<number> {
  const admin = new pg.Client({ connectionString: postgres.url });
  admin.on("error", () => undefined);
  await admin.connect();
  try {
    const result = await admin.query(
      `SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()`,
      [new URL(databaseUrl).pathname.slice(1)],
    );
    return result.rowCount ?? 0;
  } finally {
    await admin.end();
  }
}

/** Two approved agents stored before the server starts: the staff tabs in the file, the database migrated. */
async function seedTwoAgents(env: Record<string, string>): Promise<[Agent, Agent]> {
  const context = testContext({}, env);
  await context.services.store.refresh();
  const sender = await insertAgent(context, { fullName: "Dana Reyes", password: PASSWORD });
  const recipient = await insertAgent(context, { fullName: "Sam Ortiz", password: PASSWORD });
  await context.services.store.stop();
  return [sender, recipient];
}

/** Sends messages one after another from each of `senders` loops until stopped: the statuses answered, by count. */
function keepSending(server: BuiltServer, cookie: string, recipient: Agent, senders: number) {
  let sending = true;
  const statuses = new Map<number, number>();
  let sent = 0;
  const loop = async (lane: number) => {
    while (sending) {
      sent += 1;
      const body = new URLSearchParams({ intent: "send", text: `Message ${lane}-${sent}` });
      const status = await postForm(server.baseUrl, `/messages?to=${recipient.id}`, cookie, body).then(
        (response) => response.status,
        () => 0,
      );
      statuses.set(status, (statuses.get(status) ?? 0) + 1);
    }
  };
  const lanes = Array.from({ length: senders }, (_, lane) => loop(lane));
  return {
    statuses,
    async stop() {
      sending = false;
      await Promise.all(lanes);
    },
  };
}

async function healthOf(server: BuiltServer): Promise<string> {
  const response = await fetch(`${server.baseUrl}/healthz`, { headers: { Authorization: `Bearer ${HEALTH_TOKEN}` } });
  return ((await response.json()) as { status: string }).status;
}

/** Up, serving, storing a message again and healthy: the database is back and the instance noticed by itself. */
async function expectRecovered(server: BuiltServer, cookie: string, recipient: Agent, text: string) {
  expect(server.child.exitCode, server.output()).toBeNull();
  await expect
    .poll(
      async () => {
        const body = new URLSearchParams({ intent: "send", text });
        return (await postForm(server.baseUrl, `/messages?to=${recipient.id}`, cookie, body)).status;
      },
      { timeout: 15_000, interval: 250 },
    )
    .toBe(302);
  await expect.poll(() => healthOf(server), { timeout: 15_000, interval: 250 }).toBe("ok");
}

describe("a database hiccup", { timeout: 240_000 }, () => {
  it("never ends the process: its connections cut and the server stopped and started again, during sends, during a listen and while idle", async () => {
    const databaseUrl = await postgres.createDatabase();
    const env = {
      ...productionEnv(mkdtempSync(path.join(tmpdir(), "referral-hiccup-"))),
      DATABASE_URL: databaseUrl,
      HEALTH_TOKEN,
      // Timed refreshes often, so transactions are open at any moment, as under traffic.
      STORE_REFRESH_SECONDS: "0.2",
      MESSAGES_PER_MEMBER_PER_HOUR: "100000",
      MESSAGES_PER_MEMBER_PER_MINUTE: "100000",
      MEMBER_WRITES_PER_IP_PER_HOUR: "100000",
    };
    const [sender, recipient] = await seedTwoAgents(env);
    running = await startBuiltServer(["node", "scripts/start.mjs"], env);
    const server = running;
    const cookie = await logIn(server.baseUrl, sender.email, PASSWORD);
    // A member's open messages page holds a live-updates stream the whole time.
    const stream = await fetch(`${server.baseUrl}/messages/events`, {
      headers: { Cookie: await logIn(server.baseUrl, recipient.email, PASSWORD) },
    });
    expect(stream.status).toBe(200);

    // During sends: every connection cut, again and again, then the server stopped and started.
    const sends = keepSending(server, cookie, recipient, 6);
    for (let round = 0; round < 8; round += 1) {
      await sleep(150);
      await terminateBackends(databaseUrl);
    }
    await shutDown();
    await sleep(1_500);
    await startAgain();
    await sleep(500);
    await sends.stop();
    expect(sends.statuses.get(302), JSON.stringify([...sends.statuses])).toBeGreaterThan(0);
    await expectRecovered(server, cookie, recipient, "After the hiccups during sends");

    // During a listen and while idle: nothing in flight but the listener and the timed refreshes.
    for (let round = 0; round < 4; round += 1) {
      await sleep(400);
      await terminateBackends(databaseUrl);
    }
    await sleep(1_500);
    expect(server.child.exitCode, server.output()).toBeNull();
    await shutDown();
    await sleep(1_500);
    expect(server.child.exitCode, server.output()).toBeNull();
    // Meanwhile, what a member's browser gets (without JavaScript): the pages, the messages parts saying they are unavailable.
    const page = async (pathname: string) => {
      const response = await fetch(`${server.baseUrl}${pathname}`, { headers: { Cookie: cookie } });
      return { status: response.status, html: await response.text() };
    };
    for (const pathname of ["/member-directory", "/referrals"]) expect((await page(pathname)).status, pathname).toBe(200);
    for (const pathname of ["/member-dashboard", "/messages"])
      expect(await page(pathname), pathname).toMatchObject({ status: 200, html: expect.stringContaining(MESSAGES_UNAVAILABLE) });
    const refused = await postForm(
      server.baseUrl,
      `/messages?to=${recipient.id}`,
      cookie,
      new URLSearchParams({ intent: "send", text: "Typed during the outage" }),
    );
    expect(refused.status).toBe(503);
    expect(await refused.text()).toMatch(new RegExp(`${SEND_FAILED}[\\s\\S]*Typed during the outage`));
    expect(await healthOf(server)).toBe("degraded");
    await startAgain();
    await expectRecovered(server, cookie, recipient, "After the hiccups while idle");
    expect(server.output()).not.toMatch(/Unhandled 'error' event|uncaught/i);
    await stream.body?.cancel();
  });
});

async function cookieOf(context: AppLoadContext, agent: Agent): Promise<string> {
  const response = await startMemberSession(new Request("http://localhost/member-login"), context, agent, "/");
  return (response.headers.get("Set-Cookie") ?? "").split(";")[0]!;
}

/** What a loader or an action answered: its body, and its status (200 unless it said otherwise). */
async function answer(
  route: (args: { request: Request; context: AppLoadContext; params: Record<string, string> }) => unknown,
  request: Request,
  context: AppLoadContext,
): Promise<{ status: number; body: Record<string, unknown> }> {
  const result = (await route({ request, context, params: {} })) as { data?: unknown; init?: ResponseInit | null } | Response;
  if (result instanceof Response) return { status: result.status, body: {} };
  if (result && typeof result === "object" && "init" in result && "data" in result)
    return { status: result.init?.status ?? 200, body: result.data as Record<string, unknown> };
  return { status: 200, body: result as Record<string, unknown> };
}

describe("member pages while the database is down", { timeout: 120_000 }, () => {
  it("serve from the replica, say where the messages would be that they are unavailable, answer a send 503 with its text kept, and recover by themselves", async () => {
    const context = testContext({}, { DATABASE_URL: await postgres.createDatabase(), HEALTH_TOKEN });
    const { store } = context.services;
    await store.refresh();
    const ann = await insertAgent(context, { fullName: "Ann Archer" });
    const bob = await insertAgent(context, { fullName: "Bob Brooks" });
    const [annCookie, bobCookie] = [await cookieOf(context, ann), await cookieOf(context, bob)];
    const get = (path: string, cookie: string) => new Request(`http://localhost${path}`, { headers: { Cookie: cookie } });
    const sendAs = (cookie: string, text: string) =>
      new Request(`http://localhost/messages?to=${bob.id}`, {
        method: "POST",
        headers: { Cookie: cookie },
        body: new URLSearchParams({ intent: "send", text }),
      });
    const conversation = `/messages?conversation=${conversationIdFor(ann.id, bob.id)}`;
    expect((await answer(messagesAction, sendAs(annCookie, "Hello Bob"), context)).status).toBe(302);
    const [hello] = await context.services.messageQueries.summaries(bob);

    await shutDown();
    // Every page a member opens renders: the header's count is unknown rather than the page an error.
    expect((await answer(rootLoader, get("/member-directory", bobCookie), context)).body).toMatchObject({
      member: { fullName: "Bob Brooks" },
      unreadMessages: null,
    });
    const directory = await answer(directoryLoader, get("/member-directory", bobCookie), context);
    expect(directory.body.total).toBe(2);
    expect((await answer(referralsLoader, get("/referrals", bobCookie), context)).status).toBe(200);
    const dashboard = await answer(dashboardLoader, get("/member-dashboard", bobCookie), context);
    expect(dashboard.body).toMatchObject({ profile: { fullName: "Bob Brooks" }, messages: null });

    const list = await answer(messagesLoader, get("/messages", bobCookie), context);
    expect(list).toMatchObject({ status: 200, body: { conversationsUnavailable: true, unreadMessages: null, conversations: [] } });
    const thread = await answer(messagesLoader, get(conversation, bobCookie), context);
    expect(thread).toMatchObject({ status: 200, body: { open: { messages: null, canSend: true, partner: { fullName: "Ann Archer" } } } });
    expect((await answer(eventsLoader, get("/messages/events", bobCookie), context)).status).toBe(200);
    // Reporting a message needs the message: the answer is "try again", not an error.
    const report = await reportLoader({
      request: get(`/report?kind=message&id=${hello!.lastMessage.id}`, bobCookie),
      context,
      params: {},
    }).catch((thrown: unknown) => thrown);
    expect(report).toBeInstanceOf(Response);
    expect(report).toMatchObject({ status: 503 });
    expect(await (report as Response).text()).toBe(MESSAGES_UNAVAILABLE);

    // A send is refused for now, and says so, with what was typed still in the box.
    const errors = vi.spyOn(console, "error").mockImplementation(() => undefined);
    const refused = await answer(messagesAction, sendAs(annCookie, "Are you there?"), context);
    errors.mockRestore();
    expect(refused.status).toBe(503);
    expect(refused.body.result).toMatchObject({ error: { "": [SEND_FAILED] }, initialValue: { text: "Are you there?" } });

    await expect
      .poll(async () => ((await healthLoader({ request: get("/healthz", ""), context, params: {} }).json()) as { status: string }).status)
      .toBe("degraded");
    await startAgain();

    // Back by itself: no restart of the app, nothing a member does.
    await expect
      .poll(async () => (await answer(messagesLoader, get("/messages", bobCookie), context)).body.unreadMessages, { timeout: 10_000 })
      .toBe(1);
    expect((await answer(rootLoader, get("/member-directory", bobCookie), context)).body.unreadMessages).toBe(1);
    expect((await answer(messagesAction, sendAs(annCookie, "Are you there?"), context)).status).toBe(302);
    await store.stop();
  });
});

describe("a reply by mail while the database is down", { timeout: 60_000 }, () => {
  it("is answered 503, so the provider posts it again, and is stored once when it does", async () => {
    const secret = "inbound-secret-0123456789abcdef";
    const context = testContext(
      {},
      { DATABASE_URL: await postgres.createDatabase(), INBOUND_DOMAIN: "reply.example.test", INBOUND_SECRET: secret },
    );
    const { store, config } = context.services;
    await store.refresh();
    const ann = await insertAgent(context, { fullName: "Ann Archer" });
    const bob = await insertAgent(context, { fullName: "Bob Brooks" });
    const mail = parsedPost({
      from: ann.email,
      to: replyAddressFor(config, ann, bob)!,
      text: "Thursday works.",
      messageId: "<outage@mail.example.test>",
    });
    const post = () =>
      inboundAction({
        request: new Request("http://localhost/mail/inbound", {
          method: "POST",
          body: new Uint8Array(mail.body),
          headers: { "Content-Type": mail.contentType, Authorization: basicAuth(secret) },
        }),
        context,
        params: {},
      }) as Promise<Response>;

    await shutDown();
    const errors = vi.spyOn(console, "error").mockImplementation(() => undefined);
    const refused = await post();
    errors.mockRestore();
    expect(refused.status).toBe(503);
    expect(refused.headers.get("Retry-After")).not.toBeNull();
    await startAgain();

    await expect.poll(async () => (await post()).status, { timeout: 15_000, interval: 250 }).toBe(200);
    const stored = (await store.messages.readStored()).filter((message) => message.conversationId === conversationIdFor(ann.id, bob.id));
    expect(stored.map((message) => [message.fromEmail, message.text, message.via])).toEqual([[ann.email, "Thursday works.", "email"]]);
    expect(await (await post()).text()).toBe("Not stored: duplicate.");
    await store.stop();
  });
});

describe("the change listener while the database is down", { timeout: 60_000 }, () => {
  it("tries again every second, saying so once when the outage begins and once when it listens again", async () => {
    const said: string[] = [];
    const log = { info: (line: string) => void said.push(line), error: (line: string) => void said.push(line) };
    const database = connectDatabase(await postgres.createDatabase(), log);
    await database.listen();
    await shutDown();
    await sleep(3_500);
    await startAgain();
    await expect.poll(() => database.health().listening, { timeout: 10_000 }).toBe(true);
    await database.close();
    expect(said.filter((line) => line.includes("could not listen for changes"))).toHaveLength(1);
    expect(said.filter((line) => /listening for changes again, after \d+ failed tries/.test(line))).toHaveLength(1);
  });
});
