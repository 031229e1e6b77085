/**
 * Staff edit the spreadsheet while the app runs: the scenarios below make each edit at
 * the worst moment, between the app's read and its write, on the fake Sheets server in
 * its Google-faithful mode, and check that every record stays where it belongs.
 */
import { mkdtemp, readdir, stat } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { LOGIN_MESSAGES } from "../../app/domain/auth";
import { checkLogin } from "../../app/server/accounts/login.server";
import { hashPassword } from "../../app/server/auth/password.server";
import { createLastGoodCopies, lastGoodDirectory } from "../../app/server/store/last-good.server";
import type { Agent, ReferralRequest } from "../../app/domain/workbook/tabs";
import { createReplica } from "../../app/server/store/replica.server";
import { createSheetsDriver } from "../../app/server/store/sheets-driver.server";
import { newId, StoreNotFoundError, type Store } from "../../app/server/store/store.server";
import { healthStatus } from "../../app/server/health.server";
import { watchAgentDecisions } from "../../app/server/jobs/decision-mails.server";
import { createSendClaims } from "../../app/server/send-claims.server";
import type { Mail } from "../../app/server/mail/mailer.server";
import { StoreWriteError } from "../../app/server/store/store.server";
import { matchers } from "../../scripts/lib/fake-sheets/server";
import { useFakeSheets } from "../support/fake-sheets";
import type { FakeSpreadsheet } from "../../scripts/lib/fake-sheets/spreadsheet";
import { agentRecord } from "../support/records";
import { collectingNotifier, testConfig } from "../support/services";

const fastRetry = { attempts: 4, baseDelayMs: 1, maxDelayMs: 5 };
const CONFIG = testConfig();

const { fake, opened } = useFakeSheets();

function recordingLog() {
  const lines: string[] = [];
  const keep = (...parts: unknown[]) => void lines.push(parts.map(String).join(" "));
  return { lines, log: { info: keep, warn: keep, error: keep } };
}

async function network(names: readonly string[]) {
  const spreadsheetId = `staff-${newId()}`;
  const book = fake.spreadsheet(spreadsheetId);
  const { lines, log } = recordingLog();
  /** The instance's own data folder, kept over its restarts. */
  const lastGoodDir = lastGoodDirectory(await mkdtemp(path.join(tmpdir(), "staff-edits-")));
  /** The app instance again on the same workbook and data folder, as after a restart. */
  const open = () => {
    const store = createReplica(
      createSheetsDriver({ spreadsheetId, credentials: { kind: "fixedToken" }, apiUrl: fake.url, retry: fastRetry }),
      {
        refreshSeconds: 60,
        log,
        lastGood: createLastGoodCopies(lastGoodDir, log),
      },
    );
    opened.push(store);
    return store;
  };
  const store = open();
  await store.refresh();
  const agents: Agent[] = [];
  for (const [i, fullName] of names.entries()) agents.push(await store.agents.insert(agent(fullName, i)));
  return { store, book, agents, lines, open, lastGoodDir };
}

function agent(fullName: string, i: number): Agent {
  return agentRecord({
    fullName,
    email: `agent${i}@example.com`,
    city: `City ${i}`,
    bio: `Bio of ${fullName}`,
    status: "pending",
    passwordHash: `hash-of-${fullName}`,
  });
}

