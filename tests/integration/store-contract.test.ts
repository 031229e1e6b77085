/**
 * The store's contract, run against both drivers: what the app writes comes back
 * exactly, and what staff do to the rows by hand (sorting, adding columns, typing
 * odd values) never breaks it.
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import Database from "better-sqlite3";
import { afterEach, beforeAll, afterAll, describe, expect, it } from "vitest";
import type { Agent, Message } from "../../app/domain/workbook/tabs";
import { createReplica } from "../../app/server/store/replica.server";
import { createSheetsDriver } from "../../app/server/store/sheets-driver.server";
import { createSqliteDriver } from "../../app/server/store/sqlite-driver.server";
import { newId, StoreNotFoundError, StoreValidationError, type RefreshEvent, type Store } from "../../app/server/store/store.server";
import { HIGH_VOLUME_TAB_NAMES } from "../../app/server/store/postgres/driver.server";
import { startFakeSheets, type FakeSheetsServer } from "../../scripts/lib/fake-sheets/server";
import { usePostgres } from "../support/postgres";
import { postgresDeployment } from "../support/postgres-store";
import { agentRecord } from "../support/records";

/** What staff can do to the workbook by hand, in the spreadsheet or with the sqlite3 shell. */
type Staff = {
  /** Data rows in order, cells by header text, staff columns included. */
  rows(tab: string): Record<string, string>[];
  cell(tab: string, id: string, header: string): string;
  setCell(tab: string, id: string, header: string, value: string): void;
  appendRow(tab: string, cells: Record<string, string>): void;
  sortBy(tab: string, header: string, direction: "ascending" | "descending"): void;
  addColumn(tab: string, header: string): void;
  deleteRow(tab: string, id: string): void;
};

type Backend = {
  /** A store on this backend; each call is another app instance with its own replica. */
  store(): Store;
  staff: Staff;
};

type Harness = { name: "sqlite" | "sheets" | "postgres"; open(): Promise<Backend> };

const quietLog = { info: () => undefined, warn: () => undefined, error: () => undefined };
const fastRetry = { attempts: 5, baseDelayMs: 1, maxDelayMs: 5 };

function sqliteStaff(file: string): Staff {
  const db = new Database(file);
  db.pragma("busy_timeout = 5000");
  const q = (name: string) => `"${name.replaceAll('"', '""')}"`;
  const rows = (tab: string) =>
    (db.prepare(`SELECT * FROM ${q(tab)} ORDER BY rowid`).all() as Record<string, unknown>[]).map((row) =>
      Object.fromEntries(Object.entries(row).map(([key, value]) => [key, value == null ? "" : String(value)])),
    );
  return {
    rows,
    cell: (tab, id, header) => rows(tab).find((row) => row.id === id)?.[header] ?? "",
    setCell: (tab, id, header, value) => void db.prepare(`UPDATE ${q(tab)} SET ${q(header)} = ? WHERE id = ?`).run(value, id),
    appendRow: (tab, cells) => {
      const headers = Object.keys(cells);
      if (headers.length === 0) return void db.prepare(`INSERT INTO ${q(tab)} DEFAULT VALUES`).run();
      db.prepare(`INSERT INTO ${q(tab)} (${headers.map(q).join(", ")}) VALUES (${headers.map(() => "?").join(", ")})`).run(
        ...Object.values(cells),
      );
    },
    // A table has no visible order but its rowids: a "sort" rewrites the rows, so every rowid changes.
    sortBy: (tab, header, direction) => {
      db.transaction(() => {
        const sorted = rows(tab).sort((a, b) => (a[header] ?? "").localeCompare(b[header] ?? "") * (direction === "ascending" ? 1 : -1));
        db.prepare(`DELETE FROM ${q(tab)}`).run();
        for (const row of sorted) {
          const headers = Object.keys(row);
          db.prepare(`INSERT INTO ${q(tab)} (${headers.map(q).join(", ")}) VALUES (${headers.map(() => "?").join(", ")})`).run(
            ...Object.values(row),
          );
        }
      })();
    },
    addColumn: (tab, header) => void db.exec(`ALTER TABLE ${q(tab)} ADD COLUMN ${q(header)} TEXT`),
    deleteRow: (tab, id) => void db.prepare(`DELETE FROM ${q(tab)} WHERE id = ?`).run(id),
  };
}

