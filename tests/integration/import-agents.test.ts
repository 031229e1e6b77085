import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import Database from "better-sqlite3";
import { afterEach, describe, expect, it, vi } from "vitest";
import { NO_PASSWORD_NOTE } from "../../scripts/lib/agent-import";
import { hashPassword, verifyPassword } from "../../app/server/auth/password.server";
import { loadConfig } from "../../app/server/config.server";
import { createStoreFromConfig, type Store } from "../../app/server/store/store.server";
import { startFakeSheets } from "../../scripts/lib/fake-sheets/server";
import { openSheetsStore } from "../support/fake-sheets";
import { importAgents } from "../../scripts/lib/import-agents";
import { testConfig } from "../support/services";
import { runStoreCommand } from "../support/store-command";

const FIXTURE = path.resolve("tests/fixtures/old-agents.csv");
/** Every password in the fixture, imported or not: none may appear in the store or the output. */
const FIXTURE_PASSWORDS = [
  "Bluebonnet#2019",
  "Tulsa-Sooner-88",
  "NoName-Pass-1",
  "BadMail-Pass-1",
  "Kansas-Pass-1",
  "Duplicate-Pass-1",
  "Unquoted-Pass-1",
  "Texas-Word-Pass",
  '=HYPERLINK("http://evil.example")',
];
const NOW = new Date("2025-03-14T15:00:00.000Z");
const CONFIG = testConfig();
const testHash = (plain: string) => hashPassword(CONFIG, plain);

const opened: Store[] = [];
afterEach(async () => {
  await Promise.all(opened.splice(0).map((store) => store.stop()));
});

function tempDataDir(): string {
  return mkdtempSync(path.join(tmpdir(), "import-agents-test-"));
}

async function openStore(dataDir = tempDataDir()): Promise<{ store: Store; dataDir: string }> {
  const store = createStoreFromConfig(loadConfig({ NODE_ENV: "test", DATA_DIR: dataDir }));
  opened.push(store);
  await store.refresh();
  return { store, dataDir };
}

function readFixture(): Promise<string> {
  return import("node:fs/promises").then((fs) => fs.readFile(FIXTURE, "utf8"));
}

/** Every cell of every table in the SQLite file. */
function allCellText(dataDir: string): string {
  const db = new Database(path.join(dataDir, "store.sqlite"), { readonly: true });
  try {
    const tables = db.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").all() as { name: string }[];
    return JSON.stringify(tables.map(({ name }) => db.prepare(`SELECT * FROM "${name}" ORDER BY rowid`).all()));
  } finally {
    db.close();
  }
}

describe("importAgents", { timeout: 30_000 }, () => {
  it("imports valid rows as approved members with hashed passwords and lists the rest", async () => {
    const { store, dataDir } = await openStore();
    const outcome = await importAgents(store, await readFixture(), { now: NOW, hashPassword: testHash });

    expect(outcome.failure).toBeUndefined();
    expect(outcome.imported.map((agent) => [agent.line, agent.email])).toEqual([
      [2, "dana.reyes@example.com"],
      [3, "lee.park@example.com"],
      [5, "ann.cole@example.com"],
      [12, "jo.whitt@example.com"],
    ]);
    expect(outcome.imported[2]?.notes).toEqual(["photo left out: it is not an http(s) address", NO_PASSWORD_NOTE]);
    expect(outcome.imported[3]?.notes).toEqual(["photo kept, but pages show only https photos: change it to an https address"]);
    expect(outcome.plan.skipped).toEqual([
      { line: 6, reason: "no name" },
      { line: 7, reason: 'invalid e-mail address "bad-email@"' },
      { line: 8, reason: 'state "KS" is not TX or OK' },
      { line: 9, reason: "dana.reyes@example.com repeats line 2" },
      { line: 10, reason: "10 cells where the header names 9 columns: a comma outside quotes?" },
      { line: 11, reason: 'state "TEXAS" is not TX or OK' },
    ]);

    const { store: reread } = await openStore(dataDir);
    expect(reread.health().invalidRows).toEqual([]);
    const agents = reread.agents.all();
    expect(agents).toHaveLength(4);
    for (const agent of agents) {
      expect(agent).toMatchObject({ status: "approved", membershipType: "member", createdAt: NOW.toISOString() });
    }
    const [dana] = reread.agents.by("email", "dana.reyes@example.com");
    expect(dana).toMatchObject({
      fullName: "Dana Reyes",
      city: "Tyler",
      state: "TX",
      brokerage: "Piney Woods Realty",
      specialties: ["Residential", "Land"],
      photoUrl: "https://images.example/dana.jpg",
      bio: 'Tyler native; "Dana knows dirt roads."',
    });
    expect(await verifyPassword("Bluebonnet#2019", dana!.passwordHash)).toBe(true);
    expect(reread.agents.by("email", "lee.park@example.com")[0]).toMatchObject({
      fullName: "Park, Lee",
      state: "OK",
      brokerage: "Green Country Realty, LLC",
      specialties: ["Investment", "Residential Income"],
    });
    const [ann] = reread.agents.by("email", "ann.cole@example.com");
    expect(ann).toMatchObject({ passwordHash: "", photoUrl: "" });
    const [jo] = reread.agents.by("email", "jo.whitt@example.com");
    expect(jo).toMatchObject({ bio: "=1+1", photoUrl: "http://images.example/jo.png" });
    expect(await verifyPassword('=HYPERLINK("http://evil.example")', jo!.passwordHash)).toBe(true);

    const cells = allCellText(dataDir);
    for (const password of FIXTURE_PASSWORDS) expect(cells).not.toContain(JSON.stringify(password).slice(1, -1));
  });

  it("changes nothing when the same file is imported again", async () => {
    const { store, dataDir } = await openStore();
    const csv = await readFixture();
    await importAgents(store, csv, { now: NOW, hashPassword: testHash });
    const before = allCellText(dataDir);
    const again = await importAgents(store, csv, { now: new Date(), hashPassword: testHash });
    expect(again.imported).toEqual([]);
    expect(again.plan.skipped.filter((row) => row.reason.endsWith("is already in the store")).map((row) => row.line)).toEqual([
      2, 3, 5, 9, 12,
    ]);
    expect(allCellText(dataDir)).toBe(before);
  });

  it("stops at a write the store refuses and imports the rest on the next run", async () => {
    const { store } = await openStore();
    const csv = await readFixture();
    const insert = store.agents.insert.bind(store.agents);
    const refusing = vi
      .spyOn(store.agents, "insert")
      .mockImplementation((record) =>
        record.email === "ann.cole@example.com" ? Promise.reject(new Error("The service is currently unavailable.")) : insert(record),
      );
    const first = await importAgents(store, csv, { now: NOW, hashPassword: testHash });
    // The rows sent with the refused one are stored; only the refused one is left for the re-run.
    expect(first.imported.map((agent) => agent.email)).not.toContain("ann.cole@example.com");
    expect(first.imported).toHaveLength(3);
    expect(first.failure).toEqual({ line: 5, email: "ann.cole@example.com", reason: "The service is currently unavailable." });
    refusing.mockRestore();
    const second = await importAgents(store, csv, { now: NOW, hashPassword: testHash });
    expect(second.imported.map((agent) => agent.email)).toEqual(["ann.cole@example.com"]);
    expect(store.agents.all()).toHaveLength(4);
  });

  it("stops before a group whose pacing failed, storing nothing of it", async () => {
    const { store } = await openStore();
    const first = await importAgents(store, await readFixture(), {
      now: NOW,
      hashPassword: testHash,
      beforeWrite: () => Promise.reject(new Error("quota wait interrupted")),
    });
    expect(first.imported).toEqual([]);
    expect(first.failure).toMatchObject({ reason: "quota wait interrupted" });
    expect(store.agents.all()).toHaveLength(0);
  });
});

