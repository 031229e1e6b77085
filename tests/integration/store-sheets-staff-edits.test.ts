/**
 * Staff edit the spreadsheet while the app runs: the scenarios below make each edit at
 * the worst moment, between the app's read and its write, on the fake Sheets server in
 * its Google-faithful mode, and check that every record stays where it belongs.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import type { Agent, ReferralRequest } from "../../app/domain/workbook";
import { createStore } from "../../app/server/store/replica.server";
import { createSheetsDriver } from "../../app/server/store/sheets-driver.server";
import { newId, StoreNotFoundError, type Store } from "../../app/server/store/store.server";
import { matchers, startFakeSheets, type FakeSheetsServer } from "../fake-sheets/server";
import type { FakeSpreadsheet } from "../fake-sheets/spreadsheet";

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

function recordingLog() {
  const lines: string[] = [];
  const keep = (...parts: unknown[]) => void lines.push(parts.map(String).join(" "));
  return { lines, log: { info: keep, warn: keep, error: keep } };
}

async function network(names: readonly string[]) {
  const spreadsheetId = `staff-${newId()}`;
  const book = fake.spreadsheet(spreadsheetId);
  const { lines, log } = recordingLog();
  const store = createStore(createSheetsDriver({ spreadsheetId, credentials: { kind: "fixedToken" }, apiUrl: fake.url, retry: fastRetry }), {
    refreshSeconds: 60,
    log,
  });
  opened.push(store);
  await store.refresh();
  const agents: Agent[] = [];
  for (const [i, fullName] of names.entries()) agents.push(await store.agents.insert(agent(fullName, i)));
  return { store, book, agents, lines };
}

function agent(fullName: string, i: number): Agent {
  return {
    id: newId(),
    fullName,
    email: `agent${i}@example.com`,
    phone: "",
    state: "TX",
    city: `City ${i}`,
    zipCode: "",
    licenseNumber: "",
    licenseState: "TX",
    licenseExpiration: "",
    brokerage: "",
    brokerEmail: "",
    specialties: [],
    bio: `Bio of ${fullName}`,
    photoUrl: "",
    membershipType: "member",
    vipCode: "",
    status: "pending",
    statusNote: "",
    passwordHash: `hash-of-${fullName}`,
    createdAt: "2025-03-01T00:00:00.000Z",
  };
}

/** Every record the app holds is on the row with its id, cell for cell. */
function expectEveryRowInPlace(store: Store, book: FakeSpreadsheet): void {
  for (const record of store.agents.all()) {
    for (const header of ["fullName", "city", "bio", "status", "passwordHash"] as const) {
      expect(book.cell("Agents", record.id, header), `${header} of ${record.fullName}`).toBe(String(record[header]));
    }
  }
  // Every anchor sits on the row of its id, and no unchecked tag is left behind.
  for (const { sheet, rowIndex, metadata } of book.findMetadata({})) {
    expect(metadata.metadataKey).toBe(`rrn.anchor.${sheet.title}`);
    expect(book.rowNumberOf(sheet.title, metadata.metadataValue ?? "")).toBe(rowIndex + 1);
  }
}

const sortByName = (book: FakeSpreadsheet) => book.sortRows("Agents", "fullName", "descending");

describe("staff edits between the app's read and its write", () => {
  it("a sort just before the first write of a row: the new city and bio land on that member's row", async () => {
    const { store, book, agents } = await network(["Ann", "Bo", "Cy", "Di"]);
    fake.beforeNext(sortByName);
    await store.agents.update(agents[0]!.id, { city: "Austin", bio: "Moved to Austin" });
    expect(book.cell("Agents", agents[0]!.id, "city")).toBe("Austin");
    expectEveryRowInPlace(store, book);
  });

  it("sorts, inserted rows and moved rows before later writes: each write follows its row", async () => {
    const { store, book, agents } = await network(["Ann", "Bo", "Cy", "Di"]);
    const [ann, bo, cy] = agents;
    await store.agents.update(ann!.id, { status: "approved" });
    await store.agents.update(bo!.id, { status: "approved" });

    fake.beforeNext(sortByName);
    await store.agents.update(ann!.id, { passwordHash: "new-hash" });
    fake.beforeNext((sheet) => sheet.insertRow("Agents", 2, ["", "Staff note row"]));
    await store.agents.update(bo!.id, { city: "Tulsa" });
    fake.beforeNext((sheet) => sheet.moveRow("Agents", sheet.rowNumberOf("Agents", bo!.id), 2));
    await store.agents.update(bo!.id, { statusNote: "checked" });
    fake.beforeNext((sheet) => sheet.sortRows("Agents", "city", "ascending"));
    await store.agents.update(cy!.id, { status: "rejected" });

    expect(book.cell("Agents", ann!.id, "passwordHash")).toBe("new-hash");
    expect(book.cell("Agents", bo!.id, "city")).toBe("Tulsa");
    expect(book.cell("Agents", bo!.id, "statusNote")).toBe("checked");
    expect(book.cell("Agents", cy!.id, "status")).toBe("rejected");
    expectEveryRowInPlace(store, book);
  });

  it("rows moved between finding a row and tagging it: the misplaced tag is caught and removed", async () => {
    const { store, book, agents } = await network(["Ann", "Bo", "Cy"]);
    // The first spreadsheets.batchUpdate of the update is the tag; staff sort just before it.
    fake.beforeNext(sortByName, matchers.kind("spreadsheets.batchUpdate"));
    await store.agents.update(agents[0]!.id, { city: "Norman" });
    expect(book.cell("Agents", agents[0]!.id, "city")).toBe("Norman");
    fake.beforeNext((sheet) => sheet.sortRows("Agents", "fullName", "ascending"));
    await store.agents.update(agents[2]!.id, { city: "Edmond" });
    expectEveryRowInPlace(store, book);
    expect(book.cell("Agents", agents[2]!.id, "city")).toBe("Edmond");
  });

  it("a row staff deleted is not brought back by an update: the update is dropped with a log line", async () => {
    const { store, book, agents, lines } = await network(["Ann", "Bo", "Cy"]);
    const [ann, bo] = agents;
    await store.agents.update(bo!.id, { status: "approved" });
    fake.beforeNext((sheet) => sheet.deleteRow("Agents", sheet.rowNumberOf("Agents", bo!.id)));
    await expect(store.agents.update(bo!.id, { city: "Waco" })).rejects.toBeInstanceOf(StoreNotFoundError);
    fake.beforeNext((sheet) => sheet.deleteRow("Agents", sheet.rowNumberOf("Agents", ann!.id)));
    await expect(store.agents.update(ann!.id, { city: "Waco" })).rejects.toBeInstanceOf(StoreNotFoundError);
    expect(book.rows("Agents").slice(1).map((row) => row[1])).toEqual(["Cy"]);
    expect(book.rows("Agents").flat()).not.toContain("Waco");
    expect(lines.filter((line) => /update of Agents row .* dropped/.test(line))).toHaveLength(2);
  });
});