/**
 * With a database, staff keep the sheet or file for the staff tabs; the high-volume tables
 * they reach with a database client (psql here). Those rows are read in insertion order.
 */
function postgresStaff(url: string, file: string): Staff {
  const staffTabs = sqliteStaff(file);
  const psql = (sql: string, ...values: string[]) =>
    execFileSync("psql", [url, "-X", "-q", "-At", "-v", "ON_ERROR_STOP=1", ...values.flatMap((value, i) => ["-v", `v${i}=${value}`])], {
      input: sql,
      encoding: "utf8",
    });
  const q = (name: string) => `"${name.replaceAll('"', '""')}"`;
  const rows = (tab: string): Record<string, string>[] =>
    JSON.parse(psql(`SELECT coalesce(json_agg(row_to_json(t) ORDER BY "rowNumber"), '[]') FROM ${q(tab)} t`) || "[]").map(
      ({ rowNumber: _rowNumber, ...cells }: Record<string, string>) => cells,
    );
  const inDatabase = (tab: string) => HIGH_VOLUME_TAB_NAMES.has(tab);
  const unsupported = (what: string) => () => {
    throw new Error(`Staff do not ${what} the high-volume tables`);
  };
  return {
    rows: (tab) => (inDatabase(tab) ? rows(tab) : staffTabs.rows(tab)),
    cell: (tab, id, header) =>
      inDatabase(tab) ? (rows(tab).find((row) => row.id === id)?.[header] ?? "") : staffTabs.cell(tab, id, header),
    setCell: (tab, id, header, value) =>
      inDatabase(tab)
        ? void psql(`UPDATE ${q(tab)} SET ${q(header)} = :'v0' WHERE "id" = :'v1'`, value, id)
        : staffTabs.setCell(tab, id, header, value),
    appendRow: (tab, cells) => (inDatabase(tab) ? unsupported("append to")() : staffTabs.appendRow(tab, cells)),
    sortBy: (tab, header, direction) => (inDatabase(tab) ? unsupported("sort")() : staffTabs.sortBy(tab, header, direction)),
    addColumn: (tab, header) => (inDatabase(tab) ? unsupported("add columns to")() : staffTabs.addColumn(tab, header)),
    deleteRow: (tab, id) => (inDatabase(tab) ? void psql(`DELETE FROM ${q(tab)} WHERE "id" = :'v0'`, id) : staffTabs.deleteRow(tab, id)),
  };
}

function sheetsStaff(fake: FakeSheetsServer, spreadsheetId: string): Staff {
  const book = () => fake.spreadsheet(spreadsheetId);
  const rows = (tab: string) => {
    const [headers = [], ...data] = book().rows(tab);
    return data.map((row) => Object.fromEntries(headers.map((header, i) => [header, row[i] ?? ""])));
  };
  return {
    rows,
    cell: (tab, id, header) => book().cell(tab, id, header),
    setCell: (tab, id, header, value) => book().setCell(tab, { id, header }, value),
    appendRow: (tab, cells) => {
      const headers = book().headers(tab);
      book().insertRow(
        tab,
        book().rows(tab).length + 1,
        headers.map((header) => cells[header] ?? ""),
      );
    },
    sortBy: (tab, header, direction) => book().sortRows(tab, header, direction),
    // In the middle of the sheet, where a person would put a notes column next to the names.
    addColumn: (tab, header) => book().insertColumn(tab, 3, header),
    deleteRow: (tab, id) => book().deleteRow(tab, book().rowNumberOf(tab, id)),
  };
}

