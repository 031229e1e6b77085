import { parseRow, serialiseRecord } from "~/domain/workbook/rows";
import type { TabKey } from "~/domain/workbook/tabs";
import type { DriverRow, WorkbookDriver } from "./driver.server";
import {
  applyWrite,
  recordFromCells,
  signature,
  tabOf,
  type AnyRecord,
  type AnyTab,
  type LoggedWrite,
  type TabState,
  type Write,
} from "./tab-state.server";
import { StoreNotFoundError, StoreValidationError, StoreWriteError, type ReadMark, type StoredAfter } from "./types.server";
import type { TabVersions } from "./tab-versions.server";

/** The writes acknowledged since the last read began, to replay onto a read that started before them. */
export type WriteLog = { seq: number; writes: LoggedWrite[] };

/** What the writes share with the rest of the replica. */
type ReplicaCore = {
  driver: WorkbookDriver;
  log: Pick<Console, "warn">;
  stateOf(name: TabKey): TabState;
  versions: TabVersions;
  writeLog: WriteLog;
  /** Resolves once the driver's tabs exist. */
  ensureReady(): Promise<void>;
  /** Throws when the tab is degraded: nothing is added to or changed in it. */
  refuseIfDegraded(tab: AnyTab): void;
};

/** The replica's writes: each goes to the driver first, and is in the replica once the driver stored it. */
export function createReplicaWrites({ driver, log, stateOf, versions, writeLog, ensureReady, refuseIfDegraded }: ReplicaCore) {
  /** Applies a write the driver acknowledged, and logs it for a read in flight to replay, in order with the others. */
  function logWrite(write: Write): void {
    const logged: LoggedWrite = { ...write, seq: ++writeLog.seq };
    writeLog.writes.push(logged);
    applyWrite(stateOf(write.name), logged);
  }

  function acknowledge(write: Write): AnyRecord {
    logWrite(write);
    versions.bump(write.name, write.id);
    const record = stateOf(write.name).records.get(write.id);
    if (!record) throw new StoreNotFoundError(tabOf(write.name).name, write.id);
    return record;
  }

  async function insert(name: TabKey, record: AnyRecord): Promise<AnyRecord> {
    const tab = tabOf(name);
    const cells = serialiseRecord(tab, record);
    const checked = recordFromCells(tab, cells);
    if (stateOf(name).records.has(checked.id)) throw new StoreValidationError(tab.name, `id ${checked.id} already exists`);
    try {
      await ensureReady();
      refuseIfDegraded(tab);
      await driver.appendRows(tab, [cells]);
    } catch (error) {
      throw new StoreWriteError(tab.name, { cause: error });
    }
    return acknowledge({ name, id: checked.id, cells, kind: "insert" });
  }

  /** Where the reads of one tab have got to: the row count and the last row's cells. */
  function readMark(name: TabKey): ReadMark {
    const { rowsRead, lastSignature } = stateOf(name);
    return { rowsRead, lastSignature };
  }

  /**
   * Rows of one tab stored after `mark` (the whole tab when rows above it were deleted or
   * moved since): one read call from the last row the mark saw, two when that row moved.
   */
  async function rowsAfter(tab: AnyTab, mark: ReadMark): Promise<{ rows: readonly DriverRow[]; whole: boolean }> {
    const from = Math.max(0, mark.rowsRead - 1);
    const [tail = []] = await driver.readTabs([{ tab, from }]);
    if (from === 0) return { rows: tail, whole: true };
    if (signature(tab, tail[0]) === mark.lastSignature) return { rows: tail.slice(1), whole: false };
    const [whole = []] = await driver.readTabs([{ tab, from: 0 }]);
    return { rows: whole, whole: true };
  }

  /** The same record inserted twice at once in this process is looked for and written once. */
  const insertsOnce = new Map<string, Promise<AnyRecord>>();

  function insertOnce(name: TabKey, record: AnyRecord, lookInStore: boolean): Promise<AnyRecord> {
    const known = stateOf(name).records.get(record.id);
    if (known) return Promise.resolve(known);
    const slot = `${name}\u0000${record.id}`;
    let running = insertsOnce.get(slot);
    if (!running) {
      running = (lookInStore ? findOrInsert(name, record) : insert(name, record)).finally(() => insertsOnce.delete(slot));
      insertsOnce.set(slot, running);
    }
    return running;
  }

  async function findOrInsert(name: TabKey, record: AnyRecord): Promise<AnyRecord> {
    const tab = tabOf(name);
    let rows: readonly DriverRow[];
    try {
      await ensureReady();
      ({ rows } = await rowsAfter(tab, readMark(name)));
      refuseIfDegraded(tab);
    } catch (error) {
      throw new StoreWriteError(tab.name, { cause: error });
    }
    const stored = rows.find((row) => row.cells.id?.trim() === record.id);
    if (!stored) return insert(name, record);
    return acknowledge({ name, id: record.id, cells: { ...stored.cells }, kind: "insert" });
  }

  async function update(name: TabKey, id: string, patch: Readonly<Record<string, unknown>>): Promise<AnyRecord> {
    const tab = tabOf(name);
    const current = stateOf(name).records.get(id);
    if (!current) throw new StoreNotFoundError(tab.name, id);
    const before = serialiseRecord(tab, current);
    const after = serialiseRecord(tab, { ...current, ...patch, id });
    recordFromCells(tab, after);
    const changes = Object.fromEntries(tab.headers.filter((h) => after[h] !== before[h]).map((h) => [h, after[h] ?? ""]));
    if (Object.keys(changes).length === 0) return current;
    let found: boolean;
    try {
      await ensureReady();
      refuseIfDegraded(tab);
      found = await driver.updateRow(tab, id, changes);
    } catch (error) {
      throw new StoreWriteError(tab.name, { cause: error });
    }
    if (!found) {
      // Staff deleted the row: the change is dropped rather than the row brought back.
      log.warn(`Store: update of ${tab.name} row ${id} dropped: no row has that id any more (deleted in the spreadsheet?)`);
      throw new StoreNotFoundError(tab.name, id);
    }
    return acknowledge({ name, id, cells: changes, kind: "update" });
  }

  /** The valid records of rows read past the replica, in row order, duplicates included. */
  function storedRecords(tab: AnyTab, rows: readonly DriverRow[]): AnyRecord[] {
    return rows.flatMap((row) => {
      const parsed = parseRow(tab, row.cells);
      return parsed.ok === true ? [parsed.record as AnyRecord] : [];
    });
  }

  /** Reads one tab whole from the driver, past the replica. */
  async function readStored(name: TabKey): Promise<AnyRecord[]> {
    const tab = tabOf(name);
    await ensureReady();
    const [rows = []] = await driver.readTabs([{ tab, from: 0 }]);
    refuseIfDegraded(tab);
    return storedRecords(tab, rows);
  }

  /** Reads the rows of one tab stored after a mark from the driver, past the replica, and where the read ended. */
  async function readStoredAfter(name: TabKey, mark: ReadMark): Promise<StoredAfter<AnyRecord>> {
    const tab = tabOf(name);
    await ensureReady();
    const { rows, whole } = await rowsAfter(tab, mark);
    refuseIfDegraded(tab);
    const last = rows.at(-1);
    const end = last
      ? { rowsRead: (whole ? 0 : mark.rowsRead) + rows.length, lastSignature: signature(tab, last) }
      : whole
        ? { rowsRead: 0, lastSignature: undefined }
        : mark;
    return { rows: storedRecords(tab, rows), end, whole };
  }

  /**
   * Deletes rows of an append-only tab, in the store and then the replica. The replica keeps
   * where its reads got to: the next read finds that row moved and reads the tab whole. The
   * deletions are logged as writes: a read in flight may have found the rows, or replay the
   * inserts that added them, and without them it would bring the rows back.
   */
  async function removeStored(name: TabKey, ids: readonly string[]): Promise<number> {
    const tab = tabOf(name);
    if (!tab.appendOnly) throw new Error(`The app deletes rows of append-only tabs only, not of ${tab.name}`);
    if (ids.length === 0) return 0;
    let deleted: number;
    try {
      await ensureReady();
      refuseIfDegraded(tab);
      deleted = await driver.deleteRows(tab, ids);
    } catch (error) {
      throw new StoreWriteError(tab.name, { cause: error });
    }
    for (const id of ids) logWrite({ name, id, kind: "remove" });
    versions.bump(name, null);
    return deleted;
  }

  return { insert, insertOnce, update, readStored, readMark, readStoredAfter, removeStored };
}
