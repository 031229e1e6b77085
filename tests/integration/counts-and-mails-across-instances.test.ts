/**
 * Two app instances on one workbook, on SQLite (one file), on Google Sheets (the fake server)
 * and with the high-volume tabs in PostgreSQL (a real server): a request's count of responses
 * stays the count of its rows, a message sent on each at the same moment mails once (and once
 * each way when the two members write to each other), even when both instances are behind on
 * the conversation's claims, and a decision mail goes once whatever staff do to the SendClaims
 * rows meanwhile.
 */
import Database from "better-sqlite3";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import pg from "pg";
import { afterEach, describe, expect, it } from "vitest";
import type { Agent } from "../../app/domain/workbook/tabs";
import { loadConfig, type Config } from "../../app/server/config.server";
import { readOutbox } from "../../app/server/mail/mailer.server";
import { sendMessage } from "../../app/server/messages/send.server";
import { respondToRequest } from "../../app/server/referral-requests/respond.server";
import { responseCount } from "../../app/server/referral-requests/views.server";
import { createServices, outboxDirectory, startServices, stopServices } from "../../app/server/service-lifecycle.server";
import type { Services } from "../../app/server/services.server";
import { newId, sqliteStorePath } from "../../app/server/store/store.server";
import { matchers } from "../../scripts/lib/fake-sheets/server";
import type { FakeSpreadsheet } from "../../scripts/lib/fake-sheets/spreadsheet";
import { useFakeSheets } from "../support/fake-sheets";
import { usePostgres } from "../support/postgres";
import { agentRecord, requestRecord } from "../support/records";

const { fake } = useFakeSheets();
const postgres = usePostgres();
const running: Services[] = [];
afterEach(async () => {
  await Promise.all(running.splice(0).map((services) => stopServices(services)));
});

const drivers = ["sqlite", "sheets", "postgres"] as const;
type Driver = (typeof drivers)[number];
const quiet = { info: () => undefined, warn: () => undefined, error: () => undefined };

/** Two instances on one new workbook of the driver, sharing one data directory and so one outbox. */
async function twoInstances(driver: Driver, env: Record<string, string> = {}) {
  const dataDir = mkdtempSync(path.join(tmpdir(), "across-"));
  const spreadsheetId = `across-${newId()}`;
  const book = driver === "sqlite" ? undefined : fake.spreadsheet(spreadsheetId);
  // The writes' order is what is tested, not their pacing: the fake keeps no quota.
  const sheets =
    driver === "sqlite" ? {} : { GOOGLE_SHEETS_ID: spreadsheetId, GOOGLE_SHEETS_API_URL: fake.url, SHEETS_WRITE_CALLS_PER_MINUTE: "300" };
  const database = driver === "postgres" ? { DATABASE_URL: await postgres.server().createDatabase() } : {};
  const config = loadConfig({ NODE_ENV: "test", DATA_DIR: dataDir, SUPPORT_EMAIL: "support@example.test", ...sheets, ...database, ...env });
  const all = [createServices(config), createServices(config)] as const;
  running.push(...all);
  // The second starts once the first has made the tabs, as a deployment's instances would.
  await all[0].store.refresh();
  await all[1].store.refresh();
  const refreshAll = () => Promise.all(all.map((services) => services.store.refresh()));
  /** The shared outbox once both instances' queued mail is sent. */
  const outbox = async () => {
    await Promise.all(all.map((services) => services.notifier.idle()));
    return readOutbox(outboxDirectory(config));
  };
  return { all, book, config, refreshAll, outbox };
}

