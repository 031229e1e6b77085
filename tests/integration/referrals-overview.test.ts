/**
 * /referrals, the dashboard's My Referrals card and /referrals.csv, called with real
 * requests: each member sees only the referrals they are a party to.
 */
import type { AppLoadContext } from "@remix-run/node";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { loader as dashboardLoader } from "../../app/routes/member-dashboard";
import { loader as csvLoader } from "../../app/routes/referrals[.csv]";
import { loader as listLoader } from "../../app/routes/referrals._index";
import type { Agent, Referral } from "../../app/domain/workbook/tabs";
import { referralRecord } from "../support/records";
import { insertAgent, testContext } from "../support/services";
import { get, outcome, sessionCookie } from "./requests-support";

let context: AppLoadContext;
let maria: Agent;
let james: Agent;
let olivia: Agent;
const cookies = new Map<string, string>();

beforeEach(async () => {
  vi.useFakeTimers({ toFake: ["Date"] });
  vi.setSystemTime(new Date("2026-11-23T12:00:00.000Z"));
  context = testContext();
  maria = await insertAgent(context, { fullName: "Maria Delgado", email: "maria@example.com", brokerage: "Sooner Homes" });
  james = await insertAgent(context, { fullName: "James Whitfield", email: "james@example.com", brokerage: "Lone Star Realty" });
  olivia = await insertAgent(context, { fullName: "Olivia Grant", email: "olivia@example.com", brokerage: "Red River Realty" });
  for (const agent of [maria, james, olivia]) cookies.set(agent.email, await sessionCookie(context, agent));
});

afterEach(() => {
  vi.useRealTimers();
});

function insertReferral(referring: Agent, receiving: Agent, fields: Partial<Referral> = {}): Promise<Referral> {
  return context.services.store.referrals.insert(referralRecord(referring, receiving, fields));
}

async function feeReceived(referral: Referral, at: string) {
  await context.services.store.referralEvents.insert({
    id: `${referral.id}-received`,
    referralId: referral.id,
    step: "fee_received",
    byEmail: referral.referringEmail,
    note: "",
    createdAt: at,
  });
}

type ListData = Awaited<ReturnType<typeof listLoader>>;

async function list(agent: Agent, search = ""): Promise<ListData> {
  return (await listLoader({ request: get(`/referrals${search}`, cookies.get(agent.email)!), context, params: {} })) as ListData;
}

async function csv(agent: Agent, search = ""): Promise<Response> {
  return (await outcome(() =>
    csvLoader({ request: get(`/referrals.csv${search}`, cookies.get(agent.email)!), context, params: {} }),
  )) as Response;
}

