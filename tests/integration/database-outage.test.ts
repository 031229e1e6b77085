import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import pg from "pg";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import type { Agent } from "../../app/domain/workbook/tabs";
import { logIn, postForm, productionEnv, startBuiltServer, type BuiltServer } from "../../scripts/lib/built-server";
import { startPostgres, type PostgresServer } from "../../scripts/lib/postgres-server";
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
afterEach(() => {
  if (running?.child.exitCode === null && running.child.signalCode === null) running.child.kill("SIGKILL");
  running = undefined;
});

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
    await postgres.shutDown();
    await sleep(1_500);
    await postgres.startAgain();
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
    await postgres.shutDown();
    await sleep(1_500);
    expect(server.child.exitCode, server.output()).toBeNull();
    await postgres.startAgain();
    await expectRecovered(server, cookie, recipient, "After the hiccups while idle");
    expect(server.output()).not.toMatch(/Unhandled 'error' event|uncaught/i);
    await stream.body?.cancel();
  });
});