describe.each(drivers)("two instances on %s", { timeout: 60_000 }, (driver) => {
  it("keep a request's responses cell equal to its rows, on both, after 16 responses through both at once", async () => {
    const { all, refreshAll } = await twoInstances(driver);
    const owner = await all[0].store.agents.insert(agentRecord({ email: "maria@example.com" }));
    const request = await all[0].store.requests.insert(requestRecord(owner));
    await all[1].store.refresh();
    const respond = (services: Services, i: number) =>
      respondToRequest(services, {
        requestId: request.id,
        member: agentRecord({ email: `agent${i}@example.com` }),
        message: `Answer ${i}`,
        now: new Date(),
        link: "http://localhost/referral-requests",
        log: quiet,
      });
    await Promise.all([respond(all[0], 0), respond(all[1], 1)]);
    await refreshAll();

    await Promise.all(Array.from({ length: 16 }, (_, i) => respond(all[i % 2]!, i + 2)));
    expect(await all[0].store.responses.readStored()).toHaveLength(18);

    // Each instance's refresh brings the other's rows; the cell is written from the rows, whoever writes last.
    const storedCell = async () => (await all[0].store.requests.readStored()).find((row) => row.id === request.id)?.responses;
    await expect.poll(async () => (await refreshAll(), storedCell()), { timeout: 10_000, interval: 200 }).toBe(18);
    await refreshAll();
    expect(all.map((services) => services.store.requests.get(request.id)?.responses)).toEqual([18, 18]);
    expect(all.map((services) => responseCount(services, request.id))).toEqual([18, 18]);
  });

  it("notify the recipient once of two messages sent in one conversation in the same second, one on each", async () => {
    const { all, outbox } = await twoInstances(driver);
    const [sender, recipient] = await conversationPair(all[0]);
    await all[1].store.refresh();
    const sent = await Promise.all([
      sendOn(all[0], sender, recipient, "From the first tab"),
      sendOn(all[1], sender, recipient, "From the second tab"),
    ]);
    expect((await Promise.all(sent.map((message) => message.notification))).sort()).toEqual(["sent", "throttled"]);
    expect((await outbox()).filter((mail) => mail.to === recipient.email)).toHaveLength(1);
  });

  it("notify each member once when the two write to each other in the same second, one on each instance", async () => {
    const { all, outbox } = await twoInstances(driver);
    const [sam, rita] = await conversationPair(all[0]);
    await all[1].store.refresh();
    const sent = await Promise.all([sendOn(all[0], sam, rita, "From Sam"), sendOn(all[1], rita, sam, "From Rita")]);
    expect(await Promise.all(sent.map((message) => message.notification))).toEqual(["sent", "sent"]);
    const mails = await outbox();
    expect(mails.filter((mail) => mail.to === rita.email)).toHaveLength(1);
    expect(mails.filter((mail) => mail.to === sam.email)).toHaveLength(1);
  });

  // Both were mailed 40 minutes ago, as both instances read; another instance mailed them again 20
  // minutes ago, and these two have not read its claims yet (their refreshes are behind), so
  // each takes that link for the chain's next one.
  it("notify the recipient once when both instances, behind on the claims, send in the same second", async () => {
    const setup = await twoInstances(driver);
    const { all, outbox } = setup;
    const [sam, rita] = await conversationPair(all[0]);
    await mailedBefore(setup, [chainKey(rita, 0), chainKey(sam, 0)], minutesAgo(40));
    await claimedElsewhere(driver, setup, [chainKey(rita, 1), chainKey(sam, 1)], minutesAgo(20));
    const sent = await Promise.all([sendOn(all[0], sam, rita, "From the first tab"), sendOn(all[1], sam, rita, "From the second tab")]);
    expect((await Promise.all(sent.map((message) => message.notification))).sort()).toEqual(["sent", "throttled"]);
    expect((await outbox()).filter((mail) => mail.to === rita.email)).toHaveLength(1);
  });

  it("notify each member once when the two, on instances behind on the claims, write to each other in the same second", async () => {
    const setup = await twoInstances(driver);
    const { all, outbox } = setup;
    const [sam, rita] = await conversationPair(all[0]);
    await mailedBefore(setup, [chainKey(rita, 0), chainKey(sam, 0)], minutesAgo(40));
    await claimedElsewhere(driver, setup, [chainKey(rita, 1), chainKey(sam, 1)], minutesAgo(20));
    const sent = await Promise.all([sendOn(all[0], sam, rita, "From Sam"), sendOn(all[1], rita, sam, "From Rita")]);
    expect(await Promise.all(sent.map((message) => message.notification))).toEqual(["sent", "sent"]);
    const mails = await outbox();
    expect(mails.filter((mail) => mail.to === rita.email)).toHaveLength(1);
    expect(mails.filter((mail) => mail.to === sam.email)).toHaveLength(1);
  });
});

/** The key of link `link` of the chain of mails to `member` about the pair's conversation. */
function chainKey(member: Agent, link: number): string {
  return `message:c-sam-rita/${member.email}#${link}`;
}

function minutesAgo(minutes: number): Date {
  return new Date(Date.now() - minutes * 60_000);
}

/** Claim rows of mails sent at `at`, stored through the first instance and read by both. */
async function mailedBefore(
  { all, refreshAll }: { all: readonly Services[]; refreshAll: () => Promise<unknown> },
  keys: readonly string[],
  at: Date,
) {
  for (const key of keys)
    await all[0]!.store.sendClaims.insert({
      id: newId(),
      key,
      instance: "earlier",
      outcome: "claimed",
      note: "",
      claimedAt: at.toISOString(),
    });
  await refreshAll();
}

