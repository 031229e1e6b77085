/**
 * Staff correct a referral in the Google sheet and the app follows on its next refresh:
 * here on the fake Sheets server, which types what staff type as Google does (numbers
 * become number cells, "$1,250.00" and "25%" as the driver then reads them unformatted).
 */
import Database from "better-sqlite3";
import { describe, expect, it } from "vitest";
import type { Agent } from "../../app/domain/workbook/tabs";
import { formatDollars } from "../../app/domain/referrals/money";
import { dashboardReferrals, referralListPage, referralTotals } from "../../app/server/referrals/overview.server";
import { referralPageView } from "../../app/server/referrals/referral-view.server";
import { sqliteStorePath } from "../../app/server/store/store.server";
import { openSheetsStore, useFakeSheets } from "../support/fake-sheets";
import { agentRecord, referralRecord } from "../support/records";
import { insertAgent, sentMails, testContext } from "../support/services";

const { fake, opened } = useFakeSheets();

const maria: Agent = agentRecord({ fullName: "Maria Delgado", email: "maria@example.com", brokerage: "Sooner Homes" });
const james: Agent = agentRecord({ fullName: "James Whitfield", email: "james@example.com", brokerage: "Lone Star Realty" });

async function workbookWithReferral(fields: Parameters<typeof referralRecord>[2] = {}) {
  const { store, spreadsheetId } = await openSheetsStore(fake, "referral-staff");
  opened.push(store);
  const referral = await store.referrals.insert(referralRecord(maria, james, fields));
  return { store, referral, book: fake.spreadsheet(spreadsheetId) };
}

describe("a staff edit of a referral in the sheet", () => {
  it.each(["Under_Contract", "under_contract", " UNDER_CONTRACT "])("reads the status typed as %j", async (typed) => {
    const { store, referral, book } = await workbookWithReferral({ status: "introduced" });
    book.typeCell("Referrals", { id: referral.id, header: "status" }, typed);
    await store.refresh();
    expect(store.referrals.get(referral.id)?.status).toBe("under_contract");
    expect(store.referrals.by("status", "under_contract").map((row) => row.id)).toEqual([referral.id]);
  });

  it("reports a status that does not exist, leaves the row out until it is fixed, then follows the fix", async () => {
    const { store, referral, book } = await workbookWithReferral({ status: "introduced" });
    book.typeCell("Referrals", { id: referral.id, header: "status" }, "Paid in full");
    await store.refresh();
    expect(store.health().invalidRows).toEqual([expect.objectContaining({ tab: "Referrals", reason: expect.stringContaining("status") })]);
    expect(store.referrals.get(referral.id)).toBeUndefined();
    book.typeCell("Referrals", { id: referral.id, header: "status" }, "Closed");
    await store.refresh();
    expect(store.health().invalidRows).toEqual([]);
    expect(store.referrals.get(referral.id)?.status).toBe("closed");
  });

  it("reads a fee typed as text with a dollar sign and thousands, and the totals follow", async () => {
    const { store, referral, book } = await workbookWithReferral({ status: "closed", grossCommission: 900_000 });
    expect(referralTotals({ store }, store.referrals.all(), new Date()).expected.cents).toBe(225_000);
    book.typeCell("Referrals", { id: referral.id, header: "feeAmount" }, "$1,250.00");
    await store.refresh();
    expect(store.referrals.get(referral.id)?.feeAmount).toBe(125_000);
    expect(referralTotals({ store }, store.referrals.all(), new Date()).expected.cents).toBe(125_000);
  });

  it("lists a date typed into a money column and a price typed as a fraction, and the page flags them", async () => {
    const { store, referral, book } = await workbookWithReferral({ status: "closed" });
    const closing = new Date(Date.parse(referral.createdAt) + 30 * 86_400_000);
    const typedDate = `${closing.getUTCMonth() + 1}/${closing.getUTCDate()}/${closing.getUTCFullYear()}`;
    book.typeCell("Referrals", { id: referral.id, header: "grossCommission" }, typedDate);
    book.typeCell("Referrals", { id: referral.id, header: "salePrice" }, "0.25");
    await store.refresh();
    const read = store.referrals.get(referral.id)!;
    expect(read.salePrice).toBe(25);
    expect(store.health().doubtfulValues).toEqual([
      { tab: "Referrals", row: 2, id: referral.id, reason: "salePrice $0.25 is under $1,000 for a sale price" },
      {
        tab: "Referrals",
        row: 2,
        id: referral.id,
        reason: `grossCommission ${formatDollars(read.grossCommission!)} looks like the date ${closing.toISOString().slice(0, 10)} typed into a money column`,
      },
    ]);
    const page = referralPageView({ store }, read, maria);
    expect(page.facts.salePrice).toBe("$0.25");
    expect(page.doubts).toEqual({
      salePrice: "is under $1,000 for a sale price",
      grossCommission: `looks like the date ${closing.toISOString().slice(0, 10)} typed into a money column`,
    });

    book.typeCell("Referrals", { id: referral.id, header: "grossCommission" }, "$13,500.00");
    book.typeCell("Referrals", { id: referral.id, header: "salePrice" }, "$450,000");
    await store.refresh();
    expect(store.health().doubtfulValues).toEqual([]);
    book.typeCell("Referrals", { id: referral.id, header: "grossCommission" }, "$500,000");
    await store.refresh();
    expect(store.health().doubtfulValues.map((doubt) => doubt.reason)).toEqual(["grossCommission $500,000.00 is more than the sale price"]);
  });

  it("flags in the member's list a fee worked out from a date typed into the commission cell formatted as a date", async () => {
    const { store, referral, book } = await workbookWithReferral({ status: "closed", salePrice: 45_000_000 });
    const cell = { id: referral.id, header: "grossCommission" };
    const closing = new Date(Date.parse(referral.createdAt) + 20 * 86_400_000);
    // Google keeps a typed date as its serial number in a cell it formats as a date, and reads that number unformatted.
    const typed = `${closing.getUTCMonth() + 1}/${closing.getUTCDate()}/${closing.getUTCFullYear()}`;
    book.typeCell("Referrals", cell, typed);
    expect(book.cell("Referrals", referral.id, "grossCommission")).toBe(typed);
    const serial = Math.round((Date.parse(closing.toISOString().slice(0, 10)) - Date.UTC(1899, 11, 30)) / 86_400_000);
    await store.refresh();
    expect(store.referrals.get(referral.id)?.grossCommission).toBe(serial * 100);
    const row = referralListPage({ store }, maria, {}, 1, new Date()).referrals[0]!;
    expect(row).toMatchObject({ feeLabel: formatDollars(Math.floor((serial * 100 * 25 + 50) / 100)), feeDoubted: true });
    expect(dashboardReferrals({ store }, james, new Date()).open[0]).toMatchObject({ feeDoubted: true });
    // Not added to the fees expected as if it were known.
    expect(referralTotals({ store }, store.referrals.all(), new Date())).toMatchObject({ expected: { cents: 0, known: 0, unknown: 1 } });

    book.typeCell("Referrals", cell, "$13,500.00");
    await store.refresh();
    expect(referralListPage({ store }, maria, {}, 1, new Date()).referrals[0]).toMatchObject({ feeLabel: "$3,375.00", feeDoubted: false });
    expect(referralTotals({ store }, store.referrals.all(), new Date())).toMatchObject({
      expected: { cents: 337_500, known: 1, unknown: 0 },
    });
  });

  it("reads a fee and a gross commission typed as numbers, as Google keeps them", async () => {
    const { store, referral, book } = await workbookWithReferral({ status: "closed" });
    book.typeCell("Referrals", { id: referral.id, header: "feeAmount" }, "1250.5");
    book.setCell("Referrals", { id: referral.id, header: "grossCommission" }, 9000);
    await store.refresh();
    expect(store.referrals.get(referral.id)).toMatchObject({ feeAmount: 125_050, grossCommission: 900_000 });
  });

  it("reads a percentage typed as 20 or 20%, and a percent-formatted cell that arrives as its fraction", async () => {
    const { store, referral, book } = await workbookWithReferral({ status: "closed", grossCommission: 1_000_000 });
    const cell = { id: referral.id, header: "feePercent" };
    book.typeCell("Referrals", cell, "20");
    await store.refresh();
    expect(store.referrals.get(referral.id)?.feePercent).toBe(20);

    book.setCell("Referrals", cell, "20%");
    await store.refresh();
    expect(store.referrals.get(referral.id)?.feePercent).toBe(20);

    // Google stores "20%" typed into a cell as 0.2 formatted as a percent; unformatted it reads 0.2.
    book.setCell("Referrals", cell, 0.2);
    await store.refresh();
    expect(store.referrals.get(referral.id)?.feePercent).toBe(20);
    expect(referralTotals({ store }, store.referrals.all(), new Date()).expected.cents).toBe(200_000);

    book.setCell("Referrals", cell, 0.1275);
    await store.refresh();
    expect(store.referrals.get(referral.id)?.feePercent).toBe(12.75);
  });
});

