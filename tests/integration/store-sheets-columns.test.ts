/**
 * Staff move, insert and delete columns while the app runs: each edit is made at the
 * worst moment, after the app read the header row and just before its write, on the fake
 * Sheets server in its Google-faithful mode. No value may land under another header.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import type { Agent } from "../../app/domain/workbook/tabs";
import { createReplica } from "../../app/server/store/replica.server";
import { createSheetsDriver } from "../../app/server/store/sheets-driver.server";
import { newId, StoreWriteError, type Store } from "../../app/server/store/store.server";
import { startFakeSheets, type FakeSheetsServer } from "../../scripts/lib/fake-sheets/server";
import type { FakeSpreadsheet } from "../../scripts/lib/fake-sheets/spreadsheet";
import { agentRecord } from "../support/records";

const fastRetry = { attempts: 4, baseDelayMs: 1, maxDelayMs: 5 };

let fake: FakeSheetsServer;
const opened: Store[] = [];

beforeAll(async () => {
  fake = await startFakeSheets();
});
afterEach(async () => {
  fake.clearFaults();
  await Promise.all(opened.splice(0).map((store) => store.stop()));
});
afterAll(async () => {
  await fake.close();
});

/** A pending member whose checked cells all differ from the other members' and from each other. */
function agent(fullName: string, i: number): Agent {
  return agentRecord({
    fullName,
    email: `agent${i}@example.com`,
    phone: `512-555-010${i}`,
    city: `City ${i}`,
    zipCode: `7870${i}`,
    licenseNumber: `L-${i}`,
    brokerage: `Brokerage ${i}`,
    bio: `Bio of ${fullName}`,
    status: "pending",
    passwordHash: `hash-of-${fullName}`,
  });
}

async function network(names: readonly string[]) {
  const spreadsheetId = `columns-${newId()}`;
  const book = fake.spreadsheet(spreadsheetId);
  const store = createReplica(
    createSheetsDriver({ spreadsheetId, credentials: { kind: "fixedToken" }, apiUrl: fake.url, retry: fastRetry }),
    {
      refreshSeconds: 60,
      log: { info: () => undefined, warn: () => undefined, error: () => undefined },
    },
  );
  opened.push(store);
  await store.refresh();
  const agents: Agent[] = [];
  for (const [i, fullName] of names.entries()) agents.push(await store.agents.insert(agent(fullName, i)));
  // The app's header positions are now those of this read; staff edit after it.
  await store.refresh();
  return { store, book, agents };
}

const CHECKED = [
  "id",
  "fullName",
  "email",
  "phone",
  "city",
  "zipCode",
  "licenseNumber",
  "brokerage",
  "bio",
  "status",
  "passwordHash",
] as const;

/** Every record the app holds reads back, cell for cell, under its own headers. */
function expectEveryValueUnderItsHeader(store: Store, book: FakeSpreadsheet): void {
  const headers = book.headers("Agents");
  const rows = book
    .rows("Agents")
    .slice(1)
    .filter((row) => row.some((cell) => cell !== ""));
  expect(rows).toHaveLength(store.agents.all().length);
  for (const record of store.agents.all()) {
    for (const header of CHECKED) {
      if (!headers.includes(header)) continue;
      expect(book.cell("Agents", record.id, header), `${header} of ${record.fullName}`).toBe(String(record[header]));
    }
  }
}