/**
 * Claim rows another instance stored that neither of the two has read yet: put in the sheet or
 * the SQLite file, which the two read at their next refresh; on PostgreSQL stored without the
 * change notification (the triggers off for that session), as when it is not heard yet.
 */
async function claimedElsewhere(driver: Driver, { book, config }: Setup, keys: readonly string[], at: Date): Promise<void> {
  const rows = keys.map((key) => ({ id: newId(), key, instance: "elsewhere", outcome: "claimed", note: "", claimedAt: at.toISOString() }));
  if (driver === "sheets") {
    const headers = book!.headers("SendClaims");
    for (const row of rows)
      book!.insertRow(
        "SendClaims",
        book!.rows("SendClaims").length + 1,
        headers.map((header) => row[header as keyof typeof row] ?? ""),
      );
    return;
  }
  const insert = `INSERT INTO "SendClaims" ("id", "key", "instance", "outcome", "note", "claimedAt") VALUES `;
  if (driver === "postgres") {
    const client = new pg.Client({ connectionString: config.databaseUrl });
    await client.connect();
    try {
      await client.query("SET session_replication_role = replica");
      for (const row of rows) await client.query(`${insert}($1, $2, $3, $4, $5, $6)`, Object.values(row));
    } finally {
      await client.end();
    }
    return;
  }
  const db = new Database(sqliteStorePath(config));
  try {
    for (const row of rows) db.prepare(`${insert}(?, ?, ?, ?, ?, ?)`).run(...Object.values(row));
  } finally {
    db.close();
  }
}

/** Two members on the first instance, about to write to each other. */
function conversationPair(services: Services): Promise<[Agent, Agent]> {
  return Promise.all([
    services.store.agents.insert(agentRecord({ email: "sam@example.com", fullName: "Sam Ortiz" })),
    services.store.agents.insert(agentRecord({ email: "rita@example.com", fullName: "Rita Moss" })),
  ]);
}

/** `sender` writes to `recipient` through this instance, in their one conversation. */
function sendOn(services: Services, sender: Agent, recipient: Agent, text: string) {
  return sendMessage(services, {
    sender,
    recipient,
    conversationId: "c-sam-rita",
    text,
    request: new Request("http://localhost/messages"),
  });
}

/** The rows of SendClaims whose key starts with `prefix`, as sheet row numbers. */
function claimRows(book: FakeSpreadsheet, prefix: string): number[] {
  const rows = book.rows("SendClaims");
  const key = rows[0]?.indexOf("key") ?? -1;
  return rows.flatMap((row, i) => (i > 0 && row[key]?.startsWith(prefix) ? [i + 1] : []));
}

type Setup = { book: FakeSpreadsheet | undefined; config: Config };

/**
 * Staff deleting the claim rows whose key starts with `prefix` as soon as they appear, until
 * `count` rows are gone: on Sheets just before the next read that could find them (an
 * instance's read-back); on SQLite and PostgreSQL as each row is stored (a trigger, counting
 * the rows left to delete). Answers a function telling how many rows are still to delete.
 */
async function staffDeleteFreshClaims(driver: Driver, { book, config }: Setup, prefix: string, count: number) {
  if (driver === "sheets") {
    let left = count;
    const deleteSome = (edited: FakeSpreadsheet) => {
      for (const row of claimRows(edited, prefix).reverse().slice(0, left)) {
        edited.deleteRow("SendClaims", row);
        left -= 1;
      }
      if (left > 0) arm();
    };
    const arm = () => fake.beforeNext(deleteSome, (call) => matchers.reads(call) && claimRows(book!, prefix).length > 0);
    arm();
    return async () => left;
  }
  if (driver === "postgres") {
    const client = new pg.Client({ connectionString: config.databaseUrl });
    await client.connect();
    try {
      await client.query(`CREATE TABLE staff_deletions ("rowsLeft" integer); INSERT INTO staff_deletions VALUES (${count});
        CREATE FUNCTION staff_deletes_fresh_claim() RETURNS trigger AS $$ BEGIN
          -- Counted down under the row's lock: of two claims stored at once, only one takes the last deletion.
          UPDATE staff_deletions SET "rowsLeft" = "rowsLeft" - 1 WHERE "rowsLeft" > 0;
          IF FOUND THEN
            DELETE FROM "SendClaims" WHERE "id" = NEW."id";
          END IF;
          RETURN NULL;
        END $$ LANGUAGE plpgsql;
        CREATE TRIGGER staff_deletes_fresh_claims AFTER INSERT ON "SendClaims" FOR EACH ROW
        WHEN (starts_with(NEW."key", '${prefix}')) EXECUTE FUNCTION staff_deletes_fresh_claim();`);
    } finally {
      await client.end();
    }
    return async () => {
      const reader = new pg.Client({ connectionString: config.databaseUrl });
      await reader.connect();
      try {
        return ((await reader.query('SELECT "rowsLeft" FROM staff_deletions')).rows[0] as { rowsLeft: number }).rowsLeft;
      } finally {
        await reader.end();
      }
    };
  }
  const file = sqliteStorePath(config);
  const db = new Database(file);
  db.exec(`CREATE TABLE staff_deletions (rowsLeft INTEGER); INSERT INTO staff_deletions VALUES (${count});
    CREATE TRIGGER staff_deletes_fresh_claims AFTER INSERT ON "SendClaims"
    WHEN substr(NEW."key", 1, ${prefix.length}) = '${prefix}' AND (SELECT rowsLeft FROM staff_deletions) > 0
    BEGIN DELETE FROM "SendClaims" WHERE rowid = NEW.rowid; UPDATE staff_deletions SET rowsLeft = rowsLeft - 1; END;`);
  db.close();
  return async () => {
    const reader = new Database(file, { readonly: true });
    try {
      return (reader.prepare("SELECT rowsLeft FROM staff_deletions").get() as { rowsLeft: number }).rowsLeft;
    } finally {
      reader.close();
    }
  };
}

