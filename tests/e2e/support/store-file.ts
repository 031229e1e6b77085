import path from "node:path";
import Database from "better-sqlite3";
import { serialiseRecord } from "../../../app/domain/workbook/rows";
import type { TabDefinition, TabRecord } from "../../../app/domain/workbook/define-tab";
import { e2eDataDir } from "./env";

/**
 * The e2e server's SQLite store, opened beside the server as staff or another app
 * instance would write to it. The server sees changes on its next refresh (every quarter second).
 */
function openStoreFile(dataDir = e2eDataDir): Database.Database {
  const db = new Database(path.join(dataDir, "store.sqlite"));
  db.pragma("busy_timeout = 10000");
  return db;
}

/** Runs `work` on the store file and closes it. */
export function withStoreFile<T>(work: (db: Database.Database) => T, dataDir = e2eDataDir): T {
  const db = openStoreFile(dataDir);
  try {
    return work(db);
  } finally {
    db.close();
  }
}

/**
 * Writes records as rows of their tab in one transaction, as the app would store them.
 * With `skipExisting`, ids already there are left alone: the js-on and js-off workers may
 * seed the same rows at once.
 */
export function insertRows<Tab extends TabDefinition>(
  tab: Tab,
  records: readonly TabRecord<Tab>[],
  { skipExisting = false, dataDir = e2eDataDir } = {},
): void {
  withStoreFile((db) => {
    const table = `"${tab.name}"`;
    const columns = tab.headers.map((header) => `"${header}"`).join(", ");
    const exists = db.prepare(`SELECT 1 FROM ${table} WHERE id = ?`);
    const insert = db.prepare(`INSERT INTO ${table} (${columns}) VALUES (${tab.headers.map(() => "?").join(", ")})`);
    db.transaction(() => {
      for (const record of records) {
        const cells = serialiseRecord(tab, record) as Record<string, string>;
        if (skipExisting && exists.get(cells.id)) continue;
        insert.run(...tab.headers.map((header) => cells[header] ?? ""));
      }
    }).immediate();
  }, dataDir);
}

/** Edits cells of one row, found by id, as staff would in the sheet; the number of rows changed. */
export function updateRow(tab: TabDefinition, id: string, cells: Readonly<Record<string, string>>): number {
  return withStoreFile((db) => {
    const assignments = Object.keys(cells)
      .map((column) => `"${column.replaceAll('"', '""')}" = ?`)
      .join(", ");
    return db.prepare(`UPDATE "${tab.name}" SET ${assignments} WHERE id = ?`).run(...Object.values(cells), id).changes;
  });
}
