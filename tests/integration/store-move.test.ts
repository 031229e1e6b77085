import { execFile } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { afterEach, describe, expect, it } from "vitest";
import type { RowCells } from "../../app/domain/workbook/rows";
import { WORKBOOK } from "../../app/domain/workbook/tabs";
import type { WorkbookDriver } from "../../app/server/store/driver.server";
import { connectDatabase } from "../../app/server/store/postgres/database.server";
import { createPostgresDriver } from "../../app/server/store/postgres/driver.server";
import {
  describeMove,
  MOVED_TABS,
  MoveError,
  moveTabs,
  type MoveOptions,
  type MoveSide,
} from "../../app/server/store/postgres/move.server";
import { createSheetsDriver } from "../../app/server/store/sheets-driver.server";
import { createSqliteDriver } from "../../app/server/store/sqlite-driver.server";
import { newId } from "../../app/server/store/store.server";
import { useFakeSheets } from "../support/fake-sheets";
import { usePostgres } from "../support/postgres";

const { fake } = useFakeSheets();
const postgres = usePostgres();
const quietLog = { info: () => undefined, error: () => undefined };
const MESSAGES = WORKBOOK.messages;
const MEMBERS = WORKBOOK.conversationMembers;
const MARKS = WORKBOOK.marks;

const drivers: WorkbookDriver[] = [];
afterEach(async () => {
  await Promise.all(drivers.splice(0).map((driver) => driver.close()));
});

function opened(driver: WorkbookDriver): WorkbookDriver {
  drivers.push(driver);
  return driver;
}

type Backend = { name: "sheets" | "sqlite"; open(): MoveSide };
const backends: Backend[] = [
  {
    name: "sheets",
    open() {
      const spreadsheetId = `move-${newId()}`;
      fake.spreadsheet(spreadsheetId);
      const driver = createSheetsDriver({ spreadsheetId, credentials: { kind: "fixedToken" }, apiUrl: fake.url });
      return { driver: opened(driver), name: "sheet", description: `the spreadsheet ${spreadsheetId}` };
    },
  },
  {
    name: "sqlite",
    open() {
      const file = path.join(mkdtempSync(path.join(tmpdir(), "store-move-")), "store.sqlite");
      return { driver: opened(createSqliteDriver(file)), name: "file", description: `the SQLite store ${file}` };
    },
  },
];

async function openDatabase(): Promise<MoveSide & { url: string }> {
  const url = await postgres.server().createDatabase();
  return { url, driver: opened(createPostgresDriver(connectDatabase(url, quietLog))), name: "database", description: "the database" };
}

const LONG_TEXT = `${"Forty acres north of Sherman, ".repeat(300)}end`;

function message(i: number, text = `Message ${i}`): Record<string, string> {
  return {
    id: `message-${String(i).padStart(3, "0")}`,
    conversationId: `conversation-${i % 3}`,
    fromEmail: "dana@example.com",
    toEmail: "lee@example.com",
    text,
    createdAt: new Date(Date.UTC(2026, 10, 1, 12, i)).toISOString(),
    // Sent on the site: the cell that would say "email" for a reply by mail is empty.
    via: "",
  };
}

/** Cells that must arrive untouched: a formula-looking text, unicode, a blank, padding, a long text. */
const ODD_TEXTS = ["=1+1", "Grüße aus Tulsa — 🏡 日本語", "", "  kept as typed  ", LONG_TEXT, "+15551234567", "'quoted"];