/** Staff approving agents: typed in the sheet (the Agents tab stays there with PostgreSQL), or set in the SQLite file. */
function approve(driver: Driver, { book, config }: Setup, ids: readonly string[]) {
  if (book) {
    for (const id of ids) book.setCell("Agents", { id, header: "status" }, "approved");
    return;
  }
  const db = new Database(sqliteStorePath(config));
  try {
    for (const id of ids) db.prepare(`UPDATE "Agents" SET "status" = 'approved' WHERE "id" = ?`).run(id);
  } finally {
    db.close();
  }
}

describe.each(drivers)("staff deleting fresh SendClaims rows on %s", { timeout: 60_000 }, (driver) => {
  it("do not lose the conversation's notification: the link is claimed again at once, and mailed once", async () => {
    const { all, book, config, outbox } = await twoInstances(driver);
    const [sender, recipient] = await conversationPair(all[0]);
    await all[1].store.refresh();
    const deletionsLeft = await staffDeleteFreshClaims(driver, { book, config }, "message:", 2);

    const sent = await Promise.all([
      sendOn(all[0], sender, recipient, "From the first tab"),
      sendOn(all[1], sender, recipient, "From the second tab"),
    ]);
    // Neither first claim was there to read back: each instance read the tab again and claimed anew, and one won.
    expect((await Promise.all(sent.map((message) => message.notification))).sort()).toEqual(["sent", "throttled"]);
    expect(await deletionsLeft()).toBe(0);

    const next = await sendOn(all[1], sender, recipient, "One more thing");
    expect(await next.notification).toBe("throttled");
    expect((await outbox()).filter((mail) => mail.to === recipient.email)).toHaveLength(1);
  });

  it("do not lose the approval mails nor send them twice: each of three goes once, from one of two instances", async () => {
    const { all, book, config, outbox } = await twoInstances(driver, { STORE_REFRESH_SECONDS: "1" });
    const agents = await Promise.all(
      [1, 2, 3].map((i) => all[0].store.agents.insert(agentRecord({ email: `pending${i}@example.com`, status: "pending" }))),
    );
    await Promise.all(all.map((services) => services.store.refresh()));
    // Both instances claim each of the three: six rows, all deleted before they are read back.
    const deletionsLeft = await staffDeleteFreshClaims(driver, { book, config }, "decision:", 6);
    approve(
      driver,
      { book, config },
      agents.map((agent) => agent.id),
    );
    all.forEach(startServices);

    // The agents' mails only: staff are mailed too while no license data is loaded.
    const agentMails = async () => (await outbox()).filter((mail) => mail.to.startsWith("pending"));
    await expect.poll(async () => (await agentMails()).length, { timeout: 20_000, interval: 250 }).toBeGreaterThanOrEqual(3);
    expect(await deletionsLeft()).toBe(0);
    // Several refreshes later, on both instances, still one mail each.
    await new Promise((resolve) => setTimeout(resolve, 3_000));
    const mails = await agentMails();
    expect(mails.map((mail) => mail.to).sort()).toEqual(["pending1@example.com", "pending2@example.com", "pending3@example.com"]);
    expect(mails.every((mail) => mail.subject === "Your Red River Referrals account is approved")).toBe(true);
  });
});
