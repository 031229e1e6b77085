import { indexKeys, normaliseIndexKey, parseRow, serialiseRecord, type RowCells } from "~/domain/workbook/rows";
import { WORKBOOK, type CollectionIndex, type CollectionName, type CollectionRecord, type TabDefinition } from "~/domain/workbook/tabs";
import type { DriverRow, ReadRequest, StructureProblem, WorkbookDriver } from "./driver.server";
import type { LastGoodCopies } from "./last-good.server";
import {
  describeError,
  StoreNotFoundError,
  StoreValidationError,
  StoreWriteError,
  type Collection,
  type DoubtfulValue,
  type InvalidRow,
  type ReadMark,
  type RefreshEvent,
  type StoredAfter,
  type Store,
  type StoreHealth,
} from "./types.server";

export type ReplicaOptions = {
  /** Seconds between refreshes once `start()` is called. */
  refreshSeconds: number;
  /** Append-only tabs are read whole at least this often, to notice rows staff deleted or moved. */
  fullReadEverySeconds?: number;
  log?: Pick<Console, "info" | "warn" | "error">;
  /** Where each tab's last good copy is kept, for a restart while a tab is degraded (docs/decisions/0034). */
  lastGood?: LastGoodCopies;
};

/** A record of any tab. Parsing a tab typed only as "some tab" loses the id column's type, hence the casts to this. */
type AnyRecord = { readonly id: string } & Readonly<Record<string, unknown>>;
type AnyTab = TabDefinition;

/** One tab as last read, plus the writes this process made since. */
type TabState = {
  records: Map<string, AnyRecord>;
  /** Row numbers of records that came from a read (a fresh local insert has none yet). */
  rowOf: Map<string, number>;
  /** How many data rows, blank or not, the reads covered: where the next tail read starts. */
  rowsRead: number;
  /** The cells of the last row read, to check that a tail read still starts where the last one ended. */
  lastSignature: string | undefined;
  invalid: InvalidRow[];
  /** The cells of each invalid row, in the same order: to tell a member their row is there but does not read. */
  invalidCells: RowCells[];
  /** Rows read whose values are probably typing mistakes (the tab's `doubts`): kept, and listed for staff. */
  doubtful: DoubtfulValue[];
  list: readonly AnyRecord[] | undefined;
  indexes: Map<string, Map<string, AnyRecord[]>>;
};

/** A write acknowledged by the driver; replayed onto a read that started before it was acknowledged. */
type LoggedWrite = { seq: number; name: CollectionName; id: string; cells: RowCells; kind: "insert" | "update" };

const COLLECTION_NAMES = Object.keys(WORKBOOK) as CollectionName[];
/** Recent changes remembered per tab, for caches that catch up by record rather than rebuild. */
const CHANGE_LOG_LENGTH = 1_000;

function tabOf(name: CollectionName): AnyTab {
  return WORKBOOK[name] as AnyTab;
}

function emptyState(): TabState {
  return {
    records: new Map(),
    rowOf: new Map(),
    rowsRead: 0,
    lastSignature: undefined,
    invalid: [],
    invalidCells: [],
    doubtful: [],
    list: undefined,
    indexes: new Map(),
  };
}

function signature(tab: AnyTab, row: DriverRow | undefined): string | undefined {
  return row && JSON.stringify(tab.headers.map((header) => row.cells[header] ?? ""));
}

/** Adds one read row to a state being built: blank rows skipped, invalid and duplicate rows listed. */
function addReadRow(state: TabState, tab: AnyTab, row: DriverRow): void {
  const parsed = parseRow(tab, row.cells);
  if (parsed.ok === "blank") return;
  if (parsed.ok === false) {
    state.invalid.push({ tab: tab.name, row: row.rowNumber, reason: parsed.reason });
    state.invalidCells.push(row.cells);
    return;
  }
  const record = Object.freeze(parsed.record) as AnyRecord;
  const firstRow = state.rowOf.get(record.id);
  const first = state.records.get(record.id);
  if (firstRow !== undefined && first && tab.mergeDuplicates) {
    state.records.set(record.id, Object.freeze(tab.mergeDuplicates(first, record)) as AnyRecord);
    return;
  }
  if (firstRow !== undefined) {
    state.invalid.push({ tab: tab.name, row: row.rowNumber, reason: `duplicate id ${record.id} (also on row ${firstRow})` });
    return;
  }
  state.records.set(record.id, record);
  state.rowOf.set(record.id, row.rowNumber);
  for (const reason of tab.doubts?.(record) ?? []) state.doubtful.push({ tab: tab.name, row: row.rowNumber, id: record.id, reason });
}

