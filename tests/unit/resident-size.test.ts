import { spawnSync } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { describe, expect, it } from "vitest";
import { tabResidentBytes } from "../../app/server/store/resident-size.server";
import { applyWrite, emptyState, stateFromFullRead, tabOf } from "../../app/server/store/tab-state.server";

const ESTIMATE = pathToFileURL(path.resolve(import.meta.dirname, "../../app/server/store/resident-size.server.ts")).href;

// Run in a fresh node with a garbage collector to call: builds a tab of the replica's shape
// (frozen records in a Map, row numbers, a list and an index), and prints the heap it took
// as V8 counts it after a full collection beside the estimate.
const MEASURE = `
import { tabResidentBytes } from ${JSON.stringify(ESTIMATE)};
const settle = () => { globalThis.gc(); globalThis.gc(); return process.memoryUsage().heapUsed; };
const before = settle();
const state = { records: new Map(), rowOf: new Map(), rowsRead: 0, lastSignature: undefined, invalid: [], invalidCells: [], doubtful: [], list: undefined, indexes: new Map(), strings: new Map() };
const byCity = new Map();
for (let row = 0; row < 20000; row++) {
  const record = Object.freeze({
    id: "agent-" + row.toString(36).padStart(8, "0"),
    fullName: "Agent number " + row,
    email: "agent" + row + "@example.com",
    city: "City " + (row % 300),
    bio: ("Sells homes in the hill country since " + (1980 + (row % 40)) + ". ").repeat(1 + (row % 5)),
    specialties: ["Residential", "Luxury " + (row % 7)],
    rating: row % 3 === 0 ? 4.5 : row % 5,
    createdAt: new Date(Date.UTC(2026, 0, 1) + row * 60000).toISOString(),
  });
  state.records.set(record.id, record);
  state.rowOf.set(record.id, row + 2);
  const city = byCity.get(record.city) ?? [];
  city.push(record);
  byCity.set(record.city, city);
}
state.list = [...state.records.values()];
state.indexes.set("city", byCity);
const measured = settle() - before;
console.log(JSON.stringify({ measured, estimated: tabResidentBytes(state), kept: state.records.size }));
`;

const TAB_STATE = pathToFileURL(path.resolve(import.meta.dirname, "../../app/server/store/tab-state.server.ts")).href;

// Run like MEASURE: reads a Messages tab of 20,000 rows whose cells are fresh strings, as a
// driver gives them, with a conversation and two e-mails in each row either repeated (20
// of each) or all different, and prints the heap each tab took beside the estimate.
const MEASURE_REPEATS = `
import { tabResidentBytes } from ${JSON.stringify(ESTIMATE)};
import { indexOf, listOf, stateFromFullRead, tabOf } from ${JSON.stringify(TAB_STATE)};
const settle = () => { globalThis.gc(); globalThis.gc(); return process.memoryUsage().heapUsed; };
const ROWS = 20000;
const tab = tabOf("messages");
function driverRows(distinct) {
  const rows = [];
  for (let row = 0; row < ROWS; row++) {
    const n = row % distinct;
    rows.push({ rowNumber: row + 2, cells: {
      id: "message-" + row,
      conversationId: "conversation-" + n + "-".repeat(80),
      fromEmail: "sender-" + n + ".".repeat(50) + "@example.com",
      toEmail: "recipient-" + n + ".".repeat(50) + "@example.com",
      text: "Hello",
      createdAt: "2026-11-01T00:00:00.000Z",
    } });
  }
  // JSON.parse makes every cell longer than a few characters a string of its own, as reading rows does.
  return JSON.parse(JSON.stringify(rows));
}
function read(distinct, indexed) {
  const before = settle();
  let rows = driverRows(distinct);
  const state = stateFromFullRead(tab, rows);
  rows = undefined;
  if (indexed) { listOf(state); indexOf(state, tab, "conversationId"); indexOf(state, tab, "fromEmail"); }
  const measured = settle() - before;
  return { measured, estimated: tabResidentBytes(state), kept: state.records.size };
}
console.log(JSON.stringify({ repeated: read(20, false), different: read(ROWS, false), indexed: read(20, true) }));
`;

type Figures = { measured: number; estimated: number; kept: number };

function runMeasure<T>(source: string): T {
  const script = path.join(mkdtempSync(path.join(tmpdir(), "referral-resident-")), "measure.ts");
  writeFileSync(script, source);
  const run = spawnSync(process.execPath, ["--expose-gc", "--import", "tsx", script], { encoding: "utf8" });
  expect(run.stderr).toBe("");
  return JSON.parse(run.stdout) as T;
}

// The child starts node with tsx: seconds on a loaded machine.
describe("the replica's resident size per tab", { timeout: 60_000 }, () => {
  it("holds a repeating column's value once however many rows repeat it", () => {
    const { repeated, different, indexed } = runMeasure<{ repeated: Figures; different: Figures; indexed: Figures }>(MEASURE_REPEATS);
    expect(repeated.kept).toBe(20_000);
    // A copy per row of the conversation id (95 characters) and of the two e-mails (68 and 71):
    // 112 + 88 + 88 bytes, which a tab of repeated values does not hold.
    const copies = 20_000 * (112 + 88 + 88);
    expect(different.measured - repeated.measured).toBeGreaterThan(0.8 * copies);
    expect(indexed.estimated / indexed.measured).toBeGreaterThan(0.85);
    expect(indexed.estimated / indexed.measured).toBeLessThan(1.15);
  });

  it("comes within 15% of what V8's heap grows by when the tab is built", () => {
    const { measured, estimated } = runMeasure<Figures>(MEASURE);
    expect(measured).toBeGreaterThan(5 * 2 ** 20);
    expect(estimated / measured).toBeGreaterThan(0.85);
    expect(estimated / measured).toBeLessThan(1.15);
  });

  it("counts a character past Latin-1 as two bytes, as V8 stores such a string", () => {
    const withBio = (bio: string) => {
      const state = emptyState();
      state.records.set("a", Object.freeze({ id: "a", bio }));
      return tabResidentBytes(state);
    };
    expect(withBio("€".repeat(1_000)) - withBio("é".repeat(1_000))).toBe(1_000);
  });
});

describe("a tab's shared strings", () => {
  const tab = tabOf("messages");
  const row = (n: number, fromEmail: string) => ({
    rowNumber: n + 2,
    cells: { id: `m${n}`, conversationId: "c1", fromEmail, toEmail: "To@Example.com", text: "Hello", createdAt: "2026-11-01T00:00:00Z" },
  });

  it("are the repeating columns' values as the records hold them, and start afresh with each full read", () => {
    const first = stateFromFullRead(tab, [row(0, "a@example.com"), row(1, "A@Example.com")]);
    expect([...first.strings.keys()].sort()).toEqual(["a@example.com", "c1", "to@example.com"]);
    const next = stateFromFullRead(tab, [row(0, "b@example.com")]);
    expect([...next.strings.keys()].sort()).toEqual(["b@example.com", "c1", "to@example.com"]);
  });

  it("take the values of a record a write adds", () => {
    const state = stateFromFullRead(tab, [row(0, "a@example.com")]);
    applyWrite(state, { name: "messages", id: "m1", kind: "insert", seq: 1, cells: row(1, "c@example.com").cells });
    expect(state.records.get("m1")?.fromEmail).toBe("c@example.com");
    expect(state.strings.has("c@example.com")).toBe(true);
  });
});