/** Messages (some odd), two rows the app skips, a repeated read position, a mark: in the source, as staff and the app left them. */
async function fillSource(driver: WorkbookDriver): Promise<Record<string, string>[]> {
  await driver.ensureTabs(MOVED_TABS);
  const messages = Array.from({ length: 17 }, (_, i) => message(i, ODD_TEXTS[i] ?? `Message ${i}`));
  await driver.appendRows(MESSAGES, [
    ...messages.slice(0, 10),
    { ...message(90), id: "" },
    { ...message(91), id: messages[2]!.id },
    ...messages.slice(10),
  ]);
  await driver.appendRows(MEMBERS, [
    {
      id: "conversation-1/dana@example.com",
      conversationId: "conversation-1",
      agentEmail: "dana@example.com",
      lastReadAt: "2026-11-01T12:05:00.000Z",
    },
    {
      id: "conversation-1/lee@example.com",
      conversationId: "conversation-1",
      agentEmail: "lee@example.com",
      lastReadAt: "2026-11-01T12:01:00.000Z",
    },
    // Two instances added Dana's row at once: the app reads the two as one, keeping the later read.
    {
      id: "conversation-1/dana@example.com",
      conversationId: "conversation-1",
      agentEmail: "dana@example.com",
      lastReadAt: "2026-11-01T12:09:00.000Z",
    },
  ]);
  await driver.appendRows(MARKS, [
    {
      id: "mark-1",
      agentEmail: "dana@example.com",
      requestId: "request-1",
      kind: "saved",
      status: "active",
      createdAt: "2026-11-01T12:00:00.000Z",
    },
  ]);
  return messages;
}

async function rowsOf(driver: WorkbookDriver, tab: (typeof MOVED_TABS)[number]): Promise<RowCells[]> {
  const [rows = []] = await driver.readTabs([{ tab, from: 0 }]);
  return rows.map((row) => row.cells);
}

function move(options: Omit<MoveOptions, "log" | "batchSize" | "overwriteChanged"> & Partial<MoveOptions>, lines: string[] = []) {
  return moveTabs({ batchSize: 4, progressEveryMs: 0, overwriteChanged: false, log: (line) => lines.push(line), ...options });
}

/** A driver that breaks after `writes` appends, as a lost connection would. */
function failingAfter(side: MoveSide, writes: number): MoveSide {
  let left = writes;
  const driver: WorkbookDriver = {
    ...side.driver,
    async appendRows(tab, rows) {
      if (left-- <= 0) throw new Error("Connection terminated unexpectedly");
      return side.driver.appendRows(tab, rows);
    },
  };
  return { ...side, driver };
}

