import type { AppLoadContext } from "@remix-run/node";
import { beforeEach, describe, expect, it } from "vitest";
import type { TrecLicense } from "../../app/domain/license-check";
import type { Agent, Referral } from "../../app/domain/workbook/tabs";
import { action as proposeAction } from "../../app/routes/referral-requests.$id.propose";
import { action as referralAction, loader as referralLoader } from "../../app/routes/referrals.$id._index/route";
import { insertAgent, sentMails, testContext } from "../support/services";
import { get, insertRequest, outcome, post, sessionCookie, type Rejection } from "./requests-support";

/**
 * The license re-checks at signing, under contract and closed, on SQLite with TREC data
 * loaded into the license table the way a refresh loads it.
 */

let context: AppLoadContext;
let dana: Agent;
let james: Agent;
let cookies: Record<"dana" | "james", string>;
let requestId: string;
let responseId: string;

const active = (licenseNumber: string, fullName: string, licenseType = "SALE"): TrecLicense => ({
  licenseNumber,
  licenseType,
  fullName,
  suffix: "",
  status: "Current and active",
  expiration: "2099-12-31",
  sponsorName: licenseType === "SALE" ? "LONE STAR REALTY LLC" : "",
  sponsorLicenseNumber: licenseType === "SALE" ? "9001234" : "",
  email: "",
});

const DANA = active("0654321", "REYES, DANA MARIE");
const JAMES = active("0612345", "WHITFIELD, JAMES");
const BROKER = active("9001234", "LONE STAR REALTY LLC", "BLLC");

async function* each(records: readonly TrecLicense[]): AsyncIterable<TrecLicense> {
  yield* records;
}

/** TREC's data as a refresh would leave it. */
function loadTrec(...records: TrecLicense[]): Promise<number> {
  return context.services.licenses.table.replace(each(records), "test data");
}

async function setUp(danaState: "TX" | "OK") {
  context = testContext();
  const texan = danaState === "TX";
  dana = await insertAgent(context, {
    fullName: "Dana Reyes",
    email: "dana@example.com",
    licenseState: danaState,
    licenseNumber: texan ? "0654321" : "178765",
    brokerage: texan ? "Lone Star Realty" : "Sooner Homes",
    brokerLicenseNumber: texan ? "9001234" : "155",
  });
  james = await insertAgent(context, {
    fullName: "James Whitfield",
    email: "james@example.com",
    licenseState: "TX",
    licenseNumber: "0612345",
    brokerage: "Lone Star Realty",
    brokerLicenseNumber: "9001234",
  });
  cookies = { dana: await sessionCookie(context, dana), james: await sessionCookie(context, james) };
  requestId = (await insertRequest(context, dana, { requestType: "referral", clientType: "buyer" })).id;
  responseId = (
    await context.services.store.responses.insert({
      id: "response-1",
      requestId,
      fromEmail: james.email,
      fromName: james.fullName,
      toEmail: dana.email,
      message: "Happy to help in Tyler.",
      createdAt: new Date().toISOString(),
    })
  ).id;
}

function act(who: keyof typeof cookies, referralId: string, fields: Record<string, string>) {
  return outcome(() =>
    referralAction({ request: post(`/referrals/${referralId}`, cookies[who], fields), context, params: { id: referralId } }),
  );
}

function stored(id: string): Referral {
  const referral = context.services.store.referrals.get(id);
  if (!referral) throw new Error(`no referral ${id}`);
  return referral;
}

async function proposed(): Promise<string> {
  const fields = {
    referrer: "me",
    clientName: "Ana",
    side: "buyer",
    feeType: "percent",
    feePercent: "25",
    termMonths: "12",
    feeDue: "at closing",
  };
  const result = (await outcome(() =>
    proposeAction({
      request: post(`/referral-requests/${requestId}/propose?response=${responseId}`, cookies.dana, fields),
      context,
      params: { id: requestId },
    }),
  )) as Response;
  expect(result.status).toBe(302);
  return result.headers.get("Location")!.split("/").at(-1)!;
}

async function sign(who: keyof typeof cookies, id: string, fullName: string) {
  const page = (await referralLoader({ request: get(`/referrals/${id}`, cookies[who]), context, params: { id } })) as {
    referral: { hash: string };
  };
  return act(who, id, { intent: "sign", agreementHash: page.referral.hash, fullName, consent: "on", brokerSignoff: "attested" });
}

async function signedAndIntroduced(): Promise<string> {
  const id = await proposed();
  expect(((await sign("dana", id, "Dana Reyes")) as Response).status).toBe(302);
  expect(((await sign("james", id, "James Whitfield")) as Response).status).toBe(302);
  expect(((await act("dana", id, { intent: "introduced" })) as Response).status).toBe(302);
  return id;
}

const UNDER_CONTRACT = { intent: "under_contract", expectedCloseDate: "2027-02-15" };
const CLOSING = { intent: "closed", closeDate: "2027-02-20", salePrice: "412,000", grossCommission: "12,360" };

function licenseMails() {
  return sentMails(context.services).then((mails) => mails.filter((mail) => mail.subject.includes("was refused")));
}

function steps(id: string): string[] {
  return context.services.store.referralEvents.by("referralId", id).map((event) => event.step);
}

