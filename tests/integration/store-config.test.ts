/** Choosing and configuring the store from the environment; the backoff policy of the Sheets driver. */
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { ConfigError, loadConfig } from "../../app/server/config.server";
import { backoffDelay, isRetryable, withRetry } from "../../app/server/store/retry.server";
import { DatabaseStartError } from "../../app/server/store/postgres/driver.server";
import { createStoreFromConfig } from "../../app/server/store/store.server";

const dataDir = () => mkdtempSync(path.join(tmpdir(), "store-config-"));
const key = JSON.stringify({
  type: "service_account",
  client_email: "app@project.iam.gserviceaccount.com",
  private_key: "-----BEGIN PRIVATE KEY-----\n...",
});

describe("store configuration", () => {
  it("uses SQLite in DATA_DIR with a 10-second refresh when nothing is set", async () => {
    const config = loadConfig({ DATA_DIR: dataDir() });
    expect(config.sheets).toBeUndefined();
    expect(config.storeRefreshSeconds).toBe(10);
    const store = createStoreFromConfig(config);
    expect(store.driver).toBe("sqlite");
    await store.stop();
  });

  it("uses Google Sheets when a spreadsheet and a key are given", () => {
    const config = loadConfig({
      DATA_DIR: dataDir(),
      GOOGLE_SHEETS_ID: "sheet-1",
      GOOGLE_SERVICE_ACCOUNT_JSON: key,
      STORE_REFRESH_SECONDS: "30",
    });
    expect(config.sheets).toMatchObject({ spreadsheetId: "sheet-1", credentials: { kind: "json" }, apiUrl: undefined });
    expect(config.storeRefreshSeconds).toBe(30);
    expect(createStoreFromConfig(config).driver).toBe("sheets");
  });

  it("accepts a key file that exists", () => {
    const file = path.join(dataDir(), "key.json");
    writeFileSync(file, key);
    const config = loadConfig({ DATA_DIR: dataDir(), GOOGLE_SHEETS_ID: "sheet-1", GOOGLE_APPLICATION_CREDENTIALS: file });
    expect(config.sheets?.credentials).toEqual({ kind: "keyFile", path: file });
  });

  it("sends a fixed token to a local API URL when no credentials are given, outside production only", () => {
    const local = { DATA_DIR: dataDir(), GOOGLE_SHEETS_ID: "local", GOOGLE_SHEETS_API_URL: "http://127.0.0.1:8085/" };
    expect(loadConfig(local).sheets).toEqual({
      spreadsheetId: "local",
      apiUrl: "http://127.0.0.1:8085/",
      writeCallsPerMinute: 24,
      credentials: { kind: "fixedToken" },
    });
    expect(loadConfig({ ...local, SHEETS_WRITE_CALLS_PER_MINUTE: "12" }).sheets?.writeCallsPerMinute).toBe(12);
    expect(() => loadConfig({ ...local, SHEETS_WRITE_CALLS_PER_MINUTE: "0" })).toThrow(/SHEETS_WRITE_CALLS_PER_MINUTE/);
    expect(() => loadConfig({ ...local, NODE_ENV: "production", SESSION_SECRET: "s", APP_URL: "https://referrals.example" })).toThrow(
      /no credentials/,
    );
  });

  it.each([
    [{ GOOGLE_SHEETS_ID: "sheet-1" }, /GOOGLE_SHEETS_ID is set but no credentials/],
    [{ GOOGLE_SHEETS_ID: "sheet-1", GOOGLE_APPLICATION_CREDENTIALS: "/nowhere/key.json" }, /no key file at \/nowhere\/key.json/],
    [{ GOOGLE_SHEETS_ID: "sheet-1", GOOGLE_SERVICE_ACCOUNT_JSON: "{not json" }, /not valid JSON/],
    [{ GOOGLE_SHEETS_ID: "sheet-1", GOOGLE_SERVICE_ACCOUNT_JSON: '{"type":"service_account"}' }, /client_email and private_key/],
    [{ GOOGLE_SHEETS_ID: "sheet-1", GOOGLE_SERVICE_ACCOUNT_JSON: key, GOOGLE_APPLICATION_CREDENTIALS: "/k.json" }, /only one of/],
    [{ GOOGLE_SHEETS_API_URL: "http://127.0.0.1:8085/" }, /without GOOGLE_SHEETS_ID/],
    [{ GOOGLE_SHEETS_ID: "x", GOOGLE_SHEETS_API_URL: "not a url" }, /GOOGLE_SHEETS_API_URL: must be a URL/],
    [{ STORE_REFRESH_SECONDS: "0" }, /STORE_REFRESH_SECONDS/],
  ])("refuses to start with %j", (env, message) => {
    expect(() => loadConfig({ DATA_DIR: dataDir(), ...env })).toThrow(ConfigError);
    expect(() => loadConfig({ DATA_DIR: dataDir(), ...env })).toThrow(message);
  });

  it("takes DATABASE_URL only as a PostgreSQL URL, and says at start-up what to check when the database cannot be reached", async () => {
    expect(() => loadConfig({ DATA_DIR: dataDir(), DATABASE_URL: "mysql://app@db/referrals" })).toThrow(
      /DATABASE_URL: must be a PostgreSQL connection URL/,
    );
    expect(loadConfig({ DATA_DIR: dataDir() }).databaseUrl).toBeUndefined();
    // A port nothing listens on: the first read fails, naming the setting and the server.
    const config = loadConfig({ DATA_DIR: dataDir(), DATABASE_URL: "postgres://app@127.0.0.1:9/referrals" });
    const store = createStoreFromConfig(config);
    const failure = await store.refresh().catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(DatabaseStartError);
    expect(String(failure)).toMatch(
      /the database \(DATABASE_URL\) refused: .*Check DATABASE_URL, and that PostgreSQL is running and reachable/,
    );
    await store.stop();
  });

  it("ignores GOOGLE_APPLICATION_CREDENTIALS alone, which other Google tools read too", () => {
    expect(loadConfig({ DATA_DIR: dataDir(), GOOGLE_APPLICATION_CREDENTIALS: "/elsewhere.json" }).sheets).toBeUndefined();
  });
});

