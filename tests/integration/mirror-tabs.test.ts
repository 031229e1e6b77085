/**
 * The mirror tabs staff read in the spreadsheet (docs/decisions/0081), with two app instances on
 * one spreadsheet of the fake Sheets server, with and without the high-volume tabs in PostgreSQL:
 * a look-up typed in the Lookup tab is answered within a refresh, by one instance; a rewrite
 * while staff sort a mirror leaves the tab whole and right; a mirror's grid keeps its bound.
 */
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it, vi } from "vitest";
import { conversationIdFor } from "../../app/domain/conversation";
import { LOOKUP_CELL, MIRROR_PERIOD_MINUTES, MIRROR_TOP_ROWS, MIRRORS, mirrorCells } from "../../app/domain/mirrors";
import { WORKBOOK, type Agent, type Message } from "../../app/domain/workbook/tabs";
import { loadConfig } from "../../app/server/config.server";
import { createServices, stopServices } from "../../app/server/service-lifecycle.server";
import type { Services } from "../../app/server/services.server";
import { newId } from "../../app/server/store/store.server";
import { useFakeSheets } from "../support/fake-sheets";
import { usePostgres } from "../support/postgres";
import { agentRecord } from "../support/records";

const { fake } = useFakeSheets();
const postgres = usePostgres();
const running: Services[] = [];
afterEach(async () => {
  await Promise.all(running.splice(0).map((services) => stopServices(services)));
});

const deployments = ["sheets", "sheets and postgres"] as const;
const PERIOD_MS = MIRROR_PERIOD_MINUTES * 60_000;

async function twoInstances(deployment: (typeof deployments)[number]) {
  const spreadsheetId = `mirror-${newId()}`;
  const book = fake.spreadsheet(spreadsheetId);
  const database = deployment === "sheets" ? {} : { DATABASE_URL: await postgres.server().createDatabase() };
  // Each instance on its own data directory, as on its own machine.
  const config = () =>
    loadConfig({
      NODE_ENV: "test",
      DATA_DIR: mkdtempSync(path.join(tmpdir(), "mirror-")),
      SUPPORT_EMAIL: "support@example.test",
      GOOGLE_SHEETS_ID: spreadsheetId,
      GOOGLE_SHEETS_API_URL: fake.url,
      SHEETS_WRITE_CALLS_PER_MINUTE: "300",
      ...database,
    });
  const all = [createServices(config()), createServices(config())] as const;
  running.push(...all);
  await all[0].store.refresh();
  await all[1].store.refresh();
  /** A refresh on both (the timed one reads the Lookup cell with the tabs), then the job's run on both at `now`. */
  const refreshAndRewrite = async (now: Date) => {
    await Promise.all(all.map((services) => services.store.refresh()));
    await Promise.all(all.map((services) => services.mirrors.rewriteDue(now)));
  };
  return { all, book, refreshAndRewrite };
}

function message(from: Agent, to: Agent, text: string, createdAt: string): Message {
  return { id: newId(), conversationId: conversationIdFor(from.id, to.id), fromEmail: from.email, toEmail: to.email, text, createdAt };
}

/** Counts the mirror rewrites both instances send (claims are writes too, so the fake's calls cannot tell them apart). */
function countRewrites(all: readonly Services[]): () => number {
  const spies = all.map((services) => vi.spyOn(services.store.mirrors!, "rewrite"));
  return () => spies.reduce((sum, spy) => sum + spy.mock.calls.length, 0);
}