/** Every record the app holds is on the row with its id, cell for cell. */
function expectEveryRowInPlace(store: Store, book: FakeSpreadsheet): void {
  for (const record of store.agents.all()) {
    for (const header of ["fullName", "city", "bio", "status", "passwordHash"] as const) {
      expect(book.cell("Agents", record.id, header), `${header} of ${record.fullName}`).toBe(String(record[header]));
    }
  }
  // Every anchor sits on the row of its id, and no unchecked tag is left behind.
  for (const { sheet, index, metadata } of book
    .findMetadata({ locationType: "ROW" })
    .filter((match) => match.metadata.metadataKey !== "rrn.tab")) {
    expect(metadata.metadataKey).toBe(`rrn.anchor.${sheet.title}`);
    expect(book.rowNumberOf(sheet.title, metadata.metadataValue ?? "")).toBe(index + 1);
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
    expect(
      book
        .rows("Agents")
        .slice(1)
        .map((row) => row[1]),
    ).toEqual(["Cy"]);
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
    // The app has read the tab since (a note typed after its last read is in store-sheets-columns.test.ts).
    await store.refresh();
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

  it("an agent whose row is skipped is told the account cannot be read, not that there is none", async () => {
    const { store, book, agents } = await network(["Ann"]);
    book.typeCell("Agents", { id: agents[0]!.id, header: "status" }, "TRUE");
    await store.refresh();
    expect(store.health().invalidRows).toEqual([expect.objectContaining({ tab: "Agents", reason: expect.stringContaining("status") })]);
    expect(await checkLogin({ config: CONFIG, store }, " Agent0@Example.com", "any password")).toEqual({
      ok: false,
      message: LOGIN_MESSAGES.unreadable,
    });
    expect(await checkLogin({ config: CONFIG, store }, "nobody@example.com", "any password")).toEqual({
      ok: false,
      message: LOGIN_MESSAGES.noAccount,
    });
  });

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
    book.setNumberFormat(
      { sheetId: sheet.sheetId, startRowIndex: row, endRowIndex: row + 1, startColumnIndex: responses, endColumnIndex: responses + 1 },
      { type: "NUMBER", pattern: "0.00" },
    );
    expect(book.cell("Requests", austin.id, "responses")).toBe("3.00");
    expect(book.cell("Requests", austin.id, "expiresAt")).toBe("25/12/2026");

    await store.refresh();
    expect(store.health().invalidRows).toEqual([]);
    expect(store.requests.get(austin.id)).toMatchObject({ expiresAt: "2026-12-25T00:00:00.000Z", urgent: true, responses: 3 });
  });
});

