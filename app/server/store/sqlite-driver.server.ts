import { mkdirSync } from "node:fs";
import path from "node:path";
import Database from "better-sqlite3";
import type { RowCells } from "~/domain/workbook/rows";
import { cellText, headerKey, type DriverRow, type ReadRequest, type TabSpec, type WorkbookDriver } from "./driver.server";
import { withRetry, type RetryPolicy } from "./retry.server";

/**
 * better-sqlite3 would wait for a lock on the one thread that serves every request, so a
 * try that finds the file locked fails at once, and the waiting is done between tries, with
 * timers (docs/decisions/0031).
 */
const BUSY_TIMEOUT_MS = 0;
/**
 * How long a write keeps trying while another connection (a second instance, a staff
 * script, the sqlite3 shell) holds the write lock. Past it the write is refused and the
 * page says so (StoreWriteError, 503): a lock held that long is a person's open transaction.
 */
export const LOCK_WAIT_MS = 3_000;
const LOCK_RETRY: RetryPolicy = { attempts: Number.POSITIVE_INFINITY, baseDelayMs: 10, maxDelayMs: 200, retryable: isBusy };

/** SQLITE_BUSY and its extended codes: another connection holds a lock this one needs. */
function isBusy(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === "string" && code.startsWith("SQLITE_BUSY");
}

/** Runs a transaction, trying again while the file is locked, for at most LOCK_WAIT_MS in all. */
async function whenUnlocked<T>(transaction: () => T): Promise<T> {
  try {
    return await withRetry(LOCK_RETRY, async () => transaction(), Date.now() + LOCK_WAIT_MS);
  } catch (error) {
    if (!isBusy(error)) throw error;
    throw new Error(`another connection kept the SQLite file locked for over ${LOCK_WAIT_MS / 1000} s`, { cause: error });
  }
}

/** SQLite identifiers are quoted so tab and header names are used exactly as written. */
function quote(identifier: string): string {
  return `"${identifier.replaceAll('"', '""')}"`;
}

/**
 * The embedded store: one table per tab, named like the tab, one TEXT column per
 * header, named like the header, rows in rowid order. No constraints, so a person
 * editing the file with the sqlite3 shell has the same freedom as staff in the sheet;
 * the replica reports what does not read.
 */
export function createSqliteDriver(file: string): WorkbookDriver {
  mkdirSync(path.dirname(file), { recursive: true });
  const db = new Database(file);
  db.pragma("journal_mode = WAL");
  db.pragma("synchronous = FULL");
  db.pragma(`busy_timeout = ${BUSY_TIMEOUT_MS}`);

  /** The table's actual column name for each of the app's headers, matched trimmed and case-insensitively. */
  function columnsOf(tab: TabSpec): Map<string, string> {
    const actual = db.prepare(`PRAGMA table_info(${quote(tab.name)})`).all() as { name: string }[];
    const byKey = new Map(actual.map((column) => [headerKey(column.name), column.name]));
    const columns = new Map<string, string>();
    for (const header of tab.headers) {
      const name = byKey.get(headerKey(header));
      if (name !== undefined) columns.set(header, name);
    }
    return columns;
  }

  function requireColumns(tab: TabSpec, headers: readonly string[]): Map<string, string> {
    const columns = columnsOf(tab);
    const missing = headers.filter((header) => !columns.has(header));
    if (missing.length > 0) throw new Error(`The ${tab.name} table has no column ${missing.join(", ")}`);
    return columns;
  }

  const ensureTabs = db.transaction((tabs: readonly TabSpec[]) => {
    for (const tab of tabs) {
      const columnList = tab.headers.map((header) => `${quote(header)} TEXT`).join(", ");
      db.exec(`CREATE TABLE IF NOT EXISTS ${quote(tab.name)} (${columnList})`);
      const present = columnsOf(tab);
      for (const header of tab.headers) {
        if (!present.has(header)) db.exec(`ALTER TABLE ${quote(tab.name)} ADD COLUMN ${quote(header)} TEXT`);
      }
    }
  });

  function readTab(request: ReadRequest): DriverRow[] {
    const columns = columnsOf(request.tab);
    const rows = db
      .prepare(`SELECT rowid AS "rowid", * FROM ${quote(request.tab.name)} ORDER BY rowid LIMIT -1 OFFSET ?`)
      .all(request.from) as Record<string, unknown>[];
    return rows.map((row) => {
      const cells: Record<string, string> = {};
      for (const [header, column] of columns) cells[header] = cellText(row[column]);
      return { rowNumber: Number(row.rowid), cells };
    });
  }

  // One transaction, so every tab is read from the same snapshot.
  const readTabs = db.transaction((requests: readonly ReadRequest[]) => requests.map(readTab));

  const appendRows = db.transaction((tab: TabSpec, rows: readonly RowCells[]) => {
    for (const row of rows) {
      const headers = Object.keys(row);
      const columns = requireColumns(tab, headers);
      const names = headers.map((header) => quote(columns.get(header) ?? header));
      db.prepare(`INSERT INTO ${quote(tab.name)} (${names.join(", ")}) VALUES (${headers.map(() => "?").join(", ")})`).run(
        ...headers.map((header) => row[header] ?? ""),
      );
    }
  });

  const updateRow = db.transaction((tab: TabSpec, id: string, changes: RowCells): boolean => {
    const headers = Object.keys(changes);
    const columns = requireColumns(tab, ["id", ...headers]);
    const assignments = headers.map((header) => `${quote(columns.get(header) ?? header)} = ?`).join(", ");
    const idColumn = quote(columns.get("id") ?? "id");
    const result = db
      .prepare(
        `UPDATE ${quote(tab.name)} SET ${assignments} WHERE rowid = (SELECT rowid FROM ${quote(tab.name)} WHERE trim(${idColumn}) = ? ORDER BY rowid LIMIT 1)`,
      )
      .run(...headers.map((header) => changes[header] ?? ""), id);
    return result.changes > 0;
  });

  const deleteRows = db.transaction((tab: TabSpec, ids: readonly string[]): number => {
    const idColumn = quote(requireColumns(tab, ["id"]).get("id")!);
    const statement = db.prepare(`DELETE FROM ${quote(tab.name)} WHERE ${idColumn} = ?`);
    return ids.reduce((deleted, id) => deleted + statement.run(id).changes, 0);
  });

  return {
    kind: "sqlite",
    async ensureTabs(tabs) {
      // Immediate: two processes starting together must not both add the same column.
      await whenUnlocked(() => ensureTabs.immediate(tabs));
    },
    // A WAL reader needs no lock another connection holds for long; the retries cover the rare moments it does.
    readTabs: (requests) => whenUnlocked(() => readTabs(requests)),
    // Writes take the write lock as they begin: a transaction that read first could not wait for
    // another process's lock (SQLite refuses a stale snapshot at once), immediate ones can.
    async appendRows(tab, rows) {
      await whenUnlocked(() => appendRows.immediate(tab, rows));
    },
    updateRow: (tab, id, changes) => whenUnlocked(() => updateRow.immediate(tab, id, changes)),
    deleteRows: (tab, ids) => whenUnlocked(() => deleteRows.immediate(tab, ids)),
    /** Changes whenever another connection (the sqlite3 shell, a staff script) commits to the file. */
    async changeToken() {
      return String(db.pragma("data_version", { simple: true }));
    },
    async close() {
      if (db.open) db.close();
    },
  };
}