describe("retry policy", () => {
  const policy = { attempts: 4, baseDelayMs: 100, maxDelayMs: 300 };

  it("waits a random time under a ceiling that doubles and is capped", () => {
    expect([0, 1, 2, 3].map((attempt) => backoffDelay(policy, attempt, () => 0.999))).toEqual([99, 199, 299, 299]);
    expect(backoffDelay(policy, 3, () => 0)).toBe(0);
  });

  it("retries quota, server, timeout and connection errors only", () => {
    expect(isRetryable({ status: 429 })).toBe(true);
    expect(isRetryable({ response: { status: 503 } })).toBe(true);
    expect(isRetryable(Object.assign(new Error("fetch failed"), { cause: { code: "ECONNRESET" } }))).toBe(true);
    expect(isRetryable(new DOMException("timed out", "TimeoutError"))).toBe(true);
    expect(isRetryable({ status: 400 })).toBe(false);
    expect(isRetryable({ status: 403 })).toBe(false);
    expect(isRetryable(new Error("The Agents tab has no status column"))).toBe(false);
  });

  it("gives up after the last attempt with the last error", async () => {
    let tries = 0;
    const failing = withRetry({ attempts: 3, baseDelayMs: 1, maxDelayMs: 1 }, async () => {
      tries += 1;
      throw Object.assign(new Error(`try ${tries}`), { status: 500 });
    });
    await expect(failing).rejects.toThrow("try 3");
    expect(tries).toBe(3);
  });

  it("retries only what the policy's own test accepts, when it has one", async () => {
    const busy = (error: unknown) => (error as { code?: unknown }).code === "SQLITE_BUSY";
    const policy = { attempts: 5, baseDelayMs: 1, maxDelayMs: 1, retryable: busy };
    let tries = 0;
    const locked = withRetry(policy, async () => {
      tries += 1;
      if (tries < 3) throw Object.assign(new Error("database is locked"), { code: "SQLITE_BUSY" });
      return "stored";
    });
    expect(await locked).toBe("stored");
    tries = 0;
    const serverError = withRetry(policy, async () => {
      tries += 1;
      throw Object.assign(new Error("a 500"), { status: 500 });
    });
    await expect(serverError).rejects.toThrow("a 500");
    expect(tries).toBe(1);
  });
});
