/**
 * Two app instances on one workbook, on SQLite (one file), on Google Sheets (the fake server)
 * and with the high-volume tabs in PostgreSQL (a real server): a request's count of responses
 * stays the count of its rows, a message sent on each at the same moment mails once, and a
 * decision mail goes once whatever staff do to the SendClaims rows meanwhile.
 */
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { loadConfig } from "../../app/server/config.server";
import { respondToRequest } from "../../app/server/requests/respond.server";
import { responseCount } from "../../app/server/requests/views.server";
import { createServices, stopServices } from "../../app/server/service-lifecycle.server";
import type { Services } from "../../app/server/services.server";
import { newId } from "../../app/server/store/store.server";
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
async function twoInstances(driver: (typeof drivers)[number]) {
  const dataDir = mkdtempSync(path.join(tmpdir(), "across-"));
  const spreadsheetId = `across-${newId()}`;
  const book = driver === "sqlite" ? undefined : fake.spreadsheet(spreadsheetId);
  // The writes' order is what is tested, not their pacing: the fake keeps no quota.
  const sheets =
    driver === "sqlite" ? {} : { GOOGLE_SHEETS_ID: spreadsheetId, GOOGLE_SHEETS_API_URL: fake.url, SHEETS_WRITE_CALLS_PER_MINUTE: "300" };
  const database = driver === "postgres" ? { DATABASE_URL: await postgres.server().createDatabase() } : {};
  const config = loadConfig({ NODE_ENV: "test", DATA_DIR: dataDir, SUPPORT_EMAIL: "support@example.test", ...sheets, ...database });
  const all = [createServices(config), createServices(config)] as const;
  running.push(...all);
  // The second starts once the first has made the tabs, as a deployment's instances would.
  await all[0].store.refresh();
  await all[1].store.refresh();
  const refreshAll = () => Promise.all(all.map((services) => services.store.refresh()));
  return { all, book, refreshAll };
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
