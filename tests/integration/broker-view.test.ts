import type { AppLoadContext } from "@remix-run/node";
import { beforeEach, describe, expect, it } from "vitest";
import { BROKER_LINK_ANSWER } from "../../app/domain/brokers";
import type { TrecLicense } from "../../app/domain/license-check";
import type { Agent, Referral } from "../../app/domain/workbook/tabs";
import { action as brokerLinkAction } from "../../app/routes/broker._index";
import { loader as feesLoader } from "../../app/routes/broker.fees[.csv]";
import { loader as documentLoader } from "../../app/routes/broker.referrals.$id.$document";
import { loader as viewLoader } from "../../app/routes/broker.view";
import { createLinkToken } from "../../app/server/auth/link-token.server";
import { pdfText } from "../support/pdf-text";
import { referralRecord } from "../support/records";
import { insertAgent, postForm, sentMails, testContext } from "../support/services";
import { outcome } from "./requests-support";

/**
 * The broker's view on SQLite: a broker proven by TREC's data (or confirmed by staff, in
 * Oklahoma) gets a mailed link that shows their agents' referrals and the year's fees.
 */

let context: AppLoadContext;
let dana: Agent;
let maria: Agent;
let james: Agent;

const license = (fields: Partial<TrecLicense> & Pick<TrecLicense, "licenseNumber" | "licenseType" | "fullName">): TrecLicense => ({
  suffix: "",
  status: "Current and active",
  expiration: "2099-12-31",
  sponsorName: "",
  sponsorLicenseNumber: "",
  email: "",
  ...fields,
});

const LONE_STAR = license({
  licenseNumber: "9001234",
  licenseType: "BLLC",
  fullName: "LONE STAR REALTY LLC",
  email: "office@lonestar.example",
});
const DANA = license({
  licenseNumber: "0654321",
  licenseType: "SALE",
  fullName: "REYES, DANA",
  email: "dana@example.com",
  sponsorName: "LONE STAR REALTY LLC",
  sponsorLicenseNumber: "9001234",
});

async function* each(records: readonly TrecLicense[]): AsyncIterable<TrecLicense> {
  yield* records;
}

beforeEach(async () => {
  context = testContext();
  await context.services.licenses.table.replace(each([LONE_STAR, DANA]), "test data");
  dana = await insertAgent(context, {
    fullName: "Dana Reyes",
    email: "dana@example.com",
    licenseState: "TX",
    brokerage: "Lone Star Realty LLC",
  });
  maria = await insertAgent(context, {
    fullName: "Maria Delgado",
    email: "maria@example.com",
    licenseState: "OK",
    brokerage: "Sooner Homes",
  });
  james = await insertAgent(context, {
    fullName: "James Whitfield",
    email: "james@example.com",
    licenseState: "TX",
    brokerage: "Alamo Homes",
  });
});

function insertReferral(referring: Agent, receiving: Agent, fields: Partial<Referral>): Promise<Referral> {
  return context.services.store.referrals.insert(referralRecord(referring, receiving, { clientName: "Ana", ...fields }));
}

async function ask(fields: Record<string, string>) {
  return outcome(() => brokerLinkAction({ request: postForm("/broker", fields), context, params: {} }));
}

async function linkMails() {
  return (await sentMails(context.services)).filter((mail) => mail.subject.startsWith("Your broker's view"));
}

function tokenOf(mail: { text: string }): string {
  const url = /Open your view: (\S+)/.exec(mail.text)?.[1];
  if (!url) throw new Error("no link in the mail");
  return new URL(url).searchParams.get("token")!;
}

/** Opens the mailed link as a browser would: the token moves into a cookie, then the bare page. */
async function open(token: string): Promise<{ cookie: string; page: Response | Awaited<ReturnType<typeof viewLoader>> }> {
  const moved = (await outcome(() =>
    viewLoader({ request: new Request(`http://localhost/broker/view?token=${token}`), context, params: {} }),
  )) as Response;
  expect(moved.status).toBe(302);
  expect(moved.headers.get("Location")).toBe("/broker/view");
  const cookie = moved.headers.get("Set-Cookie")!.split(";")[0]!;
  const page = await viewLoader({
    request: new Request("http://localhost/broker/view", { headers: { Cookie: cookie } }),
    context,
    params: {},
  });
  return { cookie, page };
}