function stateFromFullRead(tab: AnyTab, rows: readonly DriverRow[]): TabState {
  const state = emptyState();
  for (const row of rows) addReadRow(state, tab, row);
  state.rowsRead = rows.length;
  state.lastSignature = signature(tab, rows.at(-1));
  return state;
}

/** `rows` starts with the last row already read; only the rows after it are new. */
function stateFromTailRead(previous: TabState, tab: AnyTab, rows: readonly DriverRow[]): TabState {
  const fresh = rows.slice(1);
  if (fresh.length === 0) return previous;
  const state: TabState = {
    ...emptyState(),
    records: new Map(previous.records),
    rowOf: new Map(previous.rowOf),
    invalid: [...previous.invalid],
    invalidCells: [...previous.invalidCells],
    doubtful: [...previous.doubtful],
  };
  for (const row of fresh) addReadRow(state, tab, row);
  state.rowsRead = previous.rowsRead + fresh.length;
  state.lastSignature = signature(tab, fresh.at(-1));
  return state;
}

type KeyFunction = (record: AnyRecord) => string | readonly string[] | undefined;

function keyFunctionOf(tab: AnyTab, index: string): KeyFunction | undefined {
  return (tab.indexes as Record<string, KeyFunction | undefined>)[index];
}

/** The keys a record is filed under in one index, normalised, without repeats. */
function keysOf(keyOf: KeyFunction, record: AnyRecord | undefined): Set<string> {
  return new Set(record ? indexKeys(keyOf(record)) : []);
}

/**
 * Brings the indexes already built up to date with one record's change, touching only
 * the buckets of its old and new keys: a write costs the size of those buckets, not a
 * rebuild of the tab's indexes. Buckets are replaced, never changed, because readers may
 * still hold the arrays `by()` gave them. A record that moves to another key joins the
 * end of its new bucket; a full read puts buckets back in row order.
 */
function updateIndexes(state: TabState, tab: AnyTab, before: AnyRecord | undefined, after: AnyRecord): void {
  state.list = undefined;
  for (const [index, buckets] of state.indexes) {
    const keyOf = keyFunctionOf(tab, index);
    if (!keyOf) continue;
    const oldKeys = keysOf(keyOf, before);
    const newKeys = keysOf(keyOf, after);
    for (const key of oldKeys) {
      const bucket = buckets.get(key) ?? [];
      if (newKeys.has(key)) {
        buckets.set(
          key,
          bucket.map((record) => (record === before ? after : record)),
        );
      } else {
        const rest = bucket.filter((record) => record !== before);
        if (rest.length > 0) buckets.set(key, rest);
        else buckets.delete(key);
      }
    }
    for (const key of newKeys) {
      if (!oldKeys.has(key)) buckets.set(key, [...(buckets.get(key) ?? []), after]);
    }
  }
}

function sameRecords(a: ReadonlyMap<string, AnyRecord>, b: ReadonlyMap<string, AnyRecord>): boolean {
  if (a.size !== b.size) return false;
  for (const [id, record] of a) {
    const other = b.get(id);
    if (!other || JSON.stringify(other) !== JSON.stringify(record)) return false;
  }
  return true;
}

function problemKey(row: InvalidRow | DoubtfulValue): string {
  return `${row.tab}\u0000${row.row}\u0000${row.reason}`;
}

/** The skipped rows of a tab whose cell under `header` is `value`, compared as index keys are. */
function skippedWith(state: TabState, header: string, value: string): InvalidRow[] {
  const wanted = normaliseIndexKey(value);
  return state.invalid.filter((_, i) => normaliseIndexKey(state.invalidCells[i]?.[header] ?? "") === wanted);
}

