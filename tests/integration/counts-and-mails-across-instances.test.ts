/**
 * Two app instances on one workbook, on SQLite (one file), on Google Sheets (the fake server)
 * and with the high-volume tabs in PostgreSQL (a real server): a request's count of responses
 * stays the count of its rows, a message sent on each at the same moment mails once, and a
 * decision mail goes once whatever staff do to the SendClaims rows meanwhile.
 */
import Database from "better-sqlite3";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { loadConfig } from "../../app/server/config.server";
import { readOutbox } from "../../app/server/mail/mailer.server";
import { respondToRequest } from "../../app/server/requests/respond.server";
import { responseCount } from "../../app/server/requests/views.server";
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
const quiet = { info: () => undefined, warn: () => undefined, error: () => undefined };

/** Two instances on one new workbook of the driver, sharing one data directory and so one outbox. */
async function twoInstances(driver: (typeof drivers)[number], env: Record<string, string> = {}) {
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
});

/** The rows of SendClaims holding decision mails' claims, as sheet row numbers. */
function decisionClaimRows(book: FakeSpreadsheet): number[] {
  const rows = book.rows("SendClaims");
  const key = rows[0]?.indexOf("key") ?? -1;
  return rows.flatMap((row, i) => (i > 0 && row[key]?.startsWith("decision:") ? [i + 1] : []));
}

/**
 * Staff deleting the decision mails' claim rows as soon as they appear, `rounds` times: on
 * Sheets just before the next read that could find them (an instance's read-back), on SQLite
 * as each row is stored (a trigger, with a count of the rows left to delete). Resolves how
 * many deletions are still to come.
 */
function staffDeleteFreshDecisionClaims(driver: "sqlite" | "sheets", setup: { book?: FakeSpreadsheet; dataDir: string }, rounds: number) {
  if (driver === "sheets") {
    const book = setup.book!;
    let left = rounds;
    for (let i = 0; i < rounds; i += 1)
      fake.beforeNext(
        (edited) => {
          for (const row of decisionClaimRows(edited).reverse()) edited.deleteRow("SendClaims", row);
          left -= 1;
        },
        (call) => matchers.reads(call) && decisionClaimRows(book).length > 0,
      );
    return () => left;
  }
  const db = new Database(sqliteStorePath({ dataDir: setup.dataDir }));
  db.exec(`CREATE TABLE staff_deletions (rowsLeft INTEGER); INSERT INTO staff_deletions VALUES (${rounds * 6});
    CREATE TRIGGER staff_deletes_fresh_claims AFTER INSERT ON "SendClaims"
    WHEN NEW."key" LIKE 'decision:%' AND (SELECT rowsLeft FROM staff_deletions) > 0
    BEGIN DELETE FROM "SendClaims" WHERE rowid = NEW.rowid; UPDATE staff_deletions SET rowsLeft = rowsLeft - 1; END;`);
  db.close();
  return () => {
    const reader = new Database(sqliteStorePath({ dataDir: setup.dataDir }), { readonly: true });
    try {
      return Math.ceil((reader.prepare("SELECT rowsLeft FROM staff_deletions").get() as { rowsLeft: number }).rowsLeft / 6);
    } finally {
      reader.close();
    }
  };
}

/** Staff approving agents: typed in the sheet, or set in the SQLite file. */
function approve(driver: "sqlite" | "sheets", setup: { book?: FakeSpreadsheet; dataDir: string }, ids: readonly string[]) {
  if (driver === "sheets") {
    for (const id of ids) setup.book!.setCell("Agents", { id, header: "status" }, "approved");
    return;
  }
  const db = new Database(sqliteStorePath({ dataDir: setup.dataDir }));
  try {
    for (const id of ids) db.prepare(`UPDATE "Agents" SET "status" = 'approved' WHERE "id" = ?`).run(id);
  } finally {
    db.close();
  }
}

describe.each(["sqlite", "sheets"] as const)("staff deleting fresh SendClaims rows on %s", { timeout: 60_000 }, (driver) => {
  it("do not lose the approval mails: each of three goes once, from one of two instances", async () => {
    const { all, book, config, outbox } = await twoInstances(driver, { STORE_REFRESH_SECONDS: "1" });
    const agents = await Promise.all(
      [1, 2, 3].map((i) => all[0].store.agents.insert(agentRecord({ email: `pending${i}@example.com`, status: "pending" }))),
    );
    await Promise.all(all.map((services) => services.store.refresh()));
    const setup = { book, dataDir: config.dataDir };
    const deletionsLeft = staffDeleteFreshDecisionClaims(driver, setup, 1);
    approve(
      driver,
      setup,
      agents.map((agent) => agent.id),
    );
    all.forEach(startServices);

    await expect.poll(async () => (await outbox()).length, { timeout: 20_000, interval: 250 }).toBe(3);
    expect(deletionsLeft()).toBe(0);
    // Several refreshes later, on both instances, still one mail each.
    await new Promise((resolve) => setTimeout(resolve, 3_000));
    const mails = await outbox();
    expect(mails.map((mail) => mail.to).sort()).toEqual(["pending1@example.com", "pending2@example.com", "pending3@example.com"]);
    expect(mails.every((mail) => mail.subject === "Your Red River Referrals account is approved")).toBe(true);
  });
});