let fake: FakeSheetsServer;
const opened: Store[] = [];
const deployments: ReturnType<typeof postgresDeployment>[] = [];
const postgres = usePostgres();

beforeAll(async () => {
  fake = await startFakeSheets();
});
afterEach(async () => {
  await Promise.all([...opened.splice(0).map((store) => store.stop()), ...deployments.splice(0).map((deployment) => deployment.stopAll())]);
});
afterAll(async () => {
  await fake.close();
});

function track(store: Store): Store {
  opened.push(store);
  return store;
}

const harnesses: Harness[] = [
  {
    name: "sqlite",
    async open() {
      const file = path.join(mkdtempSync(path.join(tmpdir(), "store-contract-")), "store.sqlite");
      return {
        store: () => track(createReplica(createSqliteDriver(file), { refreshSeconds: 0.05, log: quietLog })),
        staff: sqliteStaff(file),
      };
    },
  },
  {
    name: "sheets",
    async open() {
      const spreadsheetId = `contract-${newId()}`;
      fake.spreadsheet(spreadsheetId);
      return {
        store: () =>
          track(
            createReplica(createSheetsDriver({ spreadsheetId, credentials: { kind: "fixedToken" }, apiUrl: fake.url, retry: fastRetry }), {
              refreshSeconds: 0.05,
              log: quietLog,
            }),
          ),
        staff: sheetsStaff(fake, spreadsheetId),
      };
    },
  },
  {
    name: "postgres",
    async open() {
      const url = await postgres.server().createDatabase();
      const deployment = postgresDeployment(url);
      deployments.push(deployment);
      return { store: () => deployment.instance(), staff: postgresStaff(url, deployment.file) };
    },
  },
];

/** Every field set and off the factory's defaults, so a column the store drops shows. */
function agent(overrides: Partial<Agent> = {}): Agent {
  return agentRecord({
    id: newId(),
    email: "dana@example.com",
    licenseNumber: "0123456",
    licenseExpiration: "2027-01-31",
    brokerage: "Red River Realty",
    brokerEmail: "broker@example.com",
    specialties: ["Residential", "Luxury"],
    bio: "Twenty years in North Texas.",
    membershipType: "founder",
    status: "pending",
    passwordHash: "$2b$10$abcdefghijklmnopqrstuuJ0v7Y8Nq0Oq5vXh0dQ6t5XJ7yZr1Z2",
    createdAt: "2025-03-01T15:04:05.000Z",
    updatedAt: "2025-03-01T15:04:05.000Z",
    ...overrides,
  });
}

function message(overrides: Partial<Message> = {}): Message {
  return {
    id: newId(),
    conversationId: "conversation-1",
    fromEmail: "dana@example.com",
    toEmail: "lee@example.com",
    text: "Hello from Dallas",
    createdAt: new Date().toISOString(),
    ...overrides,
  };
}

