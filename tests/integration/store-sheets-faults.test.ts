/** The Sheets driver when Google misbehaves: quota answers, server errors, slowness, lost connections, outages. */
import { describe, expect, it } from "vitest";
import { AGENTS_TAB, WORKBOOK } from "../../app/domain/workbook/tabs";
import { httpStatusOf, type RetryPolicy } from "../../app/server/store/retry.server";
import { createReplica } from "../../app/server/store/replica.server";
import { createSheetsDriver } from "../../app/server/store/sheets-driver.server";
import { newId, StoreWriteError } from "../../app/server/store/store.server";
import { matchers, type FakeSheetsServer } from "../../scripts/lib/fake-sheets/server";
import { useFakeSheets } from "../support/fake-sheets";
import { agentRecord } from "../support/records";

const quietLog = { info: () => undefined, warn: () => undefined, error: () => undefined };
const fastRetry: RetryPolicy = { attempts: 6, baseDelayMs: 1, maxDelayMs: 8 };

const { fake, opened } = useFakeSheets();

async function loadedStore(
  options: { timeoutMs?: number; retry?: RetryPolicy; writeDeadlineMs?: number; writeCallsPerMinute?: number } = {},
) {
  const spreadsheetId = `faults-${newId()}`;
  const book = fake.spreadsheet(spreadsheetId);
  const open = () => {
    const store = createReplica(
      createSheetsDriver({
        spreadsheetId,
        credentials: { kind: "fixedToken" },
        apiUrl: fake.url,
        retry: options.retry ?? fastRetry,
        timeoutMs: options.timeoutMs,
        writeDeadlineMs: options.writeDeadlineMs,
        writeCallsPerMinute: options.writeCallsPerMinute,
      }),
      { refreshSeconds: 0.05, log: quietLog },
    );
    opened.push(store);
    return store;
  };
  const store = open();
  await store.refresh();
  return { store, open, book, callsSince: callCounter() };
}

/** Counts the calls the fake receives from now on, by kind. */
function callCounter() {
  const start = fake.calls.length;
  return (kind?: string) => fake.calls.slice(start).filter((call) => kind === undefined || call.kind === kind).length;
}

const dataRows = (book: ReturnType<FakeSheetsServer["spreadsheet"]>, tab: string) => book.rows(tab).slice(1);