type View = { view: { referrals: Array<{ id: string; yours: string[]; feeAmount: string | null; feeDoubted: boolean }> } | null };

async function viewOf(page: unknown): Promise<{ status: number; data: View }> {
  if (page instanceof Response) return { status: page.status, data: (await page.json()) as View };
  const wrapped = page as { init?: { status?: number } | null; data?: View };
  if (wrapped.data !== undefined) return { status: wrapped.init?.status ?? 200, data: wrapped.data };
  return { status: 200, data: page as View };
}

describe("a Texas broker asks for a link", () => {
  it("gets one at TREC's e-mail on file, and the view lists only the referrals of the agents they sponsor", async () => {
    const sponsored = await insertReferral(dana, maria, { referringBrokerLicense: "9001234", status: "under_contract" });
    // A fee staff typed over the gross commission: the view flags it.
    const receiving = await insertReferral(james, dana, {
      receivingBrokerLicense: "09001234",
      status: "closed",
      grossCommission: 1_000_000,
      feeAmount: 2_500_000,
    });
    await insertReferral(james, maria, { referringBrokerLicense: "7000001", receivingBrokerLicense: "155" });

    const answer = (await ask({ state: "TX", licenseNumber: "9001234", email: "Office@LoneStar.example" })) as { sent: string };
    expect(answer).toEqual({ sent: "office@lonestar.example" });
    const mails = await linkMails();
    expect(mails.map((mail) => mail.to)).toEqual(["office@lonestar.example"]);
    expect(mails[0]!.text).not.toContain(BROKER_LINK_ANSWER);

    const { cookie, page } = await open(tokenOf(mails[0]!));
    const { status, data } = await viewOf(page);
    expect(status).toBe(200);
    expect(data.view).toMatchObject({ licenseNumber: "9001234", brokerName: "LONE STAR REALTY LLC" });
    expect(data.view!.referrals.map((referral) => [referral.id, referral.yours]).sort()).toEqual(
      [
        [sponsored.id, ["referring"]],
        [receiving.id, ["receiving"]],
      ].sort(),
    );
    const fees = Object.fromEntries(data.view!.referrals.map((referral) => [referral.id, [referral.feeAmount, referral.feeDoubted]]));
    expect(fees).toEqual({ [sponsored.id]: [null, false], [receiving.id]: ["$25,000.00", true] });

    const pdf = (await documentLoader({
      request: new Request(`http://localhost/broker/referrals/${sponsored.id}/agreement.pdf`, { headers: { Cookie: cookie } }),
      context,
      params: { id: sponsored.id, document: "agreement.pdf" },
    })) as Response;
    expect(pdf.status).toBe(200);
    expect(await pdfText(new Uint8Array(await pdf.arrayBuffer()))).toContain("REFERRAL AGREEMENT");
    const others = context.services.store.referrals.all().find((row) => row.referringBrokerLicense === "7000001")!;
    const refused = (await documentLoader({
      request: new Request(`http://localhost/broker/referrals/${others.id}/agreement.pdf`, { headers: { Cookie: cookie } }),
      context,
      params: { id: others.id, document: "agreement.pdf" },
    })) as Response;
    expect(refused.status).toBe(404);
  });

  it("gets no link, and the same answer, for an e-mail TREC does not have, a sales agent's license or an unknown one", async () => {
    for (const fields of [
      { state: "TX", licenseNumber: "9001234", email: "someone@else.example" },
      { state: "TX", licenseNumber: "0654321", email: "dana@example.com" },
      { state: "TX", licenseNumber: "1111111", email: "office@lonestar.example" },
    ])
      expect(await ask(fields)).toEqual({ sent: fields.email });
    expect(await linkMails()).toEqual([]);
    expect(context.services.store.brokers.all()).toEqual([]);
  });

  it("answers a form with a field missing or wrong with 400 and the messages beside the fields, the input kept", async () => {
    const refused = (await ask({ state: "", licenseNumber: "", email: "office at lonestar" })) as {
      init: ResponseInit | null;
      data: { error?: Record<string, string[]>; initialValue?: Record<string, unknown> };
    };
    expect(refused.init?.status).toBe(400);
    expect(refused.data.error).toMatchObject({
      state: ["Please choose the state that issued your broker license"],
      licenseNumber: ["Please enter your broker license number"],
      email: ["Please enter a valid email address"],
    });
    expect(refused.data.initialValue).toMatchObject({ email: "office at lonestar" });
    expect(await linkMails()).toEqual([]);
  });

  it("is limited like a password reset: a fourth request for one e-mail in an hour is refused with 429, the input kept", async () => {
    const fields = { state: "TX", licenseNumber: "9001234", email: "office@lonestar.example" };
    for (let i = 0; i < 3; i += 1) expect(await ask(fields)).toEqual({ sent: fields.email });
    const refused = (await ask(fields)) as {
      init: ResponseInit | null;
      data: { error?: Record<string, string[]>; initialValue?: Record<string, unknown> };
    };
    expect(refused.init?.status).toBe(429);
    expect(refused.data.error?.[""]?.[0]).toMatch(/^Too many link requests\. Please wait \d+ minutes? and try again\.$/);
    expect(refused.data.initialValue).toMatchObject({ licenseNumber: "9001234", email: "office@lonestar.example" });
    expect(await linkMails()).toHaveLength(3);
  });

  it("refuses a forged or expired token with 403 and shows nothing", async () => {
    const secrets = context.services.config.sessionSecrets;
    const genuine = createLinkToken(secrets, "broker-view", { fields: ["TX", "9001234", "office@lonestar.example"], ttlSeconds: 60 });
    const forged = createLinkToken(["another secret"], "broker-view", {
      fields: ["TX", "9001234", "office@lonestar.example"],
      ttlSeconds: 60,
    });
    const expired = createLinkToken(
      secrets,
      "broker-view",
      { fields: ["TX", "9001234", "office@lonestar.example"], ttlSeconds: 60 },
      Date.now() - 120_000,
    );
    const otherPurpose = createLinkToken(secrets, "broker-approval", {
      fields: ["TX", "9001234", "office@lonestar.example"],
      ttlSeconds: 60,
    });
    expect((await viewOf((await open(genuine)).page)).status).toBe(200);
    for (const token of [forged, expired, otherPurpose, `${genuine.slice(0, -2)}xx`]) {
      const { status, data } = await viewOf((await open(token)).page);
      expect(status).toBe(403);
      expect(data.view).toBeNull();
    }
  });

  it("stops working once TREC's e-mail on file changes", async () => {
    await ask({ state: "TX", licenseNumber: "9001234", email: "office@lonestar.example" });
    const [mail] = await linkMails();
    await context.services.licenses.table.replace(each([{ ...LONE_STAR, email: "new@lonestar.example" }, DANA]), "test data");
    expect((await viewOf((await open(tokenOf(mail!))).page)).status).toBe(403);
  });
});