describe("structural mistakes degrade the tab, loudly, and never lose or mail in bulk", () => {
  const problemOf = (store: Store, tab: string) => store.health().degradedTabs.find((problem) => problem.tab === tab);
  const names = ["Ann", "Bo", "Cy", "Di"];

  it("a renamed required header: members keep being served, the tab is named with the fix, and no empty column is added", async () => {
    const { store, book, agents, lines, open } = await network(names);
    book.setCell("Agents", `${String.fromCharCode(64 + book.columnOf("Agents", "email"))}1`, "E-mail");
    await store.refresh();
    expect(store.agents.all()).toHaveLength(4);
    expect(store.agents.by("email", "agent0@example.com")).toHaveLength(1);
    expect(problemOf(store, "Agents")).toMatchObject({
      column: "email",
      problem: 'row 1 has no "email" column',
      fix: expect.stringMatching(/rename it back to "email"/),
    });
    expect(lines.some((line) => /Agents tab cannot be read: row 1 has no "email" column\. Fix: if the header was renamed/.test(line))).toBe(
      true,
    );
    expect(healthStatus(store.health())).toBe("degraded");
    await expect(store.agents.insert(agent("Eve", 5))).rejects.toBeInstanceOf(StoreWriteError);
    await expect(store.agents.update(agents[0]!.id, { city: "Waco" })).rejects.toThrow(/Agents tab cannot be read/);

    const restarted = open();
    await restarted.refresh();
    expect(book.headers("Agents").filter((header) => header.toLowerCase() === "email")).toEqual([]);
    expect(problemOf(restarted, "Agents")?.column).toBe("email");

    book.setCell("Agents", `${String.fromCharCode(64 + book.columnOf("Agents", "E-mail"))}1`, "email");
    await store.refresh();
    expect(store.health().degradedTabs).toEqual([]);
    expect(lines.some((line) => /the Agents tab reads again/.test(line))).toBe(true);
    await store.agents.update(agents[0]!.id, { city: "Waco" });
    expect(book.cell("Agents", agents[0]!.id, "city")).toBe("Waco");
  });

  it("a status column deleted and restored: statuses kept meanwhile, and no decision mail from it", async () => {
    const { store, book, agents } = await network(names);
    const sent: Mail[] = [];
    const claims = createSendClaims({ store });
    const watcher = watchAgentDecisions({
      store,
      notifier: collectingNotifier(sent, claims),
      config: { appUrl: "http://localhost", port: 3204, supportEmail: "support@example.com" },
      log: { info: () => undefined, error: () => undefined },
    });
    for (const { id } of agents.slice(0, 3)) book.setCell("Agents", { id, header: "status" }, "approved");
    await store.refresh();
    // Each mail goes once its claim is read back from the sheet.
    await expect.poll(() => sent.length).toBe(3);

    const statuses = book.rows("Agents").map((row) => row[book.columnOf("Agents", "status") - 1] ?? "");
    const column = book.columnOf("Agents", "status");
    book.deleteColumn("Agents", "status");
    await store.refresh();
    expect(problemOf(store, "Agents")?.column).toBe("status");
    expect(store.agents.by("status", "approved")).toHaveLength(3);

    book.insertColumn("Agents", column, "status");
    statuses.slice(1).forEach((status, i) => book.setCell("Agents", `${String.fromCharCode(64 + column)}${i + 2}`, status));
    await store.refresh();
    expect(store.health().degradedTabs).toEqual([]);
    expect(store.agents.by("status", "approved")).toHaveLength(3);
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(sent).toHaveLength(3);
    await watcher.stop();
  });

  it("a restart while a header is renamed: the last good copy on disk is served, said in /healthz and the log, and members log in", async () => {
    const { store, book, agents, lines, open, lastGoodDir } = await network(names);
    await store.agents.update(agents[0]!.id, { passwordHash: await hashPassword(CONFIG, "correct horse"), status: "approved" });
    await store.refresh();
    expect((await stat(lastGoodDir)).mode & 0o777).toBe(0o700);
    expect((await stat(path.join(lastGoodDir, "Agents.json"))).mode & 0o777).toBe(0o600);

    book.setCell("Agents", `${String.fromCharCode(64 + book.columnOf("Agents", "email"))}1`, "E-mail");
    const restarted = open();
    await restarted.refresh();
    expect(restarted.agents.all().map((agent) => agent.fullName)).toEqual(names);
    expect(restarted.health().servedFromDisk).toEqual([{ tab: "Agents", savedAt: expect.any(String) }]);
    expect(healthStatus(restarted.health())).toBe("degraded");
    expect(lines.some((line) => /Agents tab cannot be read; serving its last good copy, saved 20/.test(line))).toBe(true);
    expect(await checkLogin({ config: CONFIG, store: restarted }, "agent0@example.com", "correct horse")).toMatchObject({ ok: true });
    await expect(restarted.agents.update(agents[1]!.id, { city: "Waco" })).rejects.toThrow(/Agents tab cannot be read/);

    book.setCell("Agents", `${String.fromCharCode(64 + book.columnOf("Agents", "E-mail"))}1`, "email");
    await restarted.refresh();
    expect(restarted.health().servedFromDisk).toEqual([]);
    expect(restarted.health().degradedTabs).toEqual([]);
    expect(restarted.agents.all()).toHaveLength(4);
    expect((await readdir(lastGoodDir)).filter((file) => file.endsWith(".tmp"))).toEqual([]);
  });

  it("a title row above the headers: the tab is degraded with the fix, and nothing is written into row 1", async () => {
    const { store, book, open } = await network(names);
    book.insertRow("Agents", 1, ["Red River Referrals: agents"]);
    await store.refresh();
    expect(store.agents.all()).toHaveLength(4);
    expect(problemOf(store, "Agents")).toMatchObject({
      problem: "the header row is on row 2, not row 1",
      fix: expect.stringMatching(/delete the row above the headers/),
    });
    const restarted = open();
    await restarted.refresh();
    expect(book.rows("Agents")[0]).toEqual(["Red River Referrals: agents"]);
    expect(restarted.health().degradedTabs.map((problem) => problem.tab)).toEqual(["Agents"]);
  });

  it("a renamed tab: not replaced by a new empty one, named with the fix, the other tabs still read and written", async () => {
    const { store, book, agents, open } = await network(names);
    book.renameSheet("Agents", "Agents (old)");
    await store.refresh();
    expect(store.agents.all()).toHaveLength(4);
    expect(problemOf(store, "Agents")).toMatchObject({
      problem: 'the "Agents" tab was renamed to "Agents (old)"',
      fix: 'rename the tab back to "Agents"',
    });
    await store.messages.insert({
      id: newId(),
      conversationId: "c-1",
      fromEmail: "agent0@example.com",
      toEmail: "agent1@example.com",
      text: "Hello",
      createdAt: "2026-11-23T00:00:00.000Z",
    });

    const restarted = open();
    await restarted.refresh();
    expect(book.sheets.map((sheet) => sheet.title)).not.toContain("Agents");
    expect(problemOf(restarted, "Agents")).toMatchObject({ problem: 'the "Agents" tab was renamed to "Agents (old)"' });
    expect(restarted.messages.all()).toHaveLength(1);

    book.renameSheet("Agents (old)", "Agents");
    await store.refresh();
    expect(store.health().degradedTabs).toEqual([]);
    await store.agents.update(agents[1]!.id, { city: "Enid" });
    expect(book.cell("Agents", agents[1]!.id, "city")).toBe("Enid");
  });
});