describe("importAgents on Google Sheets", () => {
  it("appends many rows per API call, not one call per row", async () => {
    const fake = await startFakeSheets({ port: 0 });
    try {
      const { store, spreadsheetId } = await openSheetsStore(fake, "import");
      opened.push(store);
      const lines = Array.from({ length: 40 }, (_, i) => `Agent ${i},agent${i}@example.com,Dallas,TX,,,,,`);
      const csv = ["fullName,email,city,state,brokerage,specialties,password,photo,bio", ...lines].join("\n");
      const before = fake.calls.length;
      const outcome = await importAgents(store, csv, { now: NOW, hashPassword: testHash });
      expect(outcome.imported).toHaveLength(40);
      expect(fake.spreadsheet(spreadsheetId).rows("Agents").slice(1)).toHaveLength(40);
      const appends = fake.calls.slice(before).filter((call) => call.kind === "spreadsheets.batchUpdate").length;
      // The first row goes at once; the rest, arriving while it is under way, go together.
      expect(appends).toBeLessThanOrEqual(2);
    } finally {
      await fake.close();
    }
  });
});

describe("npm run import:agents", () => {
  const run = (dataDir: string, args: string[]) => runStoreCommand("scripts/import-agents.ts", dataDir, { args });

  it("reports each imported and skipped row by line, never a password", async () => {
    const dataDir = tempDataDir();
    const result = await run(dataDir, [FIXTURE]);
    expect(result.stderr).toBe("");
    expect(result.status).toBe(0);
    expect(result.stdout).toContain("  line 2: dana.reyes@example.com\n");
    expect(result.stdout).toContain(
      `  line 5: ann.cole@example.com  (photo left out: it is not an http(s) address; ${NO_PASSWORD_NOTE})\n`,
    );
    expect(result.stdout).toContain('  line 7: invalid e-mail address "bad-email@"\n');
    expect(result.stdout).toContain("4 agents imported, 6 rows skipped.\n");
    for (const password of FIXTURE_PASSWORDS) expect(result.stdout).not.toContain(password);

    const again = await run(dataDir, [FIXTURE]);
    expect(again.status).toBe(0);
    expect(again.stdout).toContain("0 agents imported, 10 rows skipped. Nothing changed.\n");
  }, 60_000);

  it("refuses a file it cannot import, and a missing argument, with one line and exit code 1", async () => {
    const dataDir = tempDataDir();
    const noEmail = path.join(dataDir, "no-email.csv");
    writeFileSync(noEmail, "fullName,state,password\nDana,TX,secret-pass\n");
    const [result, noArgument, missing] = await Promise.all([
      run(dataDir, [noEmail]),
      run(dataDir, []),
      run(dataDir, [path.join(dataDir, "missing.csv")]),
    ]);
    expect(result.status).toBe(1);
    expect(result.stderr).toBe(
      "The header row has no email column. The first row must name the columns: fullName, email, city, state, brokerage, specialties, password, photo, bio.\n",
    );
    expect(noArgument).toMatchObject({ status: 1, stderr: "Usage: npm run import:agents -- FILE.csv\n" });
    expect(missing).toMatchObject({
      status: 1,
      stderr: expect.stringMatching(/^Cannot read .*missing\.csv: ENOENT/),
    });
  }, 60_000);
});
