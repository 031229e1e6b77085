import { spawnSync } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { describe, expect, it } from "vitest";
import { tabResidentBytes } from "../../app/server/store/resident-size.server";
import { emptyState } from "../../app/server/store/tab-state.server";

const ESTIMATE = pathToFileURL(path.resolve(import.meta.dirname, "../../app/server/store/resident-size.server.ts")).href;

// Run in a fresh node with a garbage collector to call: builds a tab of the replica's shape
// (frozen records in a Map, row numbers, a list and an index), and prints the heap it took
// as V8 counts it after a full collection beside the estimate.
const MEASURE = `
import { tabResidentBytes } from ${JSON.stringify(ESTIMATE)};
const settle = () => { globalThis.gc(); globalThis.gc(); return process.memoryUsage().heapUsed; };
const before = settle();
const state = { records: new Map(), rowOf: new Map(), rowsRead: 0, lastSignature: undefined, invalid: [], invalidCells: [], doubtful: [], list: undefined, indexes: new Map() };
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

// The child starts node with tsx: seconds on a loaded machine.
describe("the replica's resident size per tab", { timeout: 60_000 }, () => {
  it("comes within 15% of what V8's heap grows by when the tab is built", () => {
    const script = path.join(mkdtempSync(path.join(tmpdir(), "referral-resident-")), "measure.ts");
    writeFileSync(script, MEASURE);
    const run = spawnSync(process.execPath, ["--expose-gc", "--import", "tsx", script], { encoding: "utf8" });
    expect(run.stderr).toBe("");
    const { measured, estimated } = JSON.parse(run.stdout) as { measured: number; estimated: number };
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