describe.each(harnesses)("store contract on $name", (harness) => {
  it("gives back every record exactly as written, to this instance at once and to another after a refresh", async () => {
    const backend = await harness.open();
    const store = backend.store();
    await store.refresh();
    const written = {
      agent: await store.agents.insert(agent()),
      request: await store.requests.insert({
        id: newId(),
        requestType: "listing",
        title: "Ranch near Ardmore",
        location: "Ardmore",
        state: "OK",
        specialty: "Farm and Ranch",
        priceRange: "$400k - $600k",
        clientType: "seller",
        timeline: "1month",
        contactPreference: "email",
        listingAddress: "12 County Road",
        listingMLS: "MLS-0042",
        description: "Forty acres.",
        urgent: true,
        agentEmail: "dana@example.com",
        agentName: "Dana Reyes",
        status: "active",
        responses: 2,
        createdAt: "2025-03-02T00:00:00.000Z",
        updatedAt: "2025-03-02T00:00:00.000Z",
        expiresAt: "2025-04-01T00:00:00.000Z",
      }),
      response: await store.responses.insert({
        id: newId(),
        requestId: "request-1",
        fromEmail: "lee@example.com",
        fromName: "Lee Park",
        toEmail: "dana@example.com",
        message: "I have a buyer.",
        createdAt: "2025-03-03T00:00:00.000Z",
      }),
      message: await store.messages.insert(message()),
      contact: await store.contact.insert({
        id: newId(),
        name: "Sam",
        email: "sam@example.com",
        subject: "Question",
        category: "general",
        message: "How do I join?",
        agentLicense: "Not provided",
        state: "Not provided",
        createdAt: "2025-03-04T00:00:00.000Z",
      }),
    };
    expect(store.agents.get(written.agent.id)).toEqual(written.agent);

    const other = backend.store();
    await other.refresh();
    expect(other.agents.all()).toEqual([written.agent]);
    expect(other.requests.all()).toEqual([written.request]);
    expect(other.responses.all()).toEqual([written.response]);
    expect(other.messages.all()).toEqual([written.message]);
    expect(other.contact.all()).toEqual([written.contact]);
    expect(other.requests.get(written.request.id)?.urgent).toBe(true);
    expect(other.requests.get(written.request.id)?.responses).toBe(2);

    const updated = await store.agents.update(written.agent.id, { status: "approved", city: "Plano" });
    expect(store.agents.get(written.agent.id)).toEqual(updated);
    await other.refresh();
    expect(other.agents.get(written.agent.id)).toMatchObject({ status: "approved", city: "Plano", fullName: "Dana Reyes" });
  });

  it("finds records through their indexes, ignoring case", async () => {
    const store = (await harness.open()).store();
    await store.refresh();
    const dana = await store.agents.insert(agent({ email: "Dana.Reyes@Example.com" }));
    await store.agents.insert(agent({ email: "lee@example.com", specialties: ["Land"] }));
    expect(store.agents.by("email", "dana.reyes@EXAMPLE.com")).toEqual([dana]);
    expect(store.agents.by("specialty", "luxury")).toEqual([dana]);
    expect(store.agents.by("email", "nobody@example.com")).toEqual([]);
  });

  it("merges the ConversationMembers row two instances added at once, keeping the furthest read and latest mail", async () => {
    const backend = await harness.open();
    const first = backend.store();
    const second = backend.store();
    await Promise.all([first.refresh(), second.refresh()]);
    const id = "conversation-1/dana@example.com";
    const row = { id, conversationId: "conversation-1", agentEmail: "dana@example.com" };
    await Promise.all([
      first.conversationMembers.insert({ ...row, lastReadAt: "2026-11-23T10:00:00.000Z" }),
      second.conversationMembers.insert({ ...row, lastReadAt: "2026-11-23T09:00:00.000Z", lastNotifiedAt: "2026-11-23T09:30:00.000Z" }),
    ]);
    // In the database the id is the key: the two rows meet at insert, merged by the same rule.
    expect(backend.staff.rows("ConversationMembers")).toHaveLength(harness.name === "postgres" ? 1 : 2);
    const reader = backend.store();
    await reader.refresh();
    expect(reader.conversationMembers.all()).toEqual([
      { ...row, lastReadAt: "2026-11-23T10:00:00.000Z", lastNotifiedAt: "2026-11-23T09:30:00.000Z" },
    ]);
    expect(reader.health().invalidRows).toEqual([]);
  });

  it("stores concurrent appends from two app instances, each once", async () => {
    const backend = await harness.open();
    const first = backend.store();
    const second = backend.store();
    await Promise.all([first.refresh(), second.refresh()]);
    const sent = Array.from({ length: 40 }, (_, i) => message({ text: `message ${i}` }));
    await Promise.all(sent.map((record, i) => (i % 2 === 0 ? first : second).messages.insert(record)));
    const reader = backend.store();
    await reader.refresh();
    expect(
      reader.messages
        .all()
        .map((m) => m.text)
        .sort(),
    ).toEqual(sent.map((m) => m.text).sort());
    expect(backend.staff.rows("Messages")).toHaveLength(40);
    await first.refresh();
    expect(first.messages.all()).toHaveLength(40);
  });

  it("updates the right row after staff sorted the rows", async () => {
    const backend = await harness.open();
    const store = backend.store();
    await store.refresh();
    const names = ["Avery", "Blake", "Casey", "Drew"];
    const agents = [];
    for (const fullName of names)
      agents.push(await store.agents.insert(agent({ fullName, email: `${fullName.toLowerCase()}@example.com` })));
    backend.staff.sortBy("Agents", "fullName", "descending");
    const blake = agents[1]!;
    await store.agents.update(blake.id, { status: "approved", statusNote: "License checked" });
    const rows = backend.staff.rows("Agents");
    expect(rows.map((row) => row.fullName)).toEqual(["Drew", "Casey", "Blake", "Avery"]);
    expect(rows.find((row) => row.id === blake.id)).toMatchObject({ fullName: "Blake", status: "approved", statusNote: "License checked" });
    expect(rows.filter((row) => row.status === "approved")).toHaveLength(1);
  });

  it("keeps a column staff added, on updates and on new rows", async () => {
    const backend = await harness.open();
    const store = backend.store();
    await store.refresh();
    const dana = await store.agents.insert(agent());
    backend.staff.addColumn("Agents", "Staff notes");
    backend.staff.setCell("Agents", dana.id, "Staff notes", "Called 3/4, license OK");
    await store.refresh();
    await store.agents.update(dana.id, { status: "approved" });
    const lee = await store.agents.insert(agent({ fullName: "Lee", email: "lee@example.com" }));
    expect(backend.staff.cell("Agents", dana.id, "Staff notes")).toBe("Called 3/4, license OK");
    expect(backend.staff.cell("Agents", dana.id, "status")).toBe("approved");
    expect(backend.staff.cell("Agents", lee.id, "Staff notes")).toBe("");
    expect(backend.staff.cell("Agents", lee.id, "email")).toBe("lee@example.com");
    const reader = backend.store();
    await reader.refresh();
    expect(reader.agents.get(dana.id)).toEqual({ ...dana, status: "approved" });
    expect(reader.health().invalidRows).toEqual([]);
  });

  it("keeps formulas, phone numbers, leading zeros, long text and emoji as typed", async () => {
    const backend = await harness.open();
    const store = backend.store();
    await store.refresh();
    const longText = "Fifty thousand characters. ".repeat(1852).slice(0, 49_989) + "🏡 Zoë 👍🏽";
    expect(longText.length).toBe(50_000);
    const tricky = await store.agents.insert(
      agent({ fullName: '=HYPERLINK("x")', phone: "+1 555", zipCode: "0123", licenseNumber: "-42", bio: longText, brokerage: "@home 🤠" }),
    );
    const note = await store.messages.insert(message({ text: '=HYPERLINK("x")' }));
    const staffView = backend.staff.rows("Agents")[0];
    expect(staffView).toMatchObject({
      fullName: '=HYPERLINK("x")',
      phone: "+1 555",
      zipCode: "0123",
      licenseNumber: "-42",
      brokerage: "@home 🤠",
    });
    expect(staffView?.bio).toBe(longText);
    const reader = backend.store();
    await reader.refresh();
    expect(reader.agents.get(tricky.id)).toEqual(tricky);
    expect(reader.agents.get(tricky.id)?.bio).toBe(longText);
    expect(reader.messages.get(note.id)?.text).toBe('=HYPERLINK("x")');
  });

  it("skips rows that do not read, lists them, and reads the rest tolerantly", async () => {
    const backend = await harness.open();
    const store = backend.store();
    await store.refresh();
    const good = await store.agents.insert(agent());
    const { id: _omit, ...cells } = Object.fromEntries(
      Object.entries(agent()).map(([key, value]) => [key, Array.isArray(value) ? value.join(", ") : String(value ?? "")]),
    );
    backend.staff.appendRow("Agents", {
      ...cells,
      id: "staff-typed",
      status: "Approved ",
      email: " Kim@Example.com ",
      specialties: "luxury,  land",
    });
    backend.staff.appendRow("Agents", { ...cells, id: "bad-status", status: "maybe" });
    backend.staff.appendRow("Agents", {});
    backend.staff.appendRow("Agents", { ...cells, id: "", fullName: "No Id" });
    backend.staff.appendRow("Agents", { ...cells, id: good.id, fullName: "Copy of Dana" });
    backend.staff.appendRow("Agents", { ...cells, id: "bad-date", createdAt: "last Tuesday" });
    await store.refresh();

    expect(store.agents.get("staff-typed")).toMatchObject({
      status: "approved",
      email: "kim@example.com",
      specialties: ["Luxury", "Land"],
    });
    expect(store.agents.get(good.id)?.fullName).toBe("Dana Reyes");
    expect(store.agents.get("bad-status")).toBeUndefined();
    const reasons = store.health().invalidRows.map(({ tab, reason }) => ({ tab, reason }));
    expect(reasons).toEqual([
      { tab: "Agents", reason: "status must be one of pending, approved, rejected, suspended" },
      { tab: "Agents", reason: "id is empty" },
      { tab: "Agents", reason: expect.stringMatching(/^duplicate id .* \(also on row \d+\)$/) },
      { tab: "Agents", reason: "createdAt is not a date and time" },
    ]);
    const rowNumbers = store.health().invalidRows.map((row) => row.row);
    expect(new Set(rowNumbers).size).toBe(4);
  });

  it("brings staff edits into the replica and gives a job watching the column its old and new values", async () => {
    const backend = await harness.open();
    const store = backend.store();
    await store.refresh();
    const dana = await store.agents.insert(agent({ status: "pending" }));
    const events: RefreshEvent[] = [];
    const job = store.addJob({ name: "watcher", watches: { agents: ["status"] }, run: async (event) => void events.push(event) });
    backend.staff.setCell("Agents", dana.id, "status", "APPROVED");
    await store.refresh();
    expect(store.agents.get(dana.id)?.status).toBe("approved");
    await expect.poll(() => events).toHaveLength(1);
    const [event] = events;
    // Only the watched column's values travel; the rest is read from the replica.
    expect(event!.agents).toEqual({
      added: [],
      changed: [{ id: dana.id, before: { status: "pending" }, after: { status: "approved" } }],
      removed: [],
    });
    const otherTabs = Object.entries(event!).filter(([name]) => name !== "agents");
    expect(otherTabs.every(([, changes]) => changes.added.length + changes.changed.length + changes.removed.length === 0)).toBe(true);
    await job.stop();
  });

  it("reads new rows of append-only tabs, and notices rows staff deleted from them", async () => {
    const backend = await harness.open();
    const store = backend.store();
    const other = backend.store();
    await Promise.all([store.refresh(), other.refresh()]);
    const first = await store.messages.insert(message({ text: "one" }));
    const second = await store.messages.insert(message({ text: "two" }));
    await other.refresh();
    const third = await store.messages.insert(message({ text: "three" }));
    await other.refresh();
    expect(other.messages.by("conversationId", "conversation-1").map((m) => m.text)).toEqual(["one", "two", "three"]);
    backend.staff.deleteRow("Messages", second.id);
    await store.messages.insert(message({ text: "four" }));
    await other.refresh();
    expect(other.messages.all().map((m) => m.text)).toEqual(["one", "three", "four"]);
    expect(other.messages.get(first.id)).toBeDefined();
    expect(other.messages.get(third.id)).toBeDefined();
  });

  it("deletes rows of an append-only tab by id, and reads the rows stored after a mark, the whole tab once rows above it went", async () => {
    const backend = await harness.open();
    const store = backend.store();
    const other = backend.store();
    await Promise.all([store.refresh(), other.refresh()]);
    const [one, two, three] = await Promise.all(["one", "two", "three"].map((text) => store.messages.insert(message({ text }))));
    await other.refresh();
    const mark = other.messages.readMark();
    const four = await store.messages.insert(message({ text: "four" }));
    const after = await other.messages.readStoredAfter(mark);
    expect([after.rows.map((m) => m.text), after.whole]).toEqual([["four"], false]);
    // Read on from where that read ended: nothing new yet.
    expect((await other.messages.readStoredAfter(after.end)).rows).toEqual([]);

    expect(await store.messages.removeStored([one!.id, three!.id, "no-such-id"])).toBe(2);
    expect(store.messages.get(one!.id)).toBeUndefined();
    expect(store.messages.all().map((m) => m.text)).toEqual(["two", "four"]);
    // The other instance read before the deletion: its mark no longer fits, so it gets the tab whole.
    const again = await other.messages.readStoredAfter(after.end);
    expect([again.rows.map((m) => m.text), again.whole]).toEqual([["two", "four"], true]);
    await other.refresh();
    expect(other.messages.all().map((m) => m.text)).toEqual(["two", "four"]);
    expect(other.messages.get(four.id)).toBeDefined();
    expect(await store.messages.removeStored([one!.id])).toBe(0);
    await expect(store.agents.removeStored([two!.id])).rejects.toThrow(/append-only/);
  });

  it("refuses records that would not read back, and updates of rows that are gone", async () => {
    const backend = await harness.open();
    const store = backend.store();
    await store.refresh();
    await expect(store.agents.insert(agent({ id: "" }))).rejects.toBeInstanceOf(StoreValidationError);
    const dana = await store.agents.insert(agent());
    await expect(store.agents.insert(agent({ id: dana.id }))).rejects.toThrow(/already exists/);
    await expect(store.agents.update("no-such-id", { city: "Tulsa" })).rejects.toBeInstanceOf(StoreNotFoundError);
    backend.staff.deleteRow("Agents", dana.id);
    await expect(store.agents.update(dana.id, { city: "Tulsa" })).rejects.toBeInstanceOf(StoreNotFoundError);
    expect(backend.staff.rows("Agents")).toEqual([]);
  });
});

