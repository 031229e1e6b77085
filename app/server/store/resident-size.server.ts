import type { TabKey } from "~/domain/workbook/tabs";
import { tabOf, type TabState } from "./tab-state.server";
import type { TabResidentSize } from "./types.server";
import type { TabVersions } from "./tab-versions.server";

/*
 * What a tab of the replica holds in V8's heap, worked out by walking its objects with
 * V8's object sizes on a 64-bit build with pointer compression off (Node's default): a
 * header of two words, a word per field or element, strings of one byte per character
 * (two past Latin-1), rounded up to a word. A heap snapshot would give the exact figure but
 * stops the process for seconds at the large network; this walk takes milliseconds and is
 * within a few percent for the replica's shapes (plain frozen records of strings, numbers
 * and a few arrays, in Maps and arrays).
 */

const WORD = 8;
const roundUp = (bytes: number) => Math.ceil(bytes / WORD) * WORD;

// A Map's or Set's hash table: per entry its key, value and chain link, and a bucket per two entries.
const HASH_TABLE_BYTES_PER_ENTRY = 3.5 * WORD;
const COLLECTION_HEADER_BYTES = 4 * WORD;

function stringBytes(text: string): number {
  // eslint-disable-next-line no-control-regex -- the one-byte (Latin-1) range is the point
  const bytesPerCharacter = /^[\u0000-\u00ff]*$/.test(text) ? 1 : 2;
  return roundUp(2 * WORD + text.length * bytesPerCharacter);
}

/** A tab's shared strings (`TabState.strings`): its hash table and each string once. */
function sharedStringsBytes(strings: ReadonlyMap<string, string>): number {
  let bytes = COLLECTION_HEADER_BYTES + strings.size * HASH_TABLE_BYTES_PER_ENTRY;
  for (const value of strings.keys()) bytes += stringBytes(value);
  return bytes;
}

/**
 * The heap bytes of `value` and of everything it reaches that `seen` does not hold yet. A
 * string the tab shares is counted with its shared strings, not again where it is held: the
 * replica gives every record and index key with that value the one copy (tab-state.server.ts).
 */
function bytesOf(value: unknown, seen: WeakSet<object>, shared: ReadonlyMap<string, string>): number {
  if (typeof value === "string") return shared.has(value) ? 0 : stringBytes(value);
  // Small integers live in the pointer; other numbers are boxed.
  if (typeof value === "number") return Number.isInteger(value) && Math.abs(value) < 2 ** 31 ? 0 : 2 * WORD;
  if (typeof value !== "object" || value === null) return 0;
  if (seen.has(value)) return 0;
  seen.add(value);
  if (value instanceof Date) return 4 * WORD;
  if (value instanceof Map) {
    let bytes = COLLECTION_HEADER_BYTES + value.size * HASH_TABLE_BYTES_PER_ENTRY;
    for (const [key, entry] of value) bytes += bytesOf(key, seen, shared) + bytesOf(entry, seen, shared);
    return bytes;
  }
  if (value instanceof Set) {
    let bytes = COLLECTION_HEADER_BYTES + value.size * HASH_TABLE_BYTES_PER_ENTRY;
    for (const entry of value) bytes += bytesOf(entry, seen, shared);
    return bytes;
  }
  if (Array.isArray(value)) {
    let bytes = 4 * WORD + value.length * WORD;
    for (const entry of value as unknown[]) bytes += bytesOf(entry, seen, shared);
    return bytes;
  }
  const entries = Object.values(value);
  let bytes = 3 * WORD + entries.length * WORD;
  for (const entry of entries) bytes += bytesOf(entry, seen, shared);
  return bytes;
}

/** One tab's records, row numbers, ordered list, built indexes and shared strings, in bytes. */
export function tabResidentBytes(state: TabState): number {
  const seen = new WeakSet<object>();
  return [state.records, state.rowOf, state.list, state.indexes, state.invalidCells].reduce<number>(
    (bytes, part) => bytes + bytesOf(part, seen, state.strings),
    sharedStringsBytes(state.strings),
  );
}

/**
 * The replica's `residentSizes`: each held tab's records and heap size, worked out again
 * only for a tab changed or newly indexed since it was last asked.
 */
export function residentSizesOf(
  held: readonly TabKey[],
  stateOf: (name: TabKey) => TabState,
  versions: TabVersions,
): () => TabResidentSize[] {
  const known = new Map<TabKey, { version: number; indexes: number; bytes: number }>();
  return () =>
    held.map((name) => {
      const state = stateOf(name);
      const key = { version: versions.of(name), indexes: state.indexes.size };
      let size = known.get(name);
      if (size?.version !== key.version || size.indexes !== key.indexes) {
        size = { ...key, bytes: tabResidentBytes(state) };
        known.set(name, size);
      }
      return { tab: tabOf(name).name, records: state.records.size, residentMb: Math.round((size.bytes / 2 ** 20) * 10) / 10 };
    });
}