describe("an Oklahoma broker", () => {
  it("is asked to wait for staff, and gets a link only once staff confirm the row", async () => {
    const referral = await insertReferral(james, maria, { receivingBrokerLicense: "155" });
    await insertReferral(dana, james, { receivingBrokerLicense: "155" });
    const request = { state: "OK", licenseNumber: "155", email: "broker@soonerhomes.example" };
    await ask(request);
    const [row] = context.services.store.brokers.all();
    expect(row).toMatchObject({ licenseNumber: "155", state: "OK", email: "broker@soonerhomes.example", status: "pending" });
    await ask(request);
    expect(context.services.store.brokers.all()).toHaveLength(1);
    expect(await linkMails()).toEqual([]);

    await context.services.store.brokers.update(row!.id, { status: "confirmed" });
    await ask(request);
    const mails = await linkMails();
    expect(mails.map((mail) => mail.to)).toEqual(["broker@soonerhomes.example"]);
    const { data } = await viewOf((await open(tokenOf(mails[0]!))).page);
    // Maria is licensed in Oklahoma; a Texas agent whose broker license has the same digits is not this broker's.
    expect(data.view!.referrals.map((shown) => shown.id)).toEqual([referral.id]);
  });
});

describe("a flood of unknown Oklahoma licenses", () => {
  const at = (clientIp: string) => ({ ...context, clientIp });
  const askFrom = (clientIp: string, fields: Record<string, string>) =>
    outcome(() => brokerLinkAction({ request: postForm("/broker", fields), context: at(clientIp), params: {} }));
  const staffMails = async () =>
    (await sentMails(context.services)).filter((mail) => mail.to === context.services.config.supportEmail && /Brokers/.test(mail.subject));

  it("adds one pending row per license, whatever e-mails are typed, and answers each the same", async () => {
    for (let i = 0; i < 20; i += 1) {
      const email = `broker${i}@flood.example`;
      expect(await askFrom(`198.51.100.${i + 1}`, { state: "OK", licenseNumber: "155", email })).toEqual({ sent: email });
    }
    const rows = context.services.store.brokers.all();
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ licenseNumber: "155", email: "broker0@flood.example", status: "pending" });
    expect(await staffMails()).toEqual([]);
  });

  it("adds at most BROKER_REQUESTS_PER_HOUR new pending rows an hour for the whole site, and tells staff once", async () => {
    context = testContext({}, { BROKER_REQUESTS_PER_HOUR: "5" });
    for (let i = 0; i < 20; i += 1) {
      const email = `broker${i}@flood.example`;
      expect(await askFrom(`198.51.100.${i + 1}`, { state: "OK", licenseNumber: String(3000 + i), email })).toEqual({ sent: email });
    }
    expect(context.services.store.brokers.all().map((row) => row.licenseNumber)).toEqual(["3000", "3001", "3002", "3003", "3004"]);
    const mails = await staffMails();
    expect(mails).toHaveLength(1);
    expect(mails[0]!.subject).toBe("[Brokers] Oklahoma broker requests paused for the hour");
    expect(mails[0]!.text).toContain("5 new pending rows");
  });
});

