import { indexKeys, normaliseIndexKey, parseRow, serialiseRecord, type RowCells } from "~/domain/workbook/rows";
import type { TabDefinition } from "~/domain/workbook/define-tab";
import { WORKBOOK, type TabKey } from "~/domain/workbook/tabs";
import type { DriverRow } from "./driver.server";
import { StoreValidationError, type DoubtfulValue, type InvalidRow } from "./types.server";

/*
 * One tab of the replica as last read, plus this process's writes since, and the steps that
 * build and change it: a whole read, a tail read, an acknowledged write, an index built.
 */

/** A record of any tab. Parsing a tab typed only as "some tab" loses the id column's type, hence the casts to this. */
export type AnyRecord = { readonly id: string } & Readonly<Record<string, unknown>>;
export type AnyTab = TabDefinition;

/** One tab as last read, plus the writes this process made since. */
export type TabState = {
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
  /**
   * One string per distinct value of the tab's repeating columns (columns.ts `repeats`),
   * which its records and index keys hold instead of a copy each: 100,000 messages name a few
   * thousand conversations and agents. A full read starts it afresh, so values no record
   * holds any more leave with it; a tail read adds to it.
   */
  strings: Map<string, string>;
};

/** A write the driver acknowledged: a row added or changed, or (of an append-only tab) deleted by this process. */
export type Write = { name: TabKey; id: string } & ({ kind: "insert" | "update"; cells: RowCells } | { kind: "remove" });
/** A write as logged, in order; replayed onto a read that started before it was acknowledged. */
export type LoggedWrite = Write & { seq: number };

export const TAB_KEYS = Object.keys(WORKBOOK) as TabKey[];

export function tabOf(name: TabKey): AnyTab {
  return WORKBOOK[name] as AnyTab;
}

export function emptyState(): TabState {
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
    strings: new Map(),
  };
}

/** The tab's one copy of a value, kept the first time the value is met. */
function sharedIn(strings: Map<string, string>): (value: string) => string {
  return (value) => {
    const held = strings.get(value);
    if (held !== undefined) return held;
    strings.set(value, value);
    return value;
  };
}

export function signature(tab: AnyTab, row: DriverRow | undefined): string | undefined {
  return row && JSON.stringify(tab.headers.map((header) => row.cells[header] ?? ""));
}

/** Adds one read row to a state being built: blank rows skipped, invalid and duplicate rows listed. */
function addReadRow(state: TabState, tab: AnyTab, row: DriverRow, share: (value: string) => string): void {
  const parsed = parseRow(tab, row.cells, share);
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

export function stateFromFullRead(tab: AnyTab, rows: readonly DriverRow[]): TabState {
  const state = emptyState();
  const share = sharedIn(state.strings);
  for (const row of rows) addReadRow(state, tab, row, share);
  state.rowsRead = rows.length;
  state.lastSignature = signature(tab, rows.at(-1));
  return state;
}

/** `rows` starts with the last row already read; only the rows after it are new. */
export function stateFromTailRead(previous: TabState, tab: AnyTab, rows: readonly DriverRow[]): TabState {
  const fresh = rows.slice(1);
  if (fresh.length === 0) return previous;
  const state: TabState = {
    ...emptyState(),
    records: new Map(previous.records),
    rowOf: new Map(previous.rowOf),
    invalid: [...previous.invalid],
    invalidCells: [...previous.invalidCells],
    doubtful: [...previous.doubtful],
    strings: previous.strings,
  };
  const share = sharedIn(state.strings);
  for (const row of fresh) addReadRow(state, tab, row, share);
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
 * Brings the indexes already built up to date with one record's change (`after` undefined:
 * its removal), touching only
 * the buckets of its old and new keys: a write costs the size of those buckets, not a
 * rebuild of the tab's indexes. Buckets are replaced, never changed, because readers may
 * still hold the arrays `by()` gave them. A record that moves to another key joins the
 * end of its new bucket; a full read puts buckets back in row order.
 */
function updateIndexes(state: TabState, tab: AnyTab, before: AnyRecord | undefined, after: AnyRecord | undefined): void {
  state.list = undefined;
  for (const [index, buckets] of state.indexes) {
    const keyOf = keyFunctionOf(tab, index);
    if (!keyOf) continue;
    const oldKeys = keysOf(keyOf, before);
    const newKeys = keysOf(keyOf, after);
    for (const key of oldKeys) {
      const bucket = buckets.get(key) ?? [];
      if (after && newKeys.has(key)) {
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
    if (!after) continue;
    for (const key of newKeys) {
      if (!oldKeys.has(key)) buckets.set(state.strings.get(key) ?? key, [...(buckets.get(key) ?? []), after]);
    }
  }
}

export function problemKey(row: InvalidRow | DoubtfulValue): string {
  return `${row.tab}\u0000${row.row}\u0000${row.reason}`;
}

/** The skipped rows of a tab whose cell under `header` is `value`, compared as index keys are. */
export function skippedWith(state: TabState, header: string, value: string): InvalidRow[] {
  const wanted = normaliseIndexKey(value);
  return state.invalid.filter((_, i) => normaliseIndexKey(state.invalidCells[i]?.[header] ?? "") === wanted);
}

export function listOf(state: TabState): readonly AnyRecord[] {
  state.list ??= Object.freeze([...state.records.values()]);
  return state.list;
}

export function indexOf(state: TabState, tab: AnyTab, index: string): Map<string, AnyRecord[]> {
  const cached = state.indexes.get(index);
  if (cached) return cached;
  const keyOf = keyFunctionOf(tab, index);
  if (!keyOf) throw new Error(`The ${tab.name} tab has no index named ${index}`);
  const built = new Map<string, AnyRecord[]>();
  for (const record of state.records.values()) {
    for (const key of new Set(indexKeys(keyOf(record)))) {
      const bucket = built.get(key);
      if (bucket) bucket.push(record);
      // A key that is a repeating column's value as it stands (an e-mail, a conversation id) is that value's one copy.
      else built.set(state.strings.get(key) ?? key, [record]);
    }
  }
  state.indexes.set(index, built);
  return built;
}

/**
 * Turns cells into a record exactly as a read would, or explains why it would not read.
 * `share`: the tab's shared strings, for a record the replica keeps.
 */
export function recordFromCells(tab: AnyTab, cells: RowCells, share?: (value: string) => string): AnyRecord {
  const parsed = parseRow(tab, cells, share);
  if (parsed.ok === "blank") throw new StoreValidationError(tab.name, "the row is blank");
  if (parsed.ok === false) throw new StoreValidationError(tab.name, parsed.reason);
  return Object.freeze(parsed.record) as AnyRecord;
}

export function applyWrite(state: TabState, write: LoggedWrite): void {
  const tab = tabOf(write.name);
  const existing = state.records.get(write.id);
  if (write.kind === "remove") {
    if (!existing) return;
    state.records.delete(write.id);
    state.rowOf.delete(write.id);
    updateIndexes(state, tab, existing, undefined);
    return;
  }
  const share = sharedIn(state.strings);
  let record: AnyRecord;
  if (write.kind === "insert") {
    if (existing) return;
    record = recordFromCells(tab, write.cells, share);
  } else {
    if (!existing) return;
    const cells = { ...serialiseRecord(tab, existing), ...write.cells };
    const parsed = parseRow(tab, cells, share);
    if (parsed.ok !== true) return;
    record = Object.freeze(parsed.record) as AnyRecord;
  }
  state.records.set(write.id, record);
  updateIndexes(state, tab, existing, record);
}
