import type { TabKey } from "~/domain/workbook/tabs";
import { TAB_KEYS, type AnyRecord } from "./tab-state.server";
import type { RefreshEvent, WatchedColumns } from "./types.server";

/** A row's record before and after: no `before` when it was added, no `after` when it was removed. */
type RowStep = { before: AnyRecord | undefined; after: AnyRecord | undefined };

/** Per tab and row id, the rows that changed: what one refresh found, or what refreshes found since a job last ran. */
export type Changes = Map<TabKey, Map<string, RowStep>>;

function sameValue(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  // Lists (the mails stamped on an agent's row) are the only values that are not primitives.
  return typeof a === "object" && typeof b === "object" && a !== null && b !== null && JSON.stringify(a) === JSON.stringify(b);
}

function sameRecord(a: AnyRecord, b: AnyRecord): boolean {
  if (a === b) return true;
  for (const key of new Set([...Object.keys(a), ...Object.keys(b)])) if (!sameValue(a[key], b[key])) return false;
  return true;
}

/** The rows of one tab added, changed or removed between two reads of it. */
export function changedRows(previous: ReadonlyMap<string, AnyRecord>, current: ReadonlyMap<string, AnyRecord>): Map<string, RowStep> {
  const rows = new Map<string, RowStep>();
  for (const [id, after] of current) {
    const before = previous.get(id);
    if (!before || !sameRecord(before, after)) rows.set(id, { before, after });
  }
  for (const [id, before] of previous) if (!current.has(id)) rows.set(id, { before, after: undefined });
  return rows;
}

/** Adds what a refresh found to what a job has not been given yet: each row keeps its oldest `before` and takes the newest `after`. */
export function mergeChanges(into: Changes, found: Changes): void {
  for (const [name, rows] of found) {
    let pending = into.get(name);
    if (!pending) into.set(name, (pending = new Map()));
    for (const [id, step] of rows) {
      const earlier = pending.get(id);
      pending.set(id, earlier ? { before: earlier.before, after: step.after } : step);
    }
  }
}

function pick(record: AnyRecord, columns: readonly string[]): Record<string, unknown> {
  return Object.fromEntries(columns.map((column) => [column, record[column]]));
}

function tabChanges(rows: ReadonlyMap<string, RowStep> | undefined, columns: readonly string[]) {
  const added: string[] = [];
  const changed: { id: string; before: Record<string, unknown>; after: Record<string, unknown> }[] = [];
  const removed: string[] = [];
  for (const [id, { before, after }] of rows ?? []) {
    if (before && after) {
      if (!sameRecord(before, after)) changed.push({ id, before: pick(before, columns), after: pick(after, columns) });
    } else if (after) added.push(id);
    else if (before) removed.push(id);
  }
  return { added, changed, removed };
}

/** The event a job is given: every tab's rows by what happened to them, with the old and new values of the columns it watches. */
export function refreshEvent(changes: Changes, watches: WatchedColumns = {}): RefreshEvent {
  const tabs = TAB_KEYS.map((name) => [name, tabChanges(changes.get(name), watches[name] ?? [])]);
  // Each tab's values are picked from its own records by its own columns: the per-tab types hold.
  return Object.fromEntries(tabs) as RefreshEvent;
}

/** True when the changes touch a tab the job watches. */
export function touchesWatched(changes: Changes, watches: WatchedColumns = {}): boolean {
  return Object.keys(watches).some((name) => (changes.get(name as TabKey)?.size ?? 0) > 0);
}