describe("the broker's yearly CSV", () => {
  it("lists each fee paid or received in that year, and refuses a year it does not offer or a browser without a link", async () => {
    const received = await insertReferral(dana, maria, {
      referringBrokerLicense: "9001234",
      receivingBrokerage: "Sooner Homes",
      receivingBrokerLicense: "155",
      status: "fee_received",
      feeAmount: 309000,
    });
    await insertReferral(dana, maria, { referringBrokerLicense: "9001234", status: "closed", feeAmount: 100000 });
    for (const [step, createdAt] of [
      ["fee_paid", "2026-03-02T15:00:00.000Z"],
      ["fee_received", "2026-03-04T15:00:00.000Z"],
    ] as const)
      await context.services.store.referralEvents.insert({
        id: `${step}-1`,
        referralId: received.id,
        step,
        byEmail: dana.email,
        note: "",
        createdAt,
      });

    await ask({ state: "TX", licenseNumber: "9001234", email: "office@lonestar.example" });
    const { cookie } = await open(tokenOf((await linkMails())[0]!));
    const csv = (await feesLoader({
      request: new Request("http://localhost/broker/fees.csv?year=2026", { headers: { Cookie: cookie } }),
      context,
      params: {},
    })) as Response;
    expect(csv.status).toBe(200);
    expect(csv.headers.get("Content-Disposition")).toBe('attachment; filename="referral-fees-2026.csv"');
    const lines = (await csv.text())
      .replace(/^\uFEFF/, "")
      .trim()
      .split("\r\n");
    expect(lines).toHaveLength(2);
    expect(lines[1]).toMatch(/^2026-03-02,2026-03-04,Received,No\. [0-9A-F]{8},Sooner Homes,155,Dana Reyes,Maria Delgado,A\.,3090\.00$/);

    const badYear = (await feesLoader({
      request: new Request("http://localhost/broker/fees.csv?year=1999", { headers: { Cookie: cookie } }),
      context,
      params: {},
    })) as Response;
    expect(badYear.status).toBe(400);
    const noLink = (await feesLoader({
      request: new Request("http://localhost/broker/fees.csv?year=2026"),
      context,
      params: {},
    })) as Response;
    expect(noLink.status).toBe(403);
  });
});
