import { randomUUID } from "node:crypto";
import path from "node:path";
import type { Config } from "../config.server";
import { createLastGoodCopies, lastGoodDirectory } from "./last-good.server";
import { createStore } from "./replica.server";
import { createSheetsDriver } from "./sheets-driver.server";
import { createSqliteDriver } from "./sqlite-driver.server";
import type { Store } from "./types.server";

export * from "./types.server";

/** A new record id: random, so ids made by several app instances never collide. */
export function newId(): string {
  return randomUUID();
}

export function sqliteStorePath(config: Pick<Config, "dataDir">): string {
  return path.join(config.dataDir, "store.sqlite");
}

/** Chooses the driver from configuration: Google Sheets when a spreadsheet is configured, SQLite otherwise. The store is empty until its first `refresh()`. */
export function createStoreFromConfig(config: Config): Store {
  const driver = config.sheets ? createSheetsDriver(config.sheets) : createSqliteDriver(sqliteStorePath(config));
  // Only the spreadsheet's tabs can be degraded by staff; the SQLite file is its own copy on disk.
  const lastGood = config.sheets ? createLastGoodCopies(lastGoodDirectory(config.dataDir)) : undefined;
  return createStore(driver, { refreshSeconds: config.storeRefreshSeconds, ...(lastGood ? { lastGood } : {}) });
}
