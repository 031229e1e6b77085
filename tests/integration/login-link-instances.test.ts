/**
 * A one-time login link used on two app instances at the same moment logs in once, on
 * SQLite (one file), on Google Sheets (the fake server) and with SendClaims in PostgreSQL
 * (a real server): its single use is a claim in the shared SendClaims tab, not a note in one
 * process's memory (docs/decisions/0057).
 */
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it, vi } from "vitest";
import { spendLoginLink } from "../../app/server/accounts/login-link.server";
import { createLoginLinkToken } from "../../app/server/auth/login-link-token.server";
import { loadConfig } from "../../app/server/config.server";
import { createServices, stopServices } from "../../app/server/service-lifecycle.server";
import type { Services } from "../../app/server/services.server";
import { newId, StoreWriteError } from "../../app/server/store/store.server";
import { useFakeSheets } from "../support/fake-sheets";
import { usePostgres } from "../support/postgres";
import { agentRecord } from "../support/records";

const { fake } = useFakeSheets();
const postgres = usePostgres();
const running: Services[] = [];
afterEach(async () => {
  await Promise.all(running.splice(0).map((services) => stopServices(services)));
});

const drivers = ["sqlite", "sheets", "postgres"] as const;

async function twoInstances(driver: (typeof drivers)[number]) {
  const dataDir = mkdtempSync(path.join(tmpdir(), "login-link-"));
  const spreadsheetId = `login-link-${newId()}`;
  if (driver === "sheets") fake.spreadsheet(spreadsheetId);
  const sheets =
    driver === "sheets" ? { GOOGLE_SHEETS_ID: spreadsheetId, GOOGLE_SHEETS_API_URL: fake.url, SHEETS_WRITE_CALLS_PER_MINUTE: "300" } : {};
  const database = driver === "postgres" ? { DATABASE_URL: await postgres.server().createDatabase() } : {};
  const config = loadConfig({ NODE_ENV: "test", DATA_DIR: dataDir, SUPPORT_EMAIL: "support@example.test", ...sheets, ...database });
  const all = [createServices(config), createServices(config)] as const;
  running.push(...all);
  await all[0].store.refresh();
  await all[1].store.refresh();
  return all;
}

describe.each(drivers)("two instances on %s", { timeout: 60_000 }, (driver) => {
  it("log in once with one login link used on both at the same moment, and never again", async () => {
    const all = await twoInstances(driver);
    const agent = await all[0].store.agents.insert(agentRecord({ email: "olive@example.com" }));
    await all[1].store.refresh();
    const token = createLoginLinkToken(all[0].config.sessionSecrets, agent, newId());

    const uses = await Promise.all(all.map((services) => spendLoginLink(services, token)));
    expect(uses.filter((use) => use.ok)).toHaveLength(1);

    await Promise.all(all.map((services) => services.store.refresh()));
    const again = await Promise.all(all.map((services) => spendLoginLink(services, token)));
    expect(again.filter((use) => use.ok)).toHaveLength(0);
  });
});

describe("a login link while SendClaims cannot be written", () => {
  it("rejects, for the page to say try again, and the link still works once the store is back", async () => {
    const [services] = await twoInstances("sqlite");
    const agent = await services.store.agents.insert(agentRecord({ email: "olive@example.com" }));
    const token = createLoginLinkToken(services.config.sessionSecrets, agent, newId());
    const outage = vi
      .spyOn(services.store.sendClaims, "insert")
      .mockRejectedValue(new StoreWriteError("SendClaims", { cause: new Error("ECONNREFUSED") }));
    await expect(spendLoginLink(services, token)).rejects.toBeInstanceOf(StoreWriteError);
    outage.mockRestore();
    expect(await spendLoginLink(services, token)).toMatchObject({ ok: true });
  });
});