describe.each(deployments)("the mirror tabs on %s, two instances", { timeout: 60_000 }, (deployment) => {
  it("answer a look-up by e-mail with the member's conversation within a refresh, written by one instance", async () => {
    const { all, book, refreshAndRewrite } = await twoInstances(deployment);
    const maria = await all[0].store.agents.insert(agentRecord({ email: "maria@example.com", fullName: "Maria Lopez" }));
    const sam = await all[0].store.agents.insert(agentRecord({ email: "sam@example.com", fullName: "Sam Ortiz" }));
    await all[0].store.messages.insert(message(maria, sam, "Is the Elm Street listing still open?", "2026-11-20T15:00:00.000Z"));
    const formula = await all[1].store.messages.insert(
      message(sam, maria, '=HYPERLINK("http://evil.test","Yes")', "2026-11-20T16:00:00.000Z"),
    );
    const start = new Date("2026-11-29T02:00:00.000Z");
    const mirrorRewrites = countRewrites(all);
    await refreshAndRewrite(start);
    expect(mirrorRewrites(), "one instance rewrote the mirrors").toBe(1);
    expect(book.rows("Lookup")[0]?.[0]).toMatch(
      /^Rewritten by the app every 5 minutes .*edits in this tab are lost, except the look-up cell B2/,
    );

    book.typeCell("Lookup", LOOKUP_CELL.a1, "  Maria@Example.com ");
    const before = mirrorRewrites();
    await refreshAndRewrite(new Date(start.getTime() + 10_000));

    expect(mirrorRewrites() - before, "one instance rewrote the Lookup tab").toBe(1);
    const rows = book.rows("Lookup");
    expect(rows[1]?.[1], "what staff typed stays").toBe("  Maria@Example.com ");
    expect(rows[2]?.slice(0, 2)).toEqual(["Answer for:", "Maria@Example.com"]);
    const texts = rows.map((row) => row[3]);
    expect(texts.indexOf('=HYPERLINK("http://evil.test","Yes")'), "newest first").toBeLessThan(
      texts.indexOf("Is the Elm Street listing still open?"),
    );
    expect(rows.find((row) => row[3]?.startsWith("=HYPERLINK"))).toEqual([
      "2026-11-20T16:00:00.000Z",
      "sam@example.com",
      "maria@example.com",
      '=HYPERLINK("http://evil.test","Yes")',
      "site",
      "shown",
      `${formula.conversationId} / ${formula.id}`,
    ]);
    // Stored as text: a member's formula is never run in the staff's spreadsheet.
    const sheet = book.read(`'Lookup'!A1:G${MIRROR_TOP_ROWS + MIRRORS.lookup.dataRows}`, {
      value: "FORMULA",
      dateTime: "SERIAL_NUMBER",
    });
    expect(sheet.values?.flat().filter((cell) => String(cell).startsWith("=")).length).toBe(1);
    expect(rows.find((row) => row[0] === maria.id)?.slice(0, 4)).toEqual([maria.id, "Maria Lopez", "maria@example.com", "approved"]);

    // Answered: the next refreshes write nothing until staff type another look-up or the period ends.
    const answered = mirrorRewrites();
    await refreshAndRewrite(new Date(start.getTime() + 20_000));
    expect(mirrorRewrites()).toBe(answered);

    book.typeCell("Lookup", LOOKUP_CELL.a1, formula.id);
    await refreshAndRewrite(new Date(start.getTime() + 30_000));
    expect(book.rows("Lookup")[2]?.[1]).toBe(formula.id);
    expect(book.rows("Lookup").filter((row) => row[3] === "Is the Elm Street listing still open?")).toHaveLength(1);
  });

  it("show a message staff hid from the Moderation tab as hidden, in the look-up and among the recent decisions", async () => {
    const { all, book, refreshAndRewrite } = await twoInstances(deployment);
    const maria = await all[0].store.agents.insert(agentRecord({ email: "maria@example.com", fullName: "Maria Lopez" }));
    const sam = await all[0].store.agents.insert(agentRecord({ email: "sam@example.com", fullName: "Sam Ortiz" }));
    const rude = await all[0].store.messages.insert(message(sam, maria, "A rude message", "2026-11-28T15:00:00.000Z"));
    const start = new Date("2026-11-29T02:00:00.000Z");
    await refreshAndRewrite(start);
    const decision = { id: "m-1", kind: "message", itemId: rude.id, action: "hidden", note: "rude", staffEmail: "staff@example.test" };
    const cells = { ...decision, createdAt: "2026-11-28T16:00:00.000Z" };
    book.append("Moderation!A1", [WORKBOOK.moderation.headers.map((header) => cells[header as keyof typeof cells] ?? "")], "USER_ENTERED");
    book.typeCell("Lookup", LOOKUP_CELL.a1, "sam@example.com");
    await refreshAndRewrite(new Date(start.getTime() + 10_000));

    expect(book.rows("Lookup").find((row) => row[3] === "A rude message")?.[5]).toBe("hidden");
    await refreshAndRewrite(new Date(start.getTime() + PERIOD_MS));
    expect(book.rows("Recent reports").find((row) => row[2] === rude.id)).toEqual([
      "2026-11-28T16:00:00.000Z",
      "message",
      rude.id,
      "hidden",
      "A rude message",
      "sam@example.com",
      "staff@example.test",
      "hidden by staff",
      "rude",
    ]);
  });

  it("list the invitations to join with what became of each", async () => {
    const { all, book, refreshAndRewrite } = await twoInstances(deployment);
    const maria = await all[0].store.agents.insert(agentRecord({ email: "maria@example.com", fullName: "Maria Lopez" }));
    const joined = await all[0].store.agents.insert(agentRecord({ email: "lee@example.com", fullName: "Lee Park", invitedBy: maria.id }));
    const invitation = (email: string, createdAt: string) => ({
      id: newId(),
      inviterId: maria.id,
      name: email.split("@")[0]!,
      email,
      licenseNumber: "",
      licenseState: "",
      createdAt,
    });
    await all[0].store.outreach.insert({ ...invitation("lee@example.com", "2026-11-20T10:00:00.000Z"), agentId: joined.id });
    await all[0].store.outreach.insert({
      ...invitation("sam@example.com", "2026-11-25T10:00:00.000Z"),
      openedAt: "2026-11-26T10:00:00.000Z",
    });
    await all[0].store.outreach.insert(invitation("old@example.com", "2026-09-01T10:00:00.000Z"));
    await refreshAndRewrite(new Date("2026-11-29T02:00:00.000Z"));

    const rows = book.rows("Invitations to join");
    expect(rows[1]).toEqual(["3 invitations to join."]);
    expect(rows.slice(3).map((row) => [row[3], row[5]])).toEqual([
      ["sam@example.com", "Opened the link"],
      ["lee@example.com", "Approved"],
      ["old@example.com", "Expired"],
    ]);
    expect(rows[4]?.[1]).toBe("Maria Lopez <maria@example.com>");
  });

  it("leave a mirror whole and right when staff sort it while it is rewritten, and keep its grid to its bound", async () => {
    const { all, book, refreshAndRewrite } = await twoInstances(deployment);
    const reporter = await all[0].store.agents.insert(agentRecord({ email: "rita@example.com" }));
    const author = await all[0].store.agents.insert(agentRecord({ email: "omar@example.com" }));
    const spam = await all[0].store.messages.insert(message(author, reporter, "Buy followers now", "2026-11-27T10:00:00.000Z"));
    const start = new Date("2026-11-29T02:00:00.000Z");
    const report = (i: number, status: "visible" | "hidden") => ({
      id: newId(),
      kind: "message" as const,
      itemId: spam.id,
      link: "",
      reporterEmail: reporter.email,
      reportedEmail: author.email,
      reason: "spam" as const,
      note: `report ${i}`,
      createdAt: new Date(start.getTime() - i * 3_600_000).toISOString(),
      status: "open" as const,
      staffNote: "",
      itemStatus: status,
    });
    for (let i = 1; i <= 4; i += 1) await all[0].store.reports.insert(report(i, "visible"));
    await refreshAndRewrite(start);
    expect(
      book
        .rows("Recent reports")
        .slice(MIRROR_TOP_ROWS)
        .map((row) => row[8]),
    ).toEqual(["report 1", "report 2", "report 3", "report 4"]);

    // Staff hide the message; then, after the refresh's read and before the next period's rewrite
    // (at the app's next write), they sort the mirror, insert a row into it and add a column.
    await all[0].store.reports.insert(report(0, "hidden"));
    const tab = () => book.sheet("Recent reports")!;
    fake.beforeNext((edited) => {
      edited.sortRange({ sheetId: tab().sheetId, startRowIndex: MIRROR_TOP_ROWS }, [{ dimensionIndex: 8, sortOrder: "DESCENDING" }]);
      edited.insertRow("Recent reports", 5, ["staff note typed here"]);
      edited.appendColumns(tab().sheetId, 1);
      edited.setCell("Recent reports", "K2", "a column of their own");
    });
    await refreshAndRewrite(new Date(start.getTime() + PERIOD_MS));

    const rows = book.rows("Recent reports");
    expect(rows[1]?.[0]).toBe("5 reported or hidden items in the last 30 days.");
    expect(rows.slice(MIRROR_TOP_ROWS).map((row) => [row[8], row[3], row[4]])).toEqual([
      ["report 0", "hidden", "Buy followers now"],
      ["report 1", "hidden", "Buy followers now"],
      ["report 2", "hidden", "Buy followers now"],
      ["report 3", "hidden", "Buy followers now"],
      ["report 4", "hidden", "Buy followers now"],
    ]);
    expect(rows.flat()).not.toContain("staff note typed here");
    expect(rows.flat()).not.toContain("a column of their own");
    expect({ rows: tab().rowCount, columns: tab().columnCount }).toEqual({
      rows: MIRROR_TOP_ROWS + MIRRORS.recentReports.dataRows,
      columns: MIRRORS.recentReports.columns,
    });

    const health = all.map((services) => services.mirrors.health());
    expect(health.map((each) => each.tabs.find((mirror) => mirror.tab === "Recent reports")?.cells)).toEqual([
      mirrorCells("recentReports"),
      mirrorCells("recentReports"),
    ]);
    expect(health.flatMap((each) => each.tabs.map((mirror) => mirror.by)).sort()).toEqual([
      ...Array<string>(Object.keys(MIRRORS).length).fill("another instance"),
      ...Array<string>(Object.keys(MIRRORS).length).fill("this instance"),
    ]);
  });
});

describe("the mirror tabs with PostgreSQL", { timeout: 60_000 }, () => {
  it("claim each rewrite in the database without a call to the sheet", async () => {
    const { all, refreshAndRewrite } = await twoInstances("sheets and postgres");
    const start = new Date("2026-11-29T02:00:00.000Z");
    await refreshAndRewrite(start);
    await Promise.all(all.map((services) => services.store.refresh()));
    const before = fake.calls.length;
    // The next period: one instance claims it and rewrites (one write call), the other claims it and loses.
    // An instance writing the mirrors for the first time reads the grids' ids once (spreadsheets.get).
    for (const services of all) await services.mirrors.rewriteDue(new Date(start.getTime() + PERIOD_MS));
    const calls = fake.calls.slice(before).filter((call) => call.kind !== "spreadsheets.get");
    expect(calls.map((call) => call.kind)).toEqual(["spreadsheets.batchUpdate"]);
  });
});