describe("a tab read by query, with the high-volume tabs in PostgreSQL", () => {
  it("adds rows, once per id however often sent, holds none of them, and refuses to be read from the replica", async () => {
    const url = await postgres.server().createDatabase();
    const deployment = postgresDeployment(url, { queried: new Set(["messages"]) });
    deployments.push(deployment);
    const staff = postgresStaff(url, deployment.file);
    const store = deployment.instance();
    await store.refresh();
    const first = message({ text: '=HYPERLINK("x")' });
    expect(await store.messages.insert(first)).toEqual(first);
    expect(await store.messages.insertOnce(first, { lookInStore: true })).toEqual(first);
    await store.messages.insert(message({ text: "two" }));
    await expect(store.messages.insert(message({ id: "" }))).rejects.toBeInstanceOf(StoreValidationError);
    expect(staff.rows("Messages").map((row) => row.text)).toEqual(['=HYPERLINK("x")', "two"]);

    await store.refresh();
    expect(() => store.messages.all()).toThrow(/read by query/);
    expect(() => store.messages.get(first.id)).toThrow(/read by query/);
    expect(() => store.messages.by("conversationId", "conversation-1")).toThrow(/read by query/);
    // The tabs it holds are read as before.
    const lee = await store.agents.insert(agent({ email: "lee@example.com" }));
    const other = deployment.instance();
    await other.refresh();
    expect(other.agents.get(lee.id)).toEqual(lee);
  });
});
