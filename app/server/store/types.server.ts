import type { TabKeyIndex, TabKey, TabKeyRecord } from "~/domain/workbook/tabs";
import type { CellUsage, MirrorTabs, StructureProblem, WorkbookDriver } from "./driver.server";

export type { MirrorGrid } from "./driver.server";

/**
 * One tab of the workbook as typed, indexed records. Reads are synchronous and come
 * from the in-memory replica; writes go to the driver first and are visible in the
 * replica as soon as the driver has stored them.
 */
export interface StoreTab<T extends { readonly id: string }, IndexName extends string = string> {
  /** The tab's name in the spreadsheet. */
  readonly tab: string;
  /** Every valid record, in row order. */
  all(): readonly T[];
  get(id: string): T | undefined;
  /** Records whose index key matches; keys are compared trimmed and case-insensitively. */
  by(index: IndexName, key: string): readonly T[];
  /**
   * Changes whenever the tab's records change, by a write of this process or a refresh
   * that found changes: a cache built from the tab rebuilds when it differs.
   */
  version(): number;
  /**
   * The ids of the records this process wrote since `version` (an earlier `version()`), or
   * null when that is not known (a refresh found changes, or too many writes since): a
   * cache can then update those records instead of rebuilding.
   */
  changedSince(version: number): readonly string[] | null;
  /** Appends a row. Resolves once the driver stored it; rejects with StoreValidationError or StoreWriteError. */
  insert(record: T): Promise<T>;
  /**
   * Appends a row unless one with its id is stored already: in the replica, being added by
   * this process, or (with `lookInStore`, one read call) among the rows added to the tab
   * since the last read. A write sent again after an answer that was lost so stores one row
   * (docs/decisions/0032). Resolves with the stored record.
   */
  insertOnce(record: T, options: { lookInStore: boolean }): Promise<T>;
  /** Writes the changed cells of the row with this id; rejects with StoreNotFoundError when there is none. */
  update(id: string, patch: Partial<Omit<T, "id">>): Promise<T>;
  /**
   * Reads the tab whole from the spreadsheet or file, not the replica: what every instance
   * has stored by now, in row order, duplicate ids included (one read call). For deciding
   * which of several instances' rows came first (docs/decisions/0029).
   */
  readStored(): Promise<readonly T[]>;
  /** Where the replica's reads of this tab have got to, for `readStoredAfter`. */
  readMark(): ReadMark;
  /**
   * Like `readStored`, but only the rows stored after `mark` (an earlier `readMark()` or
   * `end`): what a claim can race with (docs/decisions/0039). The whole tab when rows above
   * the mark were deleted or moved since. One read call, two when rows moved.
   */
  readStoredAfter(mark: ReadMark): Promise<StoredAfter<T>>;
  /**
   * Deletes the rows with these ids from an append-only tab, in the spreadsheet or file and
   * in the replica: for rows whose use is over (docs/decisions/0039). Resolves with how many
   * rows were deleted; rejects with StoreWriteError.
   */
  removeStored(ids: readonly string[]): Promise<number>;
  /**
   * The rows skipped at the last read (they do not read: a status typed `TRUE`, a formula
   * error) whose cell under `header` is `value`, compared trimmed and case-insensitively.
   */
  skippedWith(header: string, value: string): readonly InvalidRow[];
}

/** How far the replica's reads of a tab have got: its row count and its last row's cells. */
export type ReadMark = { readonly rowsRead: number; readonly lastSignature: string | undefined };

/** Rows read after a mark: `whole` when the tab was read whole instead; `end` marks where the read ended. */
export type StoredAfter<T> = { readonly rows: readonly T[]; readonly end: ReadMark; readonly whole: boolean };

export type InvalidRow = { tab: string; row: number; reason: string };

/** A value that reads but is probably a typing mistake; the row is served as it is and listed for staff. */
export type DoubtfulValue = { tab: string; row: number; id: string; reason: string };

/** One held tab's share of the replica's memory: its records and an estimate of their heap size. */
export type TabResidentSize = { tab: string; records: number; residentMb: number };

export type StoreHealth = {
  driver: WorkbookDriver["kind"];
  /** When the replica last matched the store (a read, or a check that nothing changed). */
  lastRefreshAt: string | null;
  ageSeconds: number | null;
  /** True before the first load and when the replica is older than three refresh intervals. */
  stale: boolean;
  refreshSeconds: number;
  lastError: string | null;
  invalidRows: InvalidRow[];
  /** Values that read but look mistyped (a date in a money column, an unknown kind of mail), each `{tab, row, id, reason}`. */
  doubtfulValues: DoubtfulValue[];
  /**
   * Tabs staff changed so that they cannot be read safely (a required header renamed or
   * deleted, a row above the headers, the tab renamed), each with the fix. Each keeps
   * serving its last good copy, and nothing is written to it until it is fixed.
   */
  degradedTabs: StructureProblem[];
  /**
   * Degraded tabs that have been so since this process started, served from their last good
   * copy on disk (docs/decisions/0034), with when that copy was saved.
   */
  servedFromDisk: { tab: string; savedAt: string }[];
  /** Cells the spreadsheet holds against Google's limit (Sheets only; null before the first look and on SQLite). */
  cells: CellUsage | null;
};