describe.each(backends)("npm run store:move from $name", (backend) => {
  it("copies every row that reads, cell for cell, reports the skipped ones, and finds both sides' checksums equal", async () => {
    const source = backend.open();
    const messages = await fillSource(source.driver);
    const database = await openDatabase();
    const lines: string[] = [];

    const report = await move({ from: source, to: database }, lines);

    expect(report.matches).toBe(true);
    const byTab = Object.fromEntries(report.tabs.map((outcome) => [outcome.tab, outcome]));
    expect(byTab.Messages).toMatchObject({ copied: 17, sourceRows: 17, destinationRows: 17, missing: [], differing: [] });
    expect(byTab.Messages!.sourceChecksum).toMatch(/^[0-9a-f]{64}$/);
    expect(byTab.Messages!.destinationChecksum).toBe(byTab.Messages!.sourceChecksum);
    const skippedRows = byTab.Messages!.skipped.map((row) => row.row);
    expect(skippedRows).toHaveLength(2);
    expect(byTab.Messages!.skipped[1]!.reason).toContain(`duplicate id ${messages[2]!.id}`);
    expect(byTab.ConversationMembers).toMatchObject({ copied: 2, skipped: [] });
    expect(byTab.Marks).toMatchObject({ copied: 1 });
    expect(byTab.Reviews).toMatchObject({ copied: 0, sourceRows: 0, matches: true });

    expect(await rowsOf(database.driver, MESSAGES)).toEqual(messages);
    expect((await rowsOf(database.driver, MEMBERS)).find((row) => row.id === "conversation-1/dana@example.com")?.lastReadAt).toBe(
      "2026-11-01T12:09:00.000Z",
    );
    // Batches of 4 for 17 rows: the progress is told between them.
    expect(lines).toContain(`Messages: 17 rows in the ${source.name}, 0 in the database; copying 17`);
    expect(lines).toContain("Messages: 8 of 17 rows written");
    const printed = describeMove(report).join("\n");
    expect(printed).toContain(`Messages: 2 rows not copied, which the app skips too (fix them in the ${source.name} and run again):`);
    for (const row of skippedRows) expect(printed).toContain(`  row ${row}: `);
    expect(printed).toContain("All 8 tabs match: 20 rows written to the database, 2 rows skipped as listed; ");
    // The source keeps every row.
    expect(await rowsOf(source.driver, MESSAGES)).toHaveLength(19);
  });

  it("goes on where a stopped move ended, copies nothing twice, and a run after a complete one changes nothing", async () => {
    const source = backend.open();
    await fillSource(source.driver);
    const database = await openDatabase();

    // Stopped by Ctrl-C once the first batch is written.
    const controller = new AbortController();
    const stopping: MoveSide = {
      ...database,
      driver: {
        ...database.driver,
        appendRows: async (tab, rows) => {
          await database.driver.appendRows(tab, rows);
          controller.abort();
        },
      },
    };
    await expect(move({ from: source, to: stopping, signal: controller.signal })).rejects.toThrow(
      new MoveError("Stopped in Messages after 4 of its 17 rows. Run the same command again to go on from there."),
    );
    expect(await rowsOf(database.driver, MESSAGES)).toHaveLength(4);

    // A lost connection after two more batches.
    await expect(move({ from: source, to: failingAfter(database, 2) })).rejects.toThrow(
      /^Could not write Messages to the database: Connection terminated/,
    );
    expect(await rowsOf(database.driver, MESSAGES)).toHaveLength(12);

    const lines: string[] = [];
    const finished = await move({ from: source, to: database }, lines);
    expect(finished.matches).toBe(true);
    expect(finished.tabs.find((outcome) => outcome.tab === "Messages")?.copied).toBe(5);
    expect(lines).toContain(`Messages: 17 rows in the ${source.name}, 12 in the database; copying 5`);
    const ids = (await rowsOf(database.driver, MESSAGES)).map((row) => row.id);
    expect(new Set(ids).size).toBe(17);
    expect(ids).toHaveLength(17);

    const again = await move({ from: source, to: database });
    expect(again.matches).toBe(true);
    expect(again.tabs.every((outcome) => outcome.copied === 0 && outcome.updated === 0)).toBe(true);
    expect(describeMove(again).at(-1)).toBe(
      "Nothing to copy: the database held every row already, and all 8 tabs match, 2 rows skipped as listed.",
    );
    expect(await rowsOf(database.driver, MESSAGES)).toHaveLength(17);
  });

  it("copies back what the database added or changed after the move, and only that, then matches", async () => {
    const source = backend.open();
    await fillSource(source.driver);
    const database = await openDatabase();
    expect((await move({ from: source, to: database })).matches).toBe(true);

    // The site ran on the database: a new message, a read further on, a new mark.
    const added = message(40, '=HYPERLINK("http://example.com")');
    await database.driver.appendRows(MESSAGES, [added]);
    await database.driver.updateRow(MEMBERS, "conversation-1/lee@example.com", { lastReadAt: "2026-11-02T09:00:00.000Z" });
    await database.driver.appendRows(MARKS, [
      {
        id: "mark-2",
        agentEmail: "lee@example.com",
        requestId: "request-1",
        kind: "interested",
        status: "active",
        createdAt: "2026-11-02T09:00:00.000Z",
      },
    ]);
    const before = await rowsOf(source.driver, MESSAGES);

    // Forward again now: the move never writes over the database's newer row, and says the tab differs.
    const forward = await move({ from: source, to: database });
    expect(forward.tabs.find((outcome) => outcome.tab === "ConversationMembers")).toMatchObject({
      matches: false,
      differing: ["conversation-1/lee@example.com"],
    });
    expect(forward.tabs.find((outcome) => outcome.tab === "Messages")).toMatchObject({ matches: true, onlyInDestination: 1 });
    expect(forward.matches).toBe(false);

    const back = await move({ from: database, to: source, overwriteChanged: true });
    expect(back.matches).toBe(true);
    const byTab = Object.fromEntries(back.tabs.map((outcome) => [outcome.tab, outcome]));
    expect(byTab.Messages).toMatchObject({ copied: 1, updated: 0 });
    expect(byTab.ConversationMembers).toMatchObject({ copied: 0, updated: 1 });
    expect(byTab.Marks).toMatchObject({ copied: 1, updated: 0 });
    expect(await rowsOf(source.driver, MESSAGES)).toEqual([...before, added]);
    const members = await rowsOf(source.driver, MEMBERS);
    expect(members).toHaveLength(3);
    expect(members.find((row) => row.id === "conversation-1/lee@example.com")?.lastReadAt).toBe("2026-11-02T09:00:00.000Z");
    expect(describeMove(back).at(-1)).toBe(`All 8 tabs match: 3 rows written to the ${source.name}; the database keeps its rows.`);
  });
});