/** The replica: typed, indexed, in-memory tabs read synchronously, kept fresh from a driver. */
export function createStore(driver: WorkbookDriver, options: ReplicaOptions): Store {
  const log = options.log ?? console;
  const refreshMs = options.refreshSeconds * 1000;
  const fullReadEveryMs = (options.fullReadEverySeconds ?? 300) * 1000;

  const states = new Map<CollectionName, TabState>(COLLECTION_NAMES.map((name) => [name, emptyState()]));
  const listeners = new Set<(event: RefreshEvent) => void>();
  /** Per tab, bumped whenever its records change: lets caches built from a tab know they are stale. */
  const versions = new Map<CollectionName, number>(COLLECTION_NAMES.map((name) => [name, 0]));
  let writeLog: LoggedWrite[] = [];
  let writeSeq = 0;
  let ready: Promise<void> | undefined;
  let inflight: Promise<void> | undefined;
  let loaded = false;
  let needFullRead = true;
  let lastFullReadAt = 0;
  let lastToken: string | undefined;
  let lastRefreshAt: number | null = null;
  let lastError: string | null = null;
  let loggedProblems = new Set<string>();
  /** Degraded tabs by tab name, as last reported by the driver. */
  let degraded = new Map<string, StructureProblem>();
  /** Degraded tabs served from the copy on disk since this process started, with when it was saved. */
  const servedFromDisk = new Map<string, string>();
  /** Per tab, the version whose copy is on disk. */
  const savedVersions = new Map<CollectionName, number>();
  let timer: NodeJS.Timeout | undefined;
  /** The timer's refresh and the jobs after it, while they run. */
  let tick: Promise<void> | undefined;
  const refreshJobs = new Set<() => Promise<unknown>>();
  let running = false;
  let closed = false;

  const stateOf = (name: CollectionName): TabState => states.get(name) ?? emptyState();

  function ensureReady(): Promise<void> {
    ready ??= driver.ensureTabs(COLLECTION_NAMES.map(tabOf)).catch((error: unknown) => {
      ready = undefined;
      throw error;
    });
    return ready;
  }

  // --- reads -------------------------------------------------------------

  function listOf(state: TabState): readonly AnyRecord[] {
    state.list ??= Object.freeze([...state.records.values()]);
    return state.list;
  }

  function indexOf(state: TabState, tab: AnyTab, index: string): Map<string, AnyRecord[]> {
    const cached = state.indexes.get(index);
    if (cached) return cached;
    const keyOf = keyFunctionOf(tab, index);
    if (!keyOf) throw new Error(`The ${tab.name} tab has no index named ${index}`);
    const built = new Map<string, AnyRecord[]>();
    for (const record of state.records.values()) {
      for (const key of new Set(indexKeys(keyOf(record)))) {
        const bucket = built.get(key);
        if (bucket) bucket.push(record);
        else built.set(key, [record]);
      }
    }
    state.indexes.set(index, built);
    return built;
  }

  // --- writes ------------------------------------------------------------

  /** Turns cells into a record exactly as a read would, or explains why it would not read. */
  function recordFromCells(tab: AnyTab, cells: RowCells): AnyRecord {
    const parsed = parseRow(tab, cells);
    if (parsed.ok === "blank") throw new StoreValidationError(tab.name, "the row is blank");
    if (parsed.ok === false) throw new StoreValidationError(tab.name, parsed.reason);
    return Object.freeze(parsed.record) as AnyRecord;
  }

  function applyWrite(state: TabState, write: LoggedWrite): void {
    const tab = tabOf(write.name);
    const existing = state.records.get(write.id);
    let record: AnyRecord;
    if (write.kind === "insert") {
      if (existing) return;
      record = recordFromCells(tab, write.cells);
    } else {
      if (!existing) return;
      const cells = { ...serialiseRecord(tab, existing), ...write.cells };
      const parsed = parseRow(tab, cells);
      if (parsed.ok !== true) return;
      record = Object.freeze(parsed.record) as AnyRecord;
    }
    state.records.set(write.id, record);
    updateIndexes(state, tab, existing, record);
  }

  /** Per tab, which record each recent version changed; null for a refresh, which may change any. */
  const changeLogs = new Map<CollectionName, { version: number; id: string | null }[]>(COLLECTION_NAMES.map((name) => [name, []]));

  function bumpVersion(name: CollectionName, id: string | null): void {
    const version = (versions.get(name) ?? 0) + 1;
    versions.set(name, version);
    const changes = changeLogs.get(name)!;
    changes.push({ version, id });
    if (changes.length > CHANGE_LOG_LENGTH) changes.splice(0, changes.length - CHANGE_LOG_LENGTH);
  }

  /** The ids changed since `version`, when every change since was a write of this process that the log still holds. */
  function changedSince(name: CollectionName, version: number): string[] | null {
    const changes = changeLogs.get(name)!;
    const current = versions.get(name) ?? 0;
    if (version === current) return [];
    const newer = changes.filter((change) => change.version > version);
    if (newer.length !== current - version || newer.some((change) => change.id === null)) return null;
    return [...new Set(newer.map((change) => change.id!))];
  }

  function acknowledge(write: Omit<LoggedWrite, "seq">): AnyRecord {
    const logged = { ...write, seq: ++writeSeq };
    writeLog.push(logged);
    bumpVersion(write.name, write.id);
    const state = stateOf(write.name);
    applyWrite(state, logged);
    const record = state.records.get(write.id);
    if (!record) throw new StoreNotFoundError(tabOf(write.name).name, write.id);
    return record;
  }

  async function insert(name: CollectionName, record: AnyRecord): Promise<AnyRecord> {
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
  function readMark(name: CollectionName): ReadMark {
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

  function insertOnce(name: CollectionName, record: AnyRecord, lookInStore: boolean): Promise<AnyRecord> {
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

  async function findOrInsert(name: CollectionName, record: AnyRecord): Promise<AnyRecord> {
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

  async function update(name: CollectionName, id: string, patch: Readonly<Record<string, unknown>>): Promise<AnyRecord> {
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
  async function readStored(name: CollectionName): Promise<AnyRecord[]> {
    const tab = tabOf(name);
    await ensureReady();
    const [rows = []] = await driver.readTabs([{ tab, from: 0 }]);
    refuseIfDegraded(tab);
    return storedRecords(tab, rows);
  }

  /** Reads the rows of one tab stored after a mark from the driver, past the replica, and where the read ended. */
  async function readStoredAfter(name: CollectionName, mark: ReadMark): Promise<StoredAfter<AnyRecord>> {
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
   * where its reads got to: the next read finds that row moved and reads the tab whole.
   */
  async function removeStored(name: CollectionName, ids: readonly string[]): Promise<number> {
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
    const previous = stateOf(name);
    const gone = new Set(ids);
    const kept = <T>(entries: Map<string, T>) => new Map([...entries].filter(([id]) => !gone.has(id)));
    states.set(name, { ...previous, records: kept(previous.records), rowOf: kept(previous.rowOf), list: undefined, indexes: new Map() });
    bumpVersion(name, null);
    return deleted;
  }

  // --- structure -------------------------------------------------------------

  function describeProblem(problem: StructureProblem): string {
    return `the ${problem.tab} tab cannot be read: ${problem.problem}. Fix: ${problem.fix}`;
  }

  /** Nothing is added to or changed in a degraded tab: a write there could land in the wrong place or make a wrong column. */
  function refuseIfDegraded(tab: AnyTab): void {
    noteStructure();
    const problem = degraded.get(tab.name);
    if (problem) throw new Error(describeProblem(problem));
  }

  /** Takes the driver's degraded tabs, logging each new one and each one fixed. */
  function noteStructure(): void {
    const current = new Map((driver.structureProblems?.() ?? []).map((problem) => [problem.tab, problem]));
    for (const [tab, problem] of current) {
      if (degraded.get(tab)?.problem !== problem.problem)
        log.error(`Store: ${describeProblem(problem)}. Its last good copy keeps serving; nothing is added to it until it is fixed.`);
    }
    for (const tab of degraded.keys()) if (!current.has(tab)) log.info(`Store: the ${tab} tab reads again.`);
    degraded = current;
  }

  // --- refresh -----------------------------------------------------------

  function markFresh(): void {
    lastRefreshAt = Date.now();
    lastError = null;
  }

  /** Each skipped row and each doubtful value once, when it first appears. */
  function logNewProblemRows(): void {
    const current = new Set<string>();
    const logOnce = (row: InvalidRow | DoubtfulValue, line: string) => {
      const key = problemKey(row);
      current.add(key);
      if (!loggedProblems.has(key)) log.warn(line);
    };
    for (const state of states.values()) {
      for (const row of state.invalid) logOnce(row, `Store: ${row.tab} row ${row.row} skipped: ${row.reason}`);
      for (const row of state.doubtful) logOnce(row, `Store: ${row.tab} row ${row.row} (id ${row.id}) needs a look: ${row.reason}`);
    }
    loggedProblems = current;
  }

  function emit(name: CollectionName, previous: TabState, current: TabState): void {
    // The maps hold the records of this collection's tab; the union type says which.
    const event = {
      collection: name,
      tab: tabOf(name).name,
      previous: previous.records,
      current: current.records,
    } as unknown as RefreshEvent;
    for (const listener of listeners) {
      try {
        listener(event);
      } catch (error) {
        log.error("Store: a refresh listener failed:", error);
      }
    }
  }

  async function readAll(): Promise<void> {
    await ensureReady();
    const token = driver.changeToken ? await driver.changeToken() : undefined;
    if (loaded && token !== undefined && token === lastToken) {
      markFresh();
      return;
    }
    const full = !loaded || needFullRead || Date.now() - lastFullReadAt >= fullReadEveryMs;
    const plans: ReadRequest[] = COLLECTION_NAMES.map((name) => {
      const tab = tabOf(name);
      const state = stateOf(name);
      const tail = !full && tab.appendOnly && state.rowsRead > 0;
      return { tab, from: tail ? state.rowsRead - 1 : 0 };
    });
    const seqAtRead = writeSeq;
    const results = await driver.readTabs(plans);
    noteStructure();
    const isDegraded = (i: number) => degraded.has(plans[i]!.tab.name);

    // A tail that no longer starts with the row last read means rows moved: read that tab whole.
    const moved = plans
      .map((plan, i) => ({ plan, i }))
      .filter(
        ({ plan, i }) =>
          plan.from > 0 && !isDegraded(i) && signature(plan.tab as AnyTab, results[i]?.[0]) !== stateOf(COLLECTION_NAMES[i]!).lastSignature,
      );
    if (moved.length > 0) {
      const reread = await driver.readTabs(moved.map(({ plan }) => ({ tab: plan.tab, from: 0 })));
      moved.forEach(({ i }, j) => {
        plans[i] = { tab: plans[i]!.tab, from: 0 };
        results[i] = reread[j] ?? [];
      });
    }

    const pending = writeLog.filter((write) => write.seq > seqAtRead);
    const previous = new Map(states);
    COLLECTION_NAMES.forEach((name, i) => {
      const tab = tabOf(name);
      // A degraded tab keeps its last good copy (and the writes acknowledged on it).
      if (isDegraded(i)) return;
      servedFromDisk.delete(tab.name);
      const rows = results[i] ?? [];
      const next = plans[i]!.from === 0 ? stateFromFullRead(tab, rows) : stateFromTailRead(stateOf(name), tab, rows);
      for (const write of pending) if (write.name === name) applyWrite(next, write);
      states.set(name, next);
    });
    writeLog = pending;
    // Read with a tab degraded from the start: its copy from before the restart is all there is.
    if (!loaded) await restoreFromDisk(COLLECTION_NAMES.filter((_, i) => isDegraded(i)));

    lastToken = token;
    // Once a degraded tab is fixed, it is read whole again.
    needFullRead = degraded.size > 0;
    if (full) lastFullReadAt = Date.now();
    const firstLoad = !loaded;
    loaded = true;
    markFresh();
    logNewProblemRows();
    for (const name of COLLECTION_NAMES) {
      const before = previous.get(name) ?? emptyState();
      if (before === stateOf(name) || sameRecords(before.records, stateOf(name).records)) continue;
      bumpVersion(name, null);
      if (!firstLoad) emit(name, before, stateOf(name));
    }
    await saveChangedCopies();
  }

  // --- the last good copy on disk ---------------------------------------------

  async function restoreFromDisk(names: readonly CollectionName[]): Promise<void> {
    for (const name of names) {
      const tab = tabOf(name);
      const copy = await options.lastGood?.load(tab.name);
      if (!copy) {
        log.error(`Store: the ${tab.name} tab cannot be read and no last good copy of it is on disk: it serves nothing until it is fixed.`);
        continue;
      }
      states.set(name, stateFromFullRead(tab, copy.rows));
      servedFromDisk.set(tab.name, copy.savedAt);
      log.error(`Store: the ${tab.name} tab cannot be read; serving its last good copy, saved ${copy.savedAt}, until it is fixed.`);
    }
  }

  /** Saves each tab that reads and changed since its copy was saved: as records, one row each, in row order. */
  async function saveChangedCopies(): Promise<void> {
    const { lastGood } = options;
    if (!lastGood) return;
    const savedAt = new Date().toISOString();
    const saves = COLLECTION_NAMES.filter((name) => !degraded.has(tabOf(name).name) && savedVersions.get(name) !== versions.get(name)).map(
      (name) => {
        const tab = tabOf(name);
        const state = stateOf(name);
        savedVersions.set(name, versions.get(name) ?? 0);
        const rows = listOf(state).map((record) => ({ rowNumber: state.rowOf.get(record.id) ?? 0, cells: serialiseRecord(tab, record) }));
        return lastGood.save({ tab: tab.name, savedAt, rows });
      },
    );
    await Promise.all(saves);
  }

  function refresh(): Promise<void> {
    if (closed) return Promise.reject(new Error("The store is stopped"));
    inflight ??= readAll()
      .catch((error: unknown) => {
        lastError = describeError(error);
        needFullRead = true;
        lastToken = undefined;
        log.error(loaded ? `Store: refresh failed, serving the last good copy: ${lastError}` : `Store: first load failed: ${lastError}`);
        throw error;
      })
      .finally(() => {
        inflight = undefined;
      });
    return inflight;
  }

  function schedule(): void {
    timer = setTimeout(() => {
      tick = refresh()
        .then(runRefreshJobs, () => undefined)
        .finally(() => {
          tick = undefined;
          if (running) schedule();
        });
    }, refreshMs);
    timer.unref();
  }

  function health(): StoreHealth {
    const ageMs = lastRefreshAt === null ? null : Math.max(0, Date.now() - lastRefreshAt);
    return {
      driver: driver.kind,
      lastRefreshAt: lastRefreshAt === null ? null : new Date(lastRefreshAt).toISOString(),
      ageSeconds: ageMs === null ? null : Math.round(ageMs / 1000),
      stale: ageMs === null || ageMs > 3 * refreshMs,
      refreshSeconds: options.refreshSeconds,
      lastError,
      invalidRows: [...states.values()].flatMap((state) => state.invalid),
      doubtfulValues: [...states.values()].flatMap((state) => state.doubtful),
      degradedTabs: [...degraded.values()],
      servedFromDisk: [...servedFromDisk].map(([tab, savedAt]) => ({ tab, savedAt })),
      cells: driver.cellUsage?.() ?? null,
    };
  }

  /**
   * One tab's collection. The replica's state is generic over WORKBOOK, so its records
   * are typed here, once, from the tab's definition.
   */
  function collection<Name extends CollectionName>(name: Name): Collection<CollectionRecord<Name>, CollectionIndex<Name>> {
    type Row = CollectionRecord<Name>;
    const rows = (records: readonly AnyRecord[]) => records as readonly unknown[] as readonly Row[];
    const tab = tabOf(name);
    return {
      tab: tab.name,
      all: () => rows(listOf(stateOf(name))),
      version: () => versions.get(name) ?? 0,
      changedSince: (version) => changedSince(name, version),
      get: (id) => stateOf(name).records.get(id) as Row | undefined,
      by: (index: string, key) => rows(indexOf(stateOf(name), tab, index).get(normaliseIndexKey(key)) ?? []),
      insert: (record) => insert(name, record) as Promise<Row>,
      insertOnce: (record, { lookInStore }) => insertOnce(name, record, lookInStore) as Promise<Row>,
      update: (id, patch) => update(name, id, patch) as Promise<Row>,
      readStored: async () => rows(await readStored(name)),
      readMark: () => readMark(name),
      readStoredAfter: async (mark) => {
        const read = await readStoredAfter(name, mark);
        return { ...read, rows: rows(read.rows) };
      },
      removeStored: (ids) => removeStored(name, ids),
      skippedWith: (header, value) => skippedWith(stateOf(name), header, value),
    };
  }

  async function runRefreshJobs(): Promise<void> {
    for (const job of refreshJobs) {
      try {
        await job();
      } catch (error) {
        log.error("Store: a refresh job failed:", error);
      }
    }
  }

  return {
    agents: collection("agents"),
    requests: collection("requests"),
    responses: collection("responses"),
    messages: collection("messages"),
    contact: collection("contact"),
    marks: collection("marks"),
    conversationMembers: collection("conversationMembers"),
    referrals: collection("referrals"),
    referralEvents: collection("referralEvents"),
    sendClaims: collection("sendClaims"),
    blocks: collection("blocks"),
    reports: collection("reports"),
    driver: driver.kind,
    refresh,
    health,
    onRefresh(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    addRefreshJob(job) {
      refreshJobs.add(job);
      return () => refreshJobs.delete(job);
    },
    start() {
      if (running || closed) return;
      running = true;
      schedule();
    },
    async stop() {
      running = false;
      clearTimeout(timer);
      if (closed) return;
      closed = true;
      await tick;
      await inflight?.catch(() => undefined);
      await driver.close();
    },
  };
}
