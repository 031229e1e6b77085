import { parseRow, serialiseRecord } from "~/domain/workbook/rows";
import type { TabKeyIndex, TabKey, TabKeyRecord } from "~/domain/workbook/tabs";
import type { WorkbookDriver } from "./driver.server";
import { recordFromCells, tabOf, type AnyRecord } from "./tab-state.server";
import { StoreWriteError, type StoreTab } from "./types.server";
import type { TabVersions } from "./tab-versions.server";

type QueriedDeps = {
  driver: WorkbookDriver;
  /** Resolves once the driver's tabs exist. */
  ensureReady(): Promise<void>;
  versions: TabVersions;
};

/**
 * A tab read by query where it is stored (docs/decisions/0053), never held in the replica:
 * its store tab adds rows (the driver skips an id stored already, so an insert sent again
 * is one row) and refuses the replica's reads, so no page can take its empty replica for the
 * tab. `readStored` reads the whole tab where it is stored, as on every tab: for scripts.
 */
export function queriedTab<Name extends TabKey>(
  name: Name,
  { driver, ensureReady, versions }: QueriedDeps,
): StoreTab<TabKeyRecord<Name>, TabKeyIndex<Name>> {
  type Row = TabKeyRecord<Name>;
  const tab = tabOf(name);
  const notHeld = (): never => {
    throw new Error(`The ${tab.name} tab is read by query where it is stored, not from the replica`);
  };
  async function add(record: Row): Promise<Row> {
    const cells = serialiseRecord(tab, record as AnyRecord);
    const checked = recordFromCells(tab, cells) as unknown as Row;
    try {
      await ensureReady();
      await driver.appendRows(tab, [cells]);
    } catch (error) {
      throw new StoreWriteError(tab.name, { cause: error });
    }
    versions.bump(name, checked.id);
    return checked;
  }
  async function readStored(): Promise<Row[]> {
    await ensureReady();
    const [rows = []] = await driver.readTabs([{ tab, from: 0 }]);
    return rows.flatMap((row) => {
      const parsed = parseRow(tab, row.cells);
      return parsed.ok === true ? [parsed.record as unknown as Row] : [];
    });
  }
  return {
    tab: tab.name,
    version: () => versions.of(name),
    changedSince: () => null,
    insert: add,
    insertOnce: (record) => add(record),
    all: notHeld,
    get: notHeld,
    by: notHeld,
    update: notHeld,
    readStored,
    readMark: notHeld,
    readStoredAfter: notHeld,
    removeStored: notHeld,
    skippedWith: notHeld,
  };
}