describe("a Texas agent's license re-checked at the binding steps", () => {
  beforeEach(() => setUp("TX"));

  it("passes every step while both agents' and brokers' licenses are active, with nothing added to the timeline", async () => {
    await loadTrec(DANA, JAMES, BROKER);
    const id = await signedAndIntroduced();
    expect(((await act("james", id, UNDER_CONTRACT)) as Response).status).toBe(302);
    expect(((await act("james", id, CLOSING)) as Response).status).toBe(302);
    expect(stored(id).status).toBe("closed");
    expect(steps(id)).toEqual([
      "proposed",
      "accepted",
      "broker-attested",
      "accepted",
      "broker-attested",
      "signed",
      "introduced",
      "under_contract",
      "closed",
    ]);
    expect(await licenseMails()).toEqual([]);
  });

  it("refuses under contract with 400 and the reason once the license lapsed after signing, stores nothing, and tells both parties once", async () => {
    await loadTrec(DANA, JAMES, BROKER);
    const id = await signedAndIntroduced();
    const before = stored(id);
    const eventsBefore = steps(id);
    // The next refresh finds Dana's license expired.
    await loadTrec({ ...DANA, status: "Expired", expiration: "2026-10-31" }, JAMES, BROKER);

    const refused = (await act("james", id, UNDER_CONTRACT)) as Rejection;
    expect(refused.init?.status).toBe(400);
    const reason =
      "This step needs active licenses: Dana Reyes's Texas license 0654321 is expired in TREC's data. Nothing was changed; try again once TREC shows the license active.";
    expect(refused.data.error?.[""]).toEqual([reason]);
    expect(refused.data.initialValue).toMatchObject({ intent: "under_contract", expectedCloseDate: "2027-02-15" });
    expect(stored(id)).toEqual(before);
    expect(steps(id)).toEqual(eventsBefore);

    const mails = await licenseMails();
    expect(mails.map((mail) => mail.to).sort()).toEqual([dana.email, james.email]);
    expect(mails[0]?.subject).toBe("Referral for Ana: Under contract was refused: a license is not active");
    expect(mails[0]?.text).toContain(reason);
    // Trying again is refused the same way, without mailing again.
    expect(((await act("james", id, UNDER_CONTRACT)) as Rejection).init?.status).toBe(400);
    expect(await licenseMails()).toHaveLength(2);

    // Renewed: the step goes ahead.
    await loadTrec(DANA, JAMES, BROKER);
    expect(((await act("james", id, UNDER_CONTRACT)) as Response).status).toBe(302);
    expect(stored(id).status).toBe("under_contract");
  });

  it("refuses closed when the sponsoring broker's license went inactive", async () => {
    await loadTrec(DANA, JAMES, BROKER);
    const id = await signedAndIntroduced();
    expect(((await act("james", id, UNDER_CONTRACT)) as Response).status).toBe(302);
    await loadTrec(DANA, JAMES, { ...BROKER, status: "Current and inactive" });
    const refused = (await act("james", id, CLOSING)) as Rejection;
    expect(refused.init?.status).toBe(400);
    expect(refused.data.error?.[""]?.[0]).toContain("Dana Reyes's sponsoring broker's license 9001234 is inactive in TREC's data");
    expect(stored(id).status).toBe("under_contract");
    expect(stored(id).salePrice).toBeUndefined();
  });

  it("refuses signing with a lapsed license: no signature is recorded", async () => {
    await loadTrec(DANA, { ...JAMES, status: "Suspended" }, BROKER);
    const id = await proposed();
    const before = stored(id);
    const refused = (await sign("dana", id, "Dana Reyes")) as Rejection;
    expect(refused.init?.status).toBe(400);
    expect(refused.data.error?.[""]?.[0]).toContain("James Whitfield's Texas license 0612345 is suspended in TREC's data");
    expect(stored(id)).toEqual(before);
    const mails = await licenseMails();
    expect(mails.map((mail) => mail.subject)).toEqual([
      "Referral for Ana: Signing the agreement was refused: a license is not active",
      "Referral for Ana: Signing the agreement was refused: a license is not active",
    ]);
  });

  it("lets every step through when no TREC data is loaded", async () => {
    const id = await signedAndIntroduced();
    expect(((await act("james", id, UNDER_CONTRACT)) as Response).status).toBe(302);
    expect(stored(id).status).toBe("under_contract");
  });
});

describe("an Oklahoma agent at the binding steps", () => {
  beforeEach(() => setUp("OK"));

  it("passes, and the first checked step puts OREC's search links on the timeline for staff, once", async () => {
    await loadTrec(JAMES, BROKER);
    const id = await signedAndIntroduced();
    expect(((await act("james", id, UNDER_CONTRACT)) as Response).status).toBe(302);
    expect(((await act("james", id, CLOSING)) as Response).status).toBe(302);
    expect(stored(id).status).toBe("closed");
    const checks = context.services.store.referralEvents.by("referralId", id).filter((event) => event.step === "license-check");
    // Two signatures, under contract and closed checked the same licenses: one row says so.
    expect(checks).toHaveLength(1);
    for (const check of checks)
      expect(check.note).toBe(
        "Dana Reyes, licensed in Oklahoma: Search license 178765 at https://orec.us/\nDana Reyes's sponsoring broker: Search license 155 at https://orec.us/",
      );
    expect(await licenseMails()).toEqual([]);
  });
});