it("refuses a tab staff changed so that it cannot be read safely, copying nothing of it", async () => {
  const spreadsheetId = `move-${newId()}`;
  const book = fake.spreadsheet(spreadsheetId);
  const source: MoveSide = {
    driver: opened(createSheetsDriver({ spreadsheetId, credentials: { kind: "fixedToken" }, apiUrl: fake.url })),
    name: "sheet",
    description: "the spreadsheet",
  };
  await fillSource(source.driver);
  book.setCell("Messages", "D1", "Recipient");
  const database = await openDatabase();

  await expect(move({ from: source, to: database })).rejects.toThrow(
    /^The Messages tab in the spreadsheet cannot be read safely: .*toEmail/,
  );
  expect(await rowsOf(database.driver, MESSAGES)).toEqual([]);
});

describe("the store:move command", () => {
  const tsx = path.resolve("node_modules/.bin/tsx");
  const run = promisify(execFile);
  const command = async (env: Record<string, string>, args: string[]) => {
    const {
      GOOGLE_SHEETS_ID: _sheet,
      GOOGLE_SHEETS_API_URL: _url,
      GOOGLE_SERVICE_ACCOUNT_JSON: _json,
      DATABASE_URL: _db,
      ...inherited
    } = process.env;
    try {
      const { stdout, stderr } = await run(tsx, ["scripts/store-move.ts", ...args], { env: { ...inherited, NODE_ENV: "test", ...env } });
      return { code: 0, stdout, stderr };
    } catch (error) {
      const failed = error as { code: number; stdout: string; stderr: string };
      return { code: failed.code, stdout: failed.stdout, stderr: failed.stderr };
    }
  };

  it("moves a SQLite store's tabs, and answers odd input with one line and exit code 1", async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), "store-move-command-"));
    const source = createSqliteDriver(path.join(dataDir, "store.sqlite"));
    await fillSource(source);
    await source.close();
    const { url } = await openDatabase();

    const [moved, noTarget, unknownTarget, noDatabase, unreachable] = await Promise.all([
      command({ DATA_DIR: dataDir, DATABASE_URL: url }, ["--to", "postgres"]),
      command({ DATA_DIR: dataDir, DATABASE_URL: url }, []),
      command({ DATA_DIR: dataDir, DATABASE_URL: url }, ["--to", "mysql"]),
      command({ DATA_DIR: dataDir }, ["--to", "postgres"]),
      command({ DATA_DIR: dataDir, DATABASE_URL: "postgres://nobody@127.0.0.1:1/referrals" }, ["--to", "postgres"]),
    ]);

    expect(moved).toMatchObject({ code: 0, stderr: "" });
    expect(moved.stdout).toMatch(/^Messages +17 +2 +17 +17 +[0-9a-f]{12} +yes$/m);
    expect(moved.stdout).toContain(
      "All 8 tabs match: 20 rows written to the database, 2 rows skipped as listed; the file keeps its rows.\n",
    );
    const usage = "Usage: npm run store:move -- --to postgres   (or --to sheets / --to sqlite to copy the database's rows back)\n";
    expect(noTarget).toMatchObject({ code: 1, stderr: usage });
    expect(unknownTarget).toMatchObject({ code: 1, stderr: usage });
    expect(noDatabase).toMatchObject({
      code: 1,
      stderr: "DATABASE_URL is not set: set it to the PostgreSQL database the tabs move to (or come back from).\n",
    });
    expect(unreachable.code).toBe(1);
    // One line, naming the database without its password and what refused.
    expect(unreachable.stderr).toMatch(/^Could not open the database referrals at 127\.0\.0\.1:1: [^\n]*ECONNREFUSED[^\n]*\n$/);
  }, 60_000);
});
