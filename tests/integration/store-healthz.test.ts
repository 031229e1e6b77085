import Database from "better-sqlite3";
import path from "node:path";
import pg from "pg";
import { describe, expect, it } from "vitest";
import { loader } from "../../app/routes/healthz";
import { usePostgres } from "../support/postgres";
import { sentMails, testContext } from "../support/services";

const TOKEN = "operator-health-token-0123456789";

async function health(context: ReturnType<typeof testContext>) {
  const request = new Request("http://localhost/healthz", { headers: { Authorization: `Bearer ${TOKEN}` } });
  const response = loader({ request, context, params: {} });
  return (await response.json()) as { status: string; store: Record<string, unknown>; database: Record<string, unknown> | null };
}

const postgres = usePostgres();

describe("/healthz", () => {
  it("says which tabs the database holds, and is degraded while the instance does not hear its changes, until it listens again", async () => {
    const url = await postgres.server().createDatabase();
    const context = testContext({}, { HEALTH_TOKEN: TOKEN, DATABASE_URL: url });
    const { store } = context.services;
    await store.refresh();
    expect(await health(context)).toMatchObject({
      status: "ok",
      store: { driver: "sqlite" },
      database: { listening: true, tables: expect.arrayContaining(["Messages", "ConversationMembers", "SendClaims"]) },
    });
    expect((await health(context)).database?.tables).not.toContain("Agents");

    // The connection that listens is cut, as a database restart or a network fault would.
    const admin = new pg.Client({ connectionString: url });
    await admin.connect();
    await admin.query(
      `SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE query LIKE 'LISTEN%' AND datname = current_database() AND pid <> pg_backend_pid()`,
    );
    // Written meanwhile, with nobody listening: no notification will tell of it.
    await admin.query(`INSERT INTO "Marks" ("id", "agentEmail", "requestId", "kind", "status", "createdAt", "updatedAt")
      VALUES ('unheard', 'ann@example.com', 'request-1', 'saved', 'active', '2026-11-27T12:00:00.000Z', '2026-11-27T12:00:00.000Z')`);
    await admin.end();
    await expect.poll(async () => (await health(context)).status).toBe("degraded");
    await expect.poll(async () => (await health(context)).database?.listening, { timeout: 5_000 }).toBe(true);
    expect((await health(context)).status).toBe("ok");
    // Listening again, the instance reads what it may have missed, with no timed refresh.
    await expect.poll(() => store.marks.get("unheard")?.agentEmail).toBe("ann@example.com");
    await store.stop();
  });

  it("has no database section without DATABASE_URL", async () => {
    const context = testContext({}, { HEALTH_TOKEN: TOKEN });
    await context.services.store.refresh();
    expect((await health(context)).database).toBeNull();
    await context.services.store.stop();
  });

  it("names the store's driver and the replica's age, and lists rows that did not read", async () => {
    const context = testContext({}, { HEALTH_TOKEN: TOKEN });
    const { store, config } = context.services;
    await store.refresh();
    const db = new Database(path.join(config.dataDir, "store.sqlite"));
    db.prepare(`INSERT INTO "Agents" (id, email, status, createdAt) VALUES ('a-1', 'dana@example.com', 'on hold', '2025-01-01')`).run();
    db.close();
    await store.refresh();
    const body = await health(context);
    expect(body.status).toBe("ok");
    expect(body.store).toMatchObject({
      driver: "sqlite",
      ageSeconds: 0,
      stale: false,
      lastError: null,
      invalidRows: [{ tab: "Agents", row: 1, reason: "status must be one of pending, approved, rejected, suspended" }],
    });
    expect(Date.parse(String(body.store.lastRefreshAt))).not.toBeNaN();
    await store.stop();
  });

  it("mails staff each new skipped row and mistyped-looking value once, and says so on /healthz", async () => {
    const context = testContext({}, { HEALTH_TOKEN: TOKEN });
    const { store, config, sheetProblemMails } = context.services;
    await store.refresh();
    const db = new Database(path.join(config.dataDir, "store.sqlite"));
    const insert = db.prepare(`INSERT INTO "Agents" (id, email, status, createdAt, mailOff) VALUES (?, ?, ?, '2025-01-01', ?)`);
    insert.run("a-1", "dana@example.com", "TRUE", "");
    await store.refresh();
    await sheetProblemMails.mailNew(new Date());
    await sheetProblemMails.mailNew(new Date());
    insert.run("a-2", "eli@example.com", "approved", "messages; weekly");
    await store.refresh();
    await sheetProblemMails.mailNew(new Date());
    db.close();

    expect((await health(context)).store).toMatchObject({
      doubtfulValues: [{ tab: "Agents", row: 2, id: "a-2", reason: expect.stringContaining('mailOff "weekly" is not a kind of mail') }],
      servedFromDisk: [],
    });
    const mails = (await sentMails(context.services)).filter((mail) => mail.to === "support@example.test");
    expect(mails.map((mail) => mail.subject)).toEqual(["[Spreadsheet] 1 thing needs a look", "[Spreadsheet] 1 thing needs a look"]);
    const skipped = mails.find((mail) => mail.text.includes("Agents row 1: skipped (the site cannot read it): status must be one of"));
    const mistyped = mails.find((mail) => mail.text.includes('Agents row 2: probably mistyped: mailOff "weekly" is not a kind of mail'));
    expect(skipped?.text).not.toContain("Agents row 2");
    expect(mistyped?.text).not.toContain("Agents row 1");

    // Another instance on the same file, seeing the same problems, sends nothing more.
    const other = testContext({}, { DATA_DIR: config.dataDir });
    await other.services.store.refresh();
    await other.services.sheetProblemMails.mailNew(new Date());
    await other.services.notifier.idle();
    expect(await sentMails(context.services)).toHaveLength(2);
    await Promise.all([store.stop(), other.services.store.stop()]);
  });
});