/**
 * Per tab, the columns whose old and new values a job reads in the rows the refresh event
 * lists as changed. Only these values are carried: the event says which rows changed, and
 * the job reads anything else from the replica.
 */
export type WatchedColumns = { readonly [Name in TabKey]?: readonly (keyof TabKeyRecord<Name> & string)[] };

/** A row whose cells changed, with the old and new values of the columns jobs watch in its tab (the others are absent). */
export type RowChange<Name extends TabKey> = {
  id: string;
  before: Partial<TabKeyRecord<Name>>;
  after: Partial<TabKeyRecord<Name>>;
};

/** The rows of one tab that someone else added, changed or removed: staff, another instance, a script. */
type TabChanges<Name extends TabKey> = {
  added: readonly string[];
  changed: readonly RowChange<Name>[];
  removed: readonly string[];
};

/**
 * What the refreshes found changed in the store since a job's previous run, every tab named
 * (an unchanged tab has empty lists). This process's own writes are not in it, and neither
 * is the first read, which is every job's starting point. A row changed and changed back
 * between two runs is not listed.
 */
export type RefreshEvent = { readonly [Name in TabKey]: TabChanges<Name> };

/**
 * Work the store runs after its refreshes (docs/decisions/0037). Every job runs after each
 * timed refresh (work that depends on the clock), and a job that watches a tab also runs
 * after any other refresh that found it changed. A job never overlaps itself: a refresh that
 * comes during a run is folded into one more run after it.
 */
export type RefreshJob = {
  /** Names the job in the log. */
  name: string;
  /** The tabs whose changes run the job at once, and their columns whose old and new values it reads. */
  watches?: WatchedColumns;
  /** One run. `signal` aborts when the job is stopped: the run ends what it is doing and starts nothing new. */
  run(event: RefreshEvent, signal: AbortSignal): Promise<void>;
};

/** Work that runs in the background for as long as the process serves. */
export type BackgroundJob = {
  /**
   * Runs the job no more, and resolves once the run in flight has finished, or has been
   * cut after the store's stop wait (5 s by default, inside the server's shutdown deadline).
   */
  stop(): Promise<void>;
};

type StoreTabs = {
  readonly [Name in TabKey]: StoreTab<TabKeyRecord<Name>, TabKeyIndex<Name>>;
};

export type Store = StoreTabs & {
  readonly driver: WorkbookDriver["kind"];
  /** The staff driver's mirror tabs (docs/decisions/0081): null where staff have no spreadsheet. */
  readonly mirrors: MirrorTabs | null;
  /** Re-reads what changed; concurrent calls share one read. Rejects when the read failed (the last good replica keeps serving). */
  refresh(): Promise<void>;
  /**
   * Re-reads these tabs only, for what another instance changed in them (the database tells
   * of its writes). Calls made while one waits join it; reads run one at a time. Never rejects:
   * a failed read is logged, and the next timed refresh reads the tabs again.
   */
  refreshTabs(names: readonly TabKey[]): Promise<void>;
  health(): StoreHealth;
  /** What each tab the replica holds keeps in memory (records, row numbers, list and built indexes), for /healthz's details. */
  residentSizes(): TabResidentSize[];
  /** Adds a job run after the store's refreshes, from now on. */
  addJob(job: RefreshJob): BackgroundJob;
  /** Starts the refresh timer. */
  start(): void;
  /** Stops the timer, waits for a running refresh, stops every job (as `BackgroundJob.stop`), and closes the driver. */
  stop(): Promise<void>;
};

export class StoreError extends Error {
  override name = "StoreError";
}

export class StoreNotFoundError extends StoreError {
  override name = "StoreNotFoundError";
  constructor(
    readonly tab: string,
    readonly id: string,
  ) {
    super(`No row with id ${id} in the ${tab} tab`);
  }
}

/** The record would not read back as valid (a missing id, an unknown status, a duplicate id...). */
export class StoreValidationError extends StoreError {
  override name = "StoreValidationError";
  constructor(
    readonly tab: string,
    readonly reason: string,
  ) {
    super(`Invalid ${tab} row: ${reason}`);
  }
}

/** The driver could not store the write: nothing was saved in the replica. */
export class StoreWriteError extends StoreError {
  override name = "StoreWriteError";
  constructor(
    readonly tab: string,
    options: { cause: unknown },
  ) {
    super(`Could not save to the ${tab} tab: ${describeError(options.cause)}`, options);
  }
}

/**
 * The database holding the high-volume tabs could not be reached or dropped the connection (a
 * restart, a failover): a read of its rows failed for a moment. What needs them says so; the
 * rest of the page serves from the replica.
 */
export class StoreUnavailableError extends StoreError {
  override name = "StoreUnavailableError";
  constructor(options: { cause: unknown }) {
    super(`The database is out of reach: ${describeError(options.cause)}`, options);
  }
}

export function describeError(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