describe("a staff edit of a referral's money in the SQLite file", () => {
  it("lists a date-like commission and a price in cents for staff, in /healthz and their mail, and flags them to the parties", async () => {
    const context = testContext();
    const { services } = context;
    const ann = await insertAgent(context, { fullName: "Ann Archer", email: "ann@example.com" });
    const bob = await insertAgent(context, { fullName: "Bob Brooks", email: "bob@example.com" });
    const referral = await services.store.referrals.insert(referralRecord(ann, bob, { status: "closed", salePrice: 45_000_000 }));
    const serial = Math.round((Date.parse(referral.createdAt) + 20 * 86_400_000 - Date.UTC(1899, 11, 30)) / 86_400_000);
    const day = new Date(Date.UTC(1899, 11, 30) + serial * 86_400_000).toISOString().slice(0, 10);
    const db = new Database(sqliteStorePath(services.config));
    try {
      db.prepare(`UPDATE "Referrals" SET "grossCommission" = ?, "salePrice" = ? WHERE "id" = ?`).run(serial, "0.25", referral.id);
    } finally {
      db.close();
    }
    await services.store.refresh();

    const reasons = [
      "salePrice $0.25 is under $1,000 for a sale price",
      `grossCommission ${formatDollars(serial * 100)} looks like the date ${day} typed into a money column`,
    ];
    expect(services.store.health().doubtfulValues.map((doubt) => doubt.reason)).toEqual(reasons);
    await services.sheetProblemMails.mailNew(new Date());
    const [mail] = (await sentMails(services)).filter((sent) => sent.to === "support@example.test");
    for (const reason of reasons) expect(mail?.text).toContain(`probably mistyped: ${reason}`);

    const page = referralPageView(services, services.store.referrals.get(referral.id)!, bob);
    expect(page.facts).toMatchObject({ salePrice: "$0.25", grossCommission: formatDollars(serial * 100) });
    expect(page.doubts).toEqual({
      salePrice: "is under $1,000 for a sale price",
      grossCommission: `looks like the date ${day} typed into a money column`,
    });
    expect(referralListPage(services, ann, {}, 1, new Date()).referrals[0]).toMatchObject({ feeDoubted: true });
  });
});