describe("columns staff change between the app's header read and its write", () => {
  it("a column moved before an update: the new value goes under its header", async () => {
    const { store, book, agents } = await network(["Ann", "Bo"]);
    fake.beforeNext((sheet) => sheet.moveColumn("Agents", "city", 2));
    await store.agents.update(agents[0]!.id, { city: "Austin" });
    expect(book.cell("Agents", agents[0]!.id, "city")).toBe("Austin");
    expect(book.cell("Agents", agents[0]!.id, "fullName")).toBe("Ann");
    expectEveryValueUnderItsHeader(store, book);
  });

  it("a column inserted before an update: nothing is shifted into the staff column or the next header", async () => {
    const { store, book, agents } = await network(["Ann", "Bo"]);
    await store.agents.update(agents[1]!.id, { status: "approved" });
    fake.beforeNext((sheet) => sheet.insertColumn("Agents", 2, "Staff notes"));
    await store.agents.update(agents[1]!.id, { city: "Tulsa", bio: "Now in Tulsa" });
    expect(book.cell("Agents", agents[1]!.id, "city")).toBe("Tulsa");
    expect(book.cell("Agents", agents[1]!.id, "Staff notes")).toBe("");
    expectEveryValueUnderItsHeader(store, book);
  });

  it("a column deleted before an update: the other values still go under their own headers", async () => {
    const { store, book, agents } = await network(["Ann", "Bo"]);
    fake.beforeNext((sheet) => sheet.deleteColumn("Agents", "phone"));
    await store.agents.update(agents[0]!.id, { city: "Waco", bio: "Now in Waco" });
    expect(book.cell("Agents", agents[0]!.id, "city")).toBe("Waco");
    expect(book.cell("Agents", agents[0]!.id, "bio")).toBe("Now in Waco");
    expectEveryValueUnderItsHeader(store, book);
  });

  it("the written column itself deleted before an update: the write fails, nothing lands elsewhere", async () => {
    const { store, book, agents } = await network(["Ann", "Bo"]);
    const before = book.rows("Agents");
    fake.beforeNext((sheet) => sheet.deleteColumn("Agents", "bio"));
    await expect(store.agents.update(agents[0]!.id, { bio: "Lost?" })).rejects.toBeInstanceOf(StoreWriteError);
    expect(book.rows("Agents").flat()).not.toContain("Lost?");
    const bioColumn = before[0]!.indexOf("bio");
    expect(book.rows("Agents")).toEqual(before.map((row) => row.filter((_, column) => column !== bioColumn)));
  });

  it("a column moved before an append: the new row's values go under their headers", async () => {
    const { store, book } = await network(["Ann", "Bo"]);
    fake.beforeNext((sheet) => sheet.moveColumn("Agents", "email", 1));
    await store.agents.insert(agent("Cy", 2));
    expectEveryValueUnderItsHeader(store, book);
  });

  it("a column inserted before an append: nothing is shifted into the staff column", async () => {
    const { store, book } = await network(["Ann", "Bo"]);
    fake.beforeNext((sheet) => sheet.insertColumn("Agents", 3, "Staff notes"));
    const cy = await store.agents.insert(agent("Cy", 2));
    expect(book.cell("Agents", cy.id, "Staff notes")).toBe("");
    expectEveryValueUnderItsHeader(store, book);
  });

  it("a written column deleted before an append of several rows: both are refused, none is stored, the column is named", async () => {
    const { store, book } = await network(["Ann"]);
    const before = book.rows("Agents");
    fake.beforeNext((sheet) => sheet.deleteColumn("Agents", "brokerage"));
    const added = await Promise.allSettled([store.agents.insert(agent("Bo", 1)), store.agents.insert(agent("Cy", 2))]);
    for (const outcome of added) {
      expect(outcome.status).toBe("rejected");
      expect(String((outcome as PromiseRejectedResult).reason)).toMatch(/no brokerage column/);
    }
    const brokerage = before[0]!.indexOf("brokerage");
    expect(book.rows("Agents")).toEqual(before.map((row) => row.filter((_, column) => column !== brokerage)));
    expect(store.agents.all().map((record) => record.fullName)).toEqual(["Ann"]);
  });
});

describe("new rows of a tab the app updates", () => {
  it("go under the last row the app has read, anchored at once: a note typed since moves down a row, and the row is updated later without a lookup", async () => {
    const { store, book } = await network(["Ann", "Bo"]);
    book.setCell("Agents", `A${book.rows("Agents").length + 2}`, "Note typed after the app's last read");
    const before = book.rows("Agents");
    const cy = await store.agents.insert(agent("Cy", 2));
    const after = book.rows("Agents");
    expect(after.slice(0, 3)).toEqual(before.slice(0, 3));
    expect(after[3]?.[0]).toBe(cy.id);
    expect(after.slice(4)).toEqual(before.slice(3));
    const searches = fake.calls.filter((call) => call.kind === "developerMetadata.search").length;
    fake.beforeNext(
      (sheet) => sheet.sortRows("Agents", "fullName", "descending"),
      (call) => call.kind === "spreadsheets.batchUpdate",
    );
    await store.agents.update(cy.id, { city: "Norman" });
    expect(book.cell("Agents", cy.id, "city")).toBe("Norman");
    // The sort moved the row: the guarded write was refused once and the row found again with one search.
    expect(fake.calls.filter((call) => call.kind === "developerMetadata.search").length).toBe(searches + 1);
    book.deleteRow("Agents", book.rows("Agents").length);
    expectEveryValueUnderItsHeader(store, book);
  });
});
