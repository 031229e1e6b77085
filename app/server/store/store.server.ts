import { randomUUID } from "node:crypto";
import path from "node:path";
import type { Config } from "../config.server";
import { WORKBOOK, type TabKey } from "~/domain/workbook/tabs";
import { createLastGoodCopies, lastGoodDirectory } from "./last-good.server";
import { connectDatabase, type Database } from "./postgres/database.server";
import { createPostgresDriver, HIGH_VOLUME_TAB_KEYS, HIGH_VOLUME_TAB_NAMES, QUERIED_TAB_KEYS } from "./postgres/driver.server";
import { createReplica, type ReplicaOptions } from "./replica.server";
import { createSheetsDriver } from "./sheets-driver.server";
import { createSplitDriver } from "./split-driver.server";
import { createSqliteDriver } from "./sqlite-driver.server";
import type { WorkbookDriver } from "./driver.server";
import type { Store } from "./types.server";

export * from "./types.server";

/** A new record id: random, so ids made by several app instances never collide. */
export function newId(): string {
  return randomUUID();
}

export function sqliteStorePath(config: Pick<Config, "dataDir">): string {
  return path.join(config.dataDir, "store.sqlite");
}

/** The driver of the tabs staff keep: Google Sheets when a spreadsheet is configured, the SQLite file otherwise. */
export function staffDriverFromConfig(config: Pick<Config, "sheets" | "dataDir">): WorkbookDriver {
  return config.sheets ? createSheetsDriver(config.sheets) : createSqliteDriver(sqliteStorePath(config));
}

/**
 * Chooses the driver from configuration: Google Sheets when a spreadsheet is configured,
 * SQLite otherwise, and with a database the high-volume tabs in it (`database`: the one the
 * caller opened with `databaseFromConfig`, else one opened here). The store is empty until
 * its first `refresh()`, and its `stop()` closes the database.
 */
export function createStoreFromConfig(config: Config, database: Database | null = databaseFromConfig(config)): Store {
  const staff = staffDriverFromConfig(config);
  // Only the spreadsheet's tabs can be degraded by staff; the SQLite file is its own copy on disk.
  const lastGood = config.sheets ? createLastGoodCopies(lastGoodDirectory(config.dataDir)) : undefined;
  return createStoreOver(staff, database, { refreshSeconds: config.storeRefreshSeconds, ...(lastGood ? { lastGood } : {}) });
}

/** The replica over the staff driver, with the high-volume tabs in `database` when there is one. */
export function createStoreOver(staff: WorkbookDriver, database: Database | null, options: ReplicaOptions): Store {
  if (!database) return createReplica(staff, options);
  const store = createReplica(createSplitDriver(staff, createPostgresDriver(database), HIGH_VOLUME_TAB_NAMES), {
    queried: QUERIED_TAB_KEYS,
    ...options,
  });
  readWhatOthersWrite(store, database);
  return store;
}

/** The database at `DATABASE_URL`, or null when none is set. Nothing connects before its first query. */
export function databaseFromConfig(config: Pick<Config, "databaseUrl">): Database | null {
  return config.databaseUrl === undefined ? null : connectDatabase(config.databaseUrl);
}

const TAB_KEY_OF_TABLE = new Map<string, TabKey>(HIGH_VOLUME_TAB_KEYS.map((name) => [WORKBOOK[name].name, name]));

/**
 * Another instance's write reaches this replica as soon as the database tells of it, not at
 * the next timed refresh; after the listener reconnected, every table is read again for what
 * was written while nobody listened.
 */
function readWhatOthersWrite(store: Store, database: Database): void {
  database.onTableChanges((changes) => {
    if (changes.table === null) return void store.refreshTabs(HIGH_VOLUME_TAB_KEYS);
    const name = TAB_KEY_OF_TABLE.get(changes.table);
    if (name && !changes.local) void store.refreshTabs([name]);
  });
}