describe("Sheets driver under faults", () => {
  it("rides out a storm of 429 quota answers on reads", async () => {
    const { store, callsSince } = await loadedStore();
    fake.failNext(4, 429);
    await store.refresh();
    expect(callsSince("values.batchGet")).toBe(5);
    expect(store.health().lastError).toBeNull();
  });

  it("retries POST writes on 429 and 500, storing the row once", async () => {
    const { store, book, callsSince } = await loadedStore();
    fake.failNext(2, 429, matchers.kind("spreadsheets.batchUpdate"));
    fake.failNext(2, 500, matchers.kind("spreadsheets.batchUpdate"));
    const dana = await store.agents.insert(agentRecord({ status: "pending" }));
    expect(callsSince("spreadsheets.batchUpdate")).toBe(5);
    expect(dataRows(book, "Agents").map((row) => row[0])).toEqual([dana.id]);

    fake.failNext(3, 500, matchers.kind("values.batchUpdateByDataFilter"));
    await store.agents.update(dana.id, { status: "approved" });
    expect(book.cell("Agents", dana.id, "status")).toBe("approved");
  });

  it("does not append a row twice when the connection dropped after the sheet stored it", async () => {
    const { store, book } = await loadedStore();
    fake.dropNext(1, "after", matchers.kind("spreadsheets.batchUpdate"));
    const dana = await store.agents.insert(agentRecord());
    expect(dataRows(book, "Agents").map((row) => row[0])).toEqual([dana.id]);
    expect(store.agents.get(dana.id)).toEqual(dana);
  });

  it("does not append a row twice when the id check after a dropped connection was answered 429", async () => {
    const { store, book, callsSince } = await loadedStore();
    fake.dropNext(1, "after", matchers.kind("spreadsheets.batchUpdate"));
    fake.failNext(1, 429, matchers.kind("values.batchGet"));
    const dana = await store.agents.insert(agentRecord());
    expect(dataRows(book, "Agents").map((row) => row[0])).toEqual([dana.id]);
    // The 429 answered the check, not the append: the next try checks again.
    expect(callsSince("values.batchGet")).toBe(2);
  });

  it("retries dropped connections and requests that time out", async () => {
    const { store, callsSince } = await loadedStore({ timeoutMs: 100 });
    fake.dropNext(2, "before");
    await store.refresh();
    expect(callsSince("values.batchGet")).toBe(3);

    fake.setLatency(400);
    setTimeout(() => fake.setLatency(0), 250);
    await store.refresh();
    expect(store.health().lastError).toBeNull();
  });

  it("answers a write within its deadline when the API stalls, saving nothing in the replica", async () => {
    const { store } = await loadedStore({ writeDeadlineMs: 300, retry: { attempts: 6, baseDelayMs: 50, maxDelayMs: 200 } });
    const dana = await store.agents.insert(agentRecord({ city: "Dallas" }));
    fake.setLatency(3000);
    const started = Date.now();
    const lee = agentRecord({ fullName: "Lee Park" });
    await expect(store.agents.insert(lee)).rejects.toThrow(/Could not save to the Agents tab: Google Sheets did not answer within 0.3 s/);
    await expect(store.agents.update(dana.id, { city: "Austin" })).rejects.toBeInstanceOf(StoreWriteError);
    expect(Date.now() - started).toBeLessThan(1500);
    expect(store.agents.get(lee.id)).toBeUndefined();
    expect(store.agents.get(dana.id)?.city).toBe("Dallas");
  });

  it("serves the last good copy through an outage, says how stale it is, and catches up after", async () => {
    const { store, book } = await loadedStore();
    const dana = await store.agents.insert(agentRecord({ status: "pending" }));
    fake.setOutage("error");
    book.setCell("Agents", { id: dana.id, header: "status" }, "approved");
    await expect(store.refresh()).rejects.toThrow();
    expect(store.agents.get(dana.id)?.status).toBe("pending");
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(store.health()).toMatchObject({ stale: true, lastError: expect.stringMatching(/unavailable/i) });

    fake.setOutage("off");
    await store.refresh();
    expect(store.agents.get(dana.id)?.status).toBe("approved");
    expect(store.health()).toMatchObject({ stale: false, lastError: null });
  });

  it("reports a write that finally fails as failed, and keeps nothing of it", async () => {
    const { store, book, open } = await loadedStore();
    const dana = await store.agents.insert(agentRecord({ status: "pending" }));
    fake.setOutage("drop");
    const lee = agentRecord({ fullName: "Lee Park" });
    await expect(store.agents.insert(lee)).rejects.toBeInstanceOf(StoreWriteError);
    await expect(store.agents.update(dana.id, { status: "rejected" })).rejects.toBeInstanceOf(StoreWriteError);
    expect(store.agents.get(lee.id)).toBeUndefined();
    expect(store.agents.get(dana.id)?.status).toBe("pending");

    fake.setOutage("off");
    expect(dataRows(book, "Agents").map((row) => row[0])).toEqual([dana.id]);
    const reader = open();
    await reader.refresh();
    expect(reader.agents.all()).toEqual([dana]);
  });

  it("writes nothing to a tab whose required header staff deleted, once a refresh has seen it", async () => {
    const { store, book, callsSince } = await loadedStore();
    const dana = await store.agents.insert(agentRecord({ status: "pending" }));
    book.setCell("Agents", `${String.fromCharCode(64 + book.columnOf("Agents", "status"))}1`, "");
    await store.refresh();
    await expect(store.agents.update(dana.id, { status: "approved" })).rejects.toThrow(
      /Agents tab cannot be read: row 1 has no "status" column/,
    );
    expect(callsSince("values.batchUpdateByDataFilter")).toBe(0);
  });

  it("sends appends to one tab that arrive together as one call, each row once", async () => {
    const { store, book, callsSince } = await loadedStore();
    const sent = Array.from({ length: 12 }, (_, i) => agentRecord({ fullName: `Agent ${i}` }));
    await Promise.all(sent.map((record) => store.agents.insert(record)));
    expect(callsSince("spreadsheets.batchUpdate")).toBeLessThanOrEqual(2);
    expect(callsSince("values.batchGet")).toBe(0);
    expect(
      dataRows(book, "Agents")
        .map((row) => row[0])
        .sort(),
    ).toEqual(sent.map((record) => record.id).sort());
  });

  it("paces appends to a tab: rows arriving between two calls go together in the next, and a 429 is retried without a read", async () => {
    const { store, book, callsSince } = await loadedStore({ writeCallsPerMinute: 300 });
    const sent: Promise<unknown>[] = [];
    for (let i = 0; i < 12; i += 1) {
      sent.push(store.agents.insert(agentRecord({ fullName: `Agent ${i}` })));
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
    await Promise.all(sent);
    expect(callsSince("spreadsheets.batchUpdate")).toBeLessThanOrEqual(3);
    expect(dataRows(book, "Agents")).toHaveLength(12);

    fake.failNext(2, 429, matchers.kind("spreadsheets.batchUpdate"));
    const reads = callsSince("values.batchGet");
    await store.agents.insert(agentRecord());
    expect(callsSince("values.batchGet")).toBe(reads);
    expect(dataRows(book, "Agents")).toHaveLength(13);
  });

  it("two instances behind Google's per-user quota: a burst of messages is all stored, each once (short bench:sheets)", async () => {
    const { book } = await loadedStore();
    const instance = () => {
      const store = createReplica(
        createSheetsDriver({
          spreadsheetId: book.spreadsheetId,
          credentials: { kind: "fixedToken" },
          apiUrl: fake.url,
          retry: fastRetry,
          writeCallsPerMinute: 240,
        }),
        { refreshSeconds: 60, log: quietLog },
      );
      opened.push(store);
      return store;
    };
    const stores = [instance(), instance()];
    for (const store of stores) await store.refresh();
    // The quota of a minute, in a second: 10 reads and 10 writes.
    fake.setQuota({ readsPerWindow: 10, writesPerWindow: 10, windowMs: 1000 });
    const sent = Array.from({ length: 40 }, (_, i) => ({
      id: newId(),
      conversationId: `conversation-${i % 4}`,
      fromEmail: "dana@example.com",
      toEmail: "lee@example.com",
      text: `message ${i}`,
      createdAt: "2026-11-23T00:00:00.000Z",
    }));
    const results = [];
    for (const [i, message] of sent.entries()) {
      results.push(
        stores[i % 2]!.messages.insert(message).then(
          () => "sent",
          () => "failed",
        ),
      );
      await new Promise((resolve) => setTimeout(resolve, 40));
    }
    expect(await Promise.all(results)).toEqual(sent.map(() => "sent"));
    fake.setQuota(undefined);
    expect(
      dataRows(book, "Messages")
        .map((row) => row[0])
        .sort(),
    ).toEqual(sent.map((message) => message.id).sort());
  });

  it("finds a spreadsheet shared as Viewer at start-up, with the fix, before any member writes", async () => {
    const { book } = await loadedStore();
    fake.share(book.spreadsheetId, "reader");
    const store = createReplica(
      createSheetsDriver({ spreadsheetId: book.spreadsheetId, credentials: { kind: "fixedToken" }, apiUrl: fake.url, retry: fastRetry }),
      {
        refreshSeconds: 1,
        log: quietLog,
      },
    );
    opened.push(store);
    const failure = await store.refresh().then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(String(failure)).toMatch(/shared with the service account as Viewer\. Share it as Editor/);
    expect(httpStatusOf(failure)).toBe(403);
    fake.share(book.spreadsheetId, "writer");
  });

  it("creates missing tabs and optional headers at start-up, after the columns staff added", async () => {
    const spreadsheetId = `faults-${newId()}`;
    const book = fake.spreadsheet(spreadsheetId);
    book.addSheet("Agents");
    book.write("'Agents'!A1", [["id", "Staff notes", "fullName", "email", "status", "membershipType", "createdAt"]], "RAW");
    const store = createReplica(
      createSheetsDriver({ spreadsheetId, credentials: { kind: "fixedToken" }, apiUrl: fake.url, retry: fastRetry }),
      {
        refreshSeconds: 1,
        log: quietLog,
      },
    );
    opened.push(store);
    await store.refresh();
    expect(book.sheets.map((sheet) => sheet.title)).toEqual(Object.values(WORKBOOK).map((tab) => tab.name));
    expect(book.headers("Agents").slice(0, 8)).toEqual([
      "id",
      "Staff notes",
      "fullName",
      "email",
      "status",
      "membershipType",
      "createdAt",
      "phone",
    ]);
    // Every column the app owns, plus the one staff added.
    const columns = Object.keys(AGENTS_TAB.columns).length + 1;
    expect(book.headers("Agents")).toHaveLength(columns);
    expect(book.requireSheet("Agents").columnCount).toBeGreaterThanOrEqual(columns);
    // New tabs are exactly as wide as their headers, not Google's default 26 columns.
    expect(book.requireSheet("Requests").columnCount).toBe(book.headers("Requests").length);
    expect(book.requireSheet("Messages").columnCount).toBe(7);
  });
});