describe("/referrals", () => {
  it("lists the member's referrals, sent and received, and none of anyone else's", async () => {
    const sent = await insertReferral(maria, james, { clientName: "A.B." });
    const received = await insertReferral(james, maria, { clientName: "C.D.", status: "introduced" });
    await insertReferral(james, olivia, { clientName: "E.F." });

    const mine = await list(maria);
    expect(mine.referrals.map((row) => [row.id, row.role, row.otherName])).toEqual(
      expect.arrayContaining([
        [sent.id, "sent", "James Whitfield"],
        [received.id, "received", "James Whitfield"],
      ]),
    );
    expect(mine.total).toBe(2);

    const theirs = await list(olivia);
    expect(theirs.referrals.map((row) => row.clientName)).toEqual(["E.F."]);
    const stranger = await insertAgent(context, { email: "stranger@example.com" });
    cookies.set(stranger.email, await sessionCookie(context, stranger));
    expect((await list(stranger)).total).toBe(0);
  });

  it("filters by status and by side, and counts each status of the chosen side whatever the status filter", async () => {
    await insertReferral(maria, james, { status: "signed" });
    await insertReferral(maria, james, { status: "signed" });
    await insertReferral(maria, olivia, { status: "closed", grossCommission: 900_000 });
    await insertReferral(james, maria, { status: "signed" });

    const signed = await list(maria, "?status=signed");
    expect(signed.total).toBe(3);
    expect(signed.counts).toMatchObject({ signed: 3, closed: 1, proposed: 0 });

    const sentSigned = await list(maria, "?status=Signed&role=sent");
    expect(sentSigned.total).toBe(2);
    expect(sentSigned.counts).toMatchObject({ signed: 2, closed: 1 });
    expect(sentSigned.query).toEqual({ status: "signed", role: "sent" });

    const unknown = await list(maria, "?status=paid&role=everyone");
    expect(unknown.query).toEqual({});
    expect(unknown.total).toBe(4);
  });

  it("adds up the fees expected and the fees received this calendar year, by the day the fee was received", async () => {
    // Expected: a closed deal's 25% of $9,000 and a flat $1,500; a signed 25% whose commission is not known yet.
    await insertReferral(maria, james, { status: "closed", grossCommission: 900_000 });
    await insertReferral(maria, james, { status: "under_contract", feeType: "flat", feeFlat: 150_000, feePercent: undefined });
    await insertReferral(maria, james, { status: "signed" });
    // Received this year, received last year (in Central time: 2025-12-31 at 8 pm), and lost.
    const thisYear = await insertReferral(maria, james, { status: "fee_received", feeAmount: 200_000 });
    await feeReceived(thisYear, "2026-03-01T12:00:00.000Z");
    const lastYear = await insertReferral(maria, olivia, { status: "fee_received", feeAmount: 700_000 });
    await feeReceived(lastYear, "2026-01-01T02:00:00.000Z");
    await insertReferral(maria, james, { status: "lost", grossCommission: 900_000 });

    const { totals } = await list(maria);
    expect(totals).toEqual({
      open: 3,
      expected: { cents: 225_000 + 150_000, known: 2, unknown: 1 },
      receivedThisYear: { cents: 200_000, known: 1, unknown: 0 },
    });
  });

  it("counts a fee received whose amount is not known, or looks mistyped, as not yet known rather than $0", async () => {
    const unknown = await insertReferral(maria, james, { status: "fee_received" });
    await feeReceived(unknown, "2026-03-01T12:00:00.000Z");
    // 46357 is 2026-12-01 typed into the fee cell: doubted.
    const doubted = await insertReferral(maria, james, { status: "fee_received", feeAmount: 4_635_700 });
    await feeReceived(doubted, "2026-03-02T12:00:00.000Z");
    await insertReferral(maria, james, { status: "signed" });
    await insertReferral(maria, olivia, { status: "introduced" });

    const { totals, referrals } = await list(maria);
    expect(totals.receivedThisYear).toEqual({ cents: 0, known: 0, unknown: 2 });
    expect(totals.expected).toEqual({ cents: 0, known: 0, unknown: 2 });
    expect(referrals.filter((row) => row.status === "signed").map((row) => row.feeLabel)).toEqual(["25% of the commission"]);
  });

  it("pages the list, 20 a page", async () => {
    for (let i = 0; i < 23; i += 1) await insertReferral(maria, james);
    expect((await list(maria)).referrals).toHaveLength(20);
    const second = await list(maria, "?page=2");
    expect([second.page, second.pageCount, second.referrals.length]).toEqual([2, 2, 3]);
  });
});

describe("the dashboard's My Referrals card", () => {
  it("shows the member's open referrals and fees, and nobody else's", async () => {
    await insertReferral(maria, james, { status: "closed", grossCommission: 400_000, clientName: "A.B." });
    await insertReferral(maria, james, { status: "declined", clientName: "Gone" });
    await insertReferral(james, olivia, { clientName: "Not hers" });
    const data = (await dashboardLoader({ request: get("/member-dashboard", cookies.get(maria.email)!), context, params: {} })) as Awaited<
      ReturnType<typeof dashboardLoader>
    >;
    expect(data.referrals.total).toBe(2);
    expect(data.referrals.open.map((row) => row.clientName)).toEqual(["A.B."]);
    expect(data.referrals.totals.expected.cents).toBe(100_000);
  });
});