describe("appends where staff left blank rows and notes", () => {
  it("new rows go under the last row with data, never into a gap or above a note", async () => {
    const { store, book, agents } = await network(["Ann", "Bo", "Cy"]);
    // Staff cleared Bo's row by hand (a blank row mid-data) and typed a note two rows below the data.
    const bo = book.rowNumberOf("Agents", agents[1]!.id);
    book.deleteRow("Agents", bo);
    book.insertRow("Agents", bo);
    book.setCell("Agents", `A${book.rows("Agents").length + 2}`, "Note: Bo left the network");
    const before = book.rows("Agents");

    const di = await store.agents.insert(agent("Di", 9));
    const rows = book.rows("Agents");
    expect(rows.slice(0, before.length)).toEqual(before);
    expect(rows).toHaveLength(before.length + 1);
    expect(rows.at(-1)?.[0]).toBe(di.id);
  });
});

describe("values staff type into the spreadsheet", () => {
  function request(expiresAt: string): ReferralRequest {
    return {
      id: newId(),
      requestType: "referral",
      title: "Buyer moving to Austin",
      location: "Austin",
      state: "TX",
      specialty: "",
      priceRange: "",
      clientType: "",
      timeline: "",
      contactPreference: "",
      listingAddress: "",
      listingMLS: "",
      description: "",
      urgent: false,
      agentEmail: "agent0@example.com",
      agentName: "Ann",
      status: "active",
      responses: 0,
      createdAt: "2026-11-01T00:00:00.000Z",
      expiresAt,
    };
  }

  it("keeps leading zeros and a leading + in text columns, as typed", async () => {
    const { store, book, agents } = await network(["Ann"]);
    const id = agents[0]!.id;
    book.typeCell("Agents", { id, header: "licenseNumber" }, "0123456");
    book.typeCell("Agents", { id, header: "phone" }, "+1 512 555 0100");
    book.typeCell("Agents", { id, header: "zipCode" }, "07030");
    await store.refresh();
    expect(store.agents.get(id)).toMatchObject({ licenseNumber: "0123456", phone: "+1 512 555 0100", zipCode: "07030" });
  });

  it("reads dates, numbers and yes/no cells by value, whatever their display format or the sheet's locale", async () => {
    const { store, book } = await network([]);
    const austin = await store.requests.insert(request("2026-12-01T00:00:00.000Z"));
    book.locale = "en_GB";
    book.typeCell("Requests", { id: austin.id, header: "expiresAt" }, "25/12/2026");
    book.typeCell("Requests", { id: austin.id, header: "urgent" }, "TRUE");
    book.typeCell("Requests", { id: austin.id, header: "responses" }, "3");
    const sheet = book.requireSheet("Requests");
    const row = book.rowNumberOf("Requests", austin.id) - 1;
    const responses = book.columnOf("Requests", "responses") - 1;
    book.setNumberFormat({ sheetId: sheet.sheetId, startRowIndex: row, endRowIndex: row + 1, startColumnIndex: responses, endColumnIndex: responses + 1 }, { type: "NUMBER", pattern: "0.00" });
    expect(book.cell("Requests", austin.id, "responses")).toBe("3.00");
    expect(book.cell("Requests", austin.id, "expiresAt")).toBe("25/12/2026");

    await store.refresh();
    expect(store.health().invalidRows).toEqual([]);
    expect(store.requests.get(austin.id)).toMatchObject({ expiresAt: "2026-12-25T00:00:00.000Z", urgent: true, responses: 3 });
  });
});