describe("/referrals.csv", () => {
  it("downloads the member's referrals of this year as an attachment, with amounts in dollars", async () => {
    await insertReferral(maria, james, {
      status: "closed",
      clientName: "J.D.",
      salePrice: 45_000_000,
      grossCommission: 1_350_000,
      closeDate: "2026-10-01T00:00:00.000Z",
    });
    await insertReferral(james, olivia, { clientName: "Not hers" });
    const response = await csv(maria);
    expect(response.status).toBe(200);
    expect(response.headers.get("Content-Type")).toBe("text/csv; charset=utf-8");
    expect(response.headers.get("Content-Disposition")).toBe('attachment; filename="referrals-2026.csv"');
    const lines = (await response.text())
      .replace(/^\uFEFF/, "")
      .trimEnd()
      .split("\r\n");
    expect(lines[0]).toBe(
      "Created,Signed,Closed,Role,Other party,Other party email,Referring brokerage,Receiving brokerage,Client,Side,Status,Sale price,Gross commission,Fee,Fee received,Looks wrong",
    );
    expect(lines).toHaveLength(2);
    expect(lines[1]).toBe(
      "2026-11-16,2026-11-16,2026-09-30,Sent,James Whitfield,james@example.com,Sooner Homes,Lone Star Realty,J.D.,buyer,Closed,450000.00,13500.00,3375.00,,",
    );
  });

  it("says in its last column which figures look mistyped, and the fee worked out from one", async () => {
    // 0.25 typed as the price, and a date typed into the commission: the sheet keeps 12/1/2026 as 46357.
    await insertReferral(maria, james, { status: "closed", salePrice: 25, grossCommission: 4_635_700 });
    const lines = (await (await csv(maria)).text()).trimEnd().split("\r\n");
    expect(lines[1]).toContain(",Closed,0.25,46357.00,11589.25,,");
    expect(lines[1]!.split(",Closed,0.25,46357.00,11589.25,,")[1]).toBe(
      '"Sale price is under $1,000 for a sale price; Gross commission looks like the date 2026-12-01 typed into a money column; Fee is worked out from a gross commission that looks wrong. Staff have been told."',
    );
  });

  it("neutralises cells that a spreadsheet would run as formulas and quotes commas and quotes", async () => {
    await insertReferral(maria, james, {
      clientName: '=HYPERLINK("http://evil.example","x")',
      receivingName: "+Cmd, Inc",
      receivingBrokerage: "@SUM(A1)",
    });
    await insertReferral(maria, james, { clientName: "-2+3", receivingName: 'Jo "JJ" Smith' });
    const text = await (await csv(maria)).text();
    expect(text).toContain(`"'=HYPERLINK(""http://evil.example"",""x"")"`);
    expect(text).toContain(`"'+Cmd, Inc"`);
    expect(text).toContain(`'@SUM(A1)`);
    expect(text).toContain(`,'-2+3,`);
    expect(text).toContain(`"Jo ""JJ"" Smith"`);
  });

  it("takes the year asked for: a referral that ended last year is in last year's file only, an open one in both", async () => {
    await insertReferral(maria, james, {
      clientName: "Old",
      status: "lost",
      createdAt: "2026-02-01T12:00:00.000Z",
      signedAt: "2026-02-01T12:00:00.000Z",
      updatedAt: "2026-02-02T12:00:00.000Z",
    });
    vi.setSystemTime(new Date("2027-03-01T12:00:00.000Z"));
    cookies.set(maria.email, await sessionCookie(context, maria));
    await insertReferral(maria, james, { clientName: "New" });
    await insertReferral(maria, james, { clientName: "Still open", createdAt: "2026-06-01T12:00:00.000Z" });
    const thisYear = await (await csv(maria)).text();
    const lastYear = await (await csv(maria, "?year=2026")).text();
    expect(thisYear).toContain(",New,");
    expect(thisYear).not.toContain(",Old,");
    expect(lastYear).toContain(",Old,");
    expect(lastYear).not.toContain(",New,");
    expect(thisYear).toContain(",Still open,");
    expect(lastYear).toContain(",Still open,");
  });

  it.each(["abc", "1999", "2031", "20266"])("refuses the year %j with a 400", async (year) => {
    const response = await csv(maria, `?year=${year}`);
    expect(response.status).toBe(400);
    expect(await response.text()).toBe("Choose a year from the list on the referrals page.");
  });

  it("sends a visitor who is not logged in to the login page", async () => {
    const response = (await outcome(() =>
      csvLoader({ request: new Request("http://localhost/referrals.csv"), context, params: {} }),
    )) as Response;
    expect(response.status).toBe(302);
    expect(response.headers.get("Location")).toContain("/member-login");
  });
});
