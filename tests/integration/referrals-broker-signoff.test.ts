/**
 * Broker sign-off on SQLite, through the routes: each agent signs once and asks their
 * broker, each broker approves through the mailed link, and the agreement is in force only
 * then. A link forged, expired, used, for another broker or for another text is refused
 * with a clear page and changes nothing.
 */
import type { AppLoadContext } from "@remix-run/node";
import { beforeEach, describe, expect, it } from "vitest";
import type { Agent, Referral } from "../../app/domain/workbook/tabs";
import { action as approvalAction, loader as approvalLoader } from "../../app/routes/broker-approval";
import { action as proposeAction } from "../../app/routes/referral-requests.$id.propose";
import { loader as printLoader } from "../../app/routes/referrals.$id.agreement";
import { action as referralAction, loader as referralLoader } from "../../app/routes/referrals.$id._index/route";
import { readBrokerLink } from "../../app/server/referrals/broker-signoff.server";
import { pdfText } from "../support/pdf-text";
import { insertAgent, sentMails, testContext } from "../support/services";
import { get, insertRequest, outcome, sessionCookie, type Rejection } from "./requests-support";

let context: AppLoadContext;
let maria: Agent;
let james: Agent;
let cookies: Record<"maria" | "james", string>;
let referralId: string;

const BROKER_UA = "Mozilla/5.0 BrokerTest/1.0";

function post(url: string, fields: Record<string, string>, cookie = ""): Request {
  return new Request(`http://localhost${url}`, {
    method: "POST",
    headers: { Cookie: cookie, "User-Agent": BROKER_UA },
    body: new URLSearchParams(fields),
  });
}

beforeEach(async () => {
  context = testContext();
  context.clientIp = "203.0.113.9";
  maria = await insertAgent(context, {
    fullName: "Maria Delgado",
    email: "maria@example.com",
    brokerage: "Sooner Homes",
    brokerLicenseNumber: "OK-155",
    brokerEmail: "broker@soonerhomes.example",
  });
  james = await insertAgent(context, {
    fullName: "James Whitfield",
    email: "james@example.com",
    brokerage: "Lone Star Realty",
    brokerLicenseNumber: "0412345",
    brokerEmail: "broker@lonestar.example",
  });
  cookies = { maria: await sessionCookie(context, maria), james: await sessionCookie(context, james) };
  const requestId = (await insertRequest(context, maria, { requestType: "referral", clientType: "buyer" })).id;
  const response = await context.services.store.responses.insert({
    id: "response-1",
    requestId,
    fromEmail: james.email,
    fromName: james.fullName,
    toEmail: maria.email,
    message: "Happy to help in Austin.",
    createdAt: new Date().toISOString(),
  });
  const proposal = {
    referrer: "me",
    clientName: "Ana",
    side: "buyer",
    feeType: "percent",
    feePercent: "25",
    termMonths: "12",
    feeDue: "at closing",
  };
  const proposed = (await outcome(() =>
    proposeAction({
      request: post(`/referral-requests/${requestId}/propose?response=${response.id}`, proposal, cookies.maria),
      context,
      params: { id: requestId },
    }),
  )) as Response;
  referralId = proposed.headers.get("Location")!.split("/").at(-1)!;
});

function stored(): Referral {
  return context.services.store.referrals.get(referralId)!;
}

async function pageOf(who: "maria" | "james") {
  const page = (await referralLoader({ request: get(`/referrals/${referralId}`, cookies[who]), context, params: { id: referralId } })) as {
    referral: { hash: string; brokers: { state: string; signedOff: boolean }[]; canSign: boolean; canAskBroker: boolean };
  };
  return page.referral;
}

async function sign(who: "maria" | "james", name: string, brokerSignoff: "attested" | "requested") {
  const fields = { intent: "sign", agreementHash: (await pageOf(who)).hash, fullName: name, consent: "on", brokerSignoff };
  return outcome(() =>
    referralAction({ request: post(`/referrals/${referralId}`, fields, cookies[who]), context, params: { id: referralId } }),
  );
}

/** The token of the last approval link mailed to `to` (the outbox lists the newest first). */
async function mailedToken(to: string): Promise<string> {
  const mail = (await sentMails(context.services)).find((sent) => sent.to === to && sent.subject.startsWith("Please approve"));
  const match = /\/broker-approval\?token=(\S+)/.exec(mail?.text ?? "");
  if (!match) throw new Error(`no approval link mailed to ${to}`);
  return decodeURIComponent(match[1]!);
}

/** Opens the mailed link as a browser does: the token moves into a cookie, then the bare page. */
async function openLink(token: string): Promise<string> {
  const moved = (await outcome(() =>
    approvalLoader({ request: get(`/broker-approval?token=${encodeURIComponent(token)}`, ""), context, params: {} }),
  )) as Response;
  expect(moved.status).toBe(302);
  expect(moved.headers.get("Location")).toBe("/broker-approval");
  return moved.headers.get("Set-Cookie")!.split(";")[0]!;
}

/** The page the link opens: the agreement, or (with a status) why the link does not work. */
function approvalPage(cookie: string): Promise<unknown> {
  return outcome(() => approvalLoader({ request: get("/broker-approval", cookie), context, params: {} }));
}

function approve(cookie: string, fields: Record<string, string>) {
  return outcome(() => approvalAction({ request: post("/broker-approval", fields, cookie), context, params: {} }));
}

function signoffRows() {
  return context.services.store.brokerSignoffs.by("referralId", referralId);
}

describe("a whole referral with both brokers approving by link", () => {
  it("is in force only once both agents signed once and both brokers approved; each approval recorded like a signature", async () => {
    expect(((await sign("maria", "Maria Delgado", "requested")) as Response).status).toBe(302);
    expect(((await sign("james", "James Whitfield", "requested")) as Response).status).toBe(302);
    expect(stored().status).toBe("proposed");
    expect((await pageOf("maria")).brokers.map((broker) => broker.state)).toEqual([
      expect.stringMatching(/^Waiting for Sooner Homes's approval, link expires [A-Z][a-z]{2} \d{1,2}, \d{4}, \d{1,2}:\d{2} [AP]M C[SD]T$/),
      expect.stringMatching(/^Waiting for Lone Star Realty's approval, link expires /),
    ]);
    const toMaria = (await sentMails(context.services)).filter((mail) => mail.to === maria.email).map((mail) => mail.subject);
    expect(toMaria).toContain(
      "Referral for Ana: James Whitfield signed the referral agreement: it is in force once both brokers have signed off",
    );
    // Nobody signs twice: the agents' forms are gone.
    expect(await pageOf("maria")).toMatchObject({ canSign: false, canAskBroker: false });

    const soonerCookie = await openLink(await mailedToken("broker@soonerhomes.example"));
    const page = (await approvalPage(soonerCookie)) as { agreement: { text: string; brokerName: string } };
    expect(page.agreement.brokerName).toBe("Sooner Homes");
    expect(page.agreement.text).toContain("REFERRAL AGREEMENT BETWEEN BROKERS");
    expect(((await approve(soonerCookie, { signedName: "Rosa Perez", signedLicense: "ok 155" })) as Response).status).toBe(302);
    expect(stored().status).toBe("proposed");

    const lonestarCookie = await openLink(await mailedToken("broker@lonestar.example"));
    expect(((await approve(lonestarCookie, { signedName: "John Smith", signedLicense: "412345" })) as Response).status).toBe(302);
    const inForce = stored();
    expect(inForce.status).toBe("signed");
    expect(inForce.signedAt).toBeDefined();
    expect(inForce.referringSignedHash).toBe(inForce.agreementHash);

    const approval = signoffRows().find((row) => row.kind === "approved" && row.side === "receiving")!;
    expect(approval).toMatchObject({
      signedName: "John Smith",
      signedLicense: "412345",
      signedIp: "203.0.113.9",
      signedAgent: BROKER_UA,
      agreementHash: inForce.agreementHash,
      brokerLicense: "0412345",
    });
    expect((await pageOf("james")).brokers.map((broker) => broker.state)).toEqual([
      expect.stringMatching(/^Approved by Rosa Perez, /),
      expect.stringMatching(/^Approved by John Smith, /),
    ]);
    const steps = context.services.store.referralEvents.by("referralId", referralId).map((event) => event.step);
    expect(steps).toEqual([
      "proposed",
      "accepted",
      "broker-requested",
      "accepted",
      "broker-requested",
      "broker-approved",
      "broker-approved",
      "signed",
    ]);

    const mails = await sentMails(context.services);
    const approvedNotices = mails.filter((mail) => mail.subject.includes("approved the referral agreement"));
    expect(approvedNotices.map((mail) => mail.to).sort()).toEqual([james.email, james.email, maria.email, maria.email]);
    const copies = mails.filter((mail) => mail.subject === "Referral agreement in force: Ana");
    expect(copies.map((mail) => mail.to).sort()).toEqual(["broker@lonestar.example", "broker@soonerhomes.example"]);
    // Brokers find the broker's view through the mails they get.
    for (const mail of [...copies, ...mails.filter((sent) => sent.subject.startsWith("Please approve"))])
      expect(mail.text).toMatch(/Every referral of the agents you sponsor, with each year's fees as a CSV: http:\/\/[^/\s]+\/broker$/m);
    const pdf = await pdfText(Buffer.from(copies[0]!.attachments![0]!.content, "base64"));
    expect(pdf).toContain("Broker sign-offs");
    expect(pdf).toContain("Receiving broker Lone Star Realty (license 0412345): approved by John Smith (license 412345)");
  });

  it("an attested broker needs no link: in force when both agents signed, and the broker gets a copy", async () => {
    await sign("maria", "Maria Delgado", "attested");
    await sign("james", "James Whitfield", "attested");
    expect(stored().status).toBe("signed");
    const printable = (await printLoader({
      request: get(`/referrals/${referralId}/agreement`, cookies.james),
      context,
      params: { id: referralId },
    })) as {
      brokers: { state: string }[];
    };
    expect(printable.brokers.map((broker) => broker.state)).toEqual(["Attested by Maria Delgado", "Attested by James Whitfield"]);
    expect((await pageOf("maria")).brokers.map((broker) => broker.state)).toEqual([
      "Attested by Maria Delgado",
      "Attested by James Whitfield",
    ]);
    const copies = (await sentMails(context.services)).filter((mail) => mail.subject.startsWith("Referral agreement in force"));
    expect(copies.map((mail) => mail.to).sort()).toEqual(["broker@lonestar.example", "broker@soonerhomes.example"]);
  });
});

describe("a broker link that is refused, with a clear page and no change", () => {
  beforeEach(async () => {
    await sign("maria", "Maria Delgado", "attested");
    await sign("james", "James Whitfield", "requested");
  });

  it("refuses a forged token and one whose fields were changed to another referral", async () => {
    const token = await mailedToken("broker@lonestar.example");
    const [carried = "", signature = ""] = token.split(".");
    const fields = JSON.parse(Buffer.from(carried, "base64url").toString("utf8")) as unknown[];
    const otherReferral = Buffer.from(JSON.stringify(["another-referral", ...fields.slice(1)]), "utf8").toString("base64url");
    for (const forged of [`${carried}.${"A".repeat(signature.length)}`, `${otherReferral}.${signature}`, "not-a-token"]) {
      const cookie = await openLink(forged);
      const page = (await approvalPage(cookie)) as Rejection & { data: { refusal: string } };
      expect(page.init?.status).toBe(410);
      expect(page.data.refusal).toContain("This approval link is not valid");
      const refused = (await approve(cookie, { signedName: "John Smith", signedLicense: "0412345" })) as Rejection;
      expect(refused.init?.status).toBe(409);
    }
    expect(signoffRows().filter((row) => row.kind === "approved")).toEqual([]);
    expect(stored().status).toBe("proposed");
  });

  it("refuses an expired link; the agent may then ask again, and the new link works", async () => {
    const token = await mailedToken("broker@lonestar.example");
    const eightDays = new Date(Date.now() + 8 * 24 * 3600 * 1000);
    expect(readBrokerLink(context.services, token, eightDays)).toEqual({ ok: false, reason: "expired" });
    // While the link works, asking again is refused.
    const early = (await outcome(() =>
      referralAction({
        request: post(`/referrals/${referralId}`, { intent: "broker", brokerSignoff: "requested" }, cookies.james),
        context,
        params: { id: referralId },
      }),
    )) as Rejection;
    expect(early.init?.status).toBe(409);
    // The link has expired: the request row says so, and James asks again.
    const asked = signoffRows().find((row) => row.kind === "requested")!;
    await context.services.store.brokerSignoffs.insert({
      ...asked,
      id: "expired-copy",
      expiresAt: new Date(Date.now() - 1000).toISOString(),
      createdAt: new Date(Date.now() + 1).toISOString(),
    });
    expect((await pageOf("james")).canAskBroker).toBe(true);
    const again = (await outcome(() =>
      referralAction({
        request: post(`/referrals/${referralId}`, { intent: "broker", brokerSignoff: "requested" }, cookies.james),
        context,
        params: { id: referralId },
      }),
    )) as Response;
    expect(again.status).toBe(302);
    const cookie = await openLink(await mailedToken("broker@lonestar.example"));
    expect(((await approve(cookie, { signedName: "John Smith", signedLicense: "0412345" })) as Response).status).toBe(302);
    expect(stored().status).toBe("signed");
  });

  it("refuses a used link once approved", async () => {
    const cookie = await openLink(await mailedToken("broker@lonestar.example"));
    expect(((await approve(cookie, { signedName: "John Smith", signedLicense: "0412345" })) as Response).status).toBe(302);
    const rows = signoffRows().length;
    const page = (await approvalPage(cookie)) as Rejection & { data: { refusal: string } };
    expect(page.data.refusal).toBe("This agreement is already approved for your side: nothing more is needed.");
    const again = (await approve(cookie, { signedName: "John Smith", signedLicense: "0412345" })) as Rejection;
    expect(again.init?.status).toBe(409);
    expect(signoffRows()).toHaveLength(rows);
  });

  it("refuses another broker's license number beside the field, the input kept", async () => {
    const cookie = await openLink(await mailedToken("broker@lonestar.example"));
    const refused = (await approve(cookie, { signedName: "Rosa Perez", signedLicense: "OK-155" })) as Rejection;
    expect(refused.init?.status).toBe(400);
    expect(refused.data.error?.signedLicense).toEqual([
      "This approval is for another broker: the license number is not the one this agreement names for this side.",
    ]);
    expect(refused.data.initialValue).toMatchObject({ signedName: "Rosa Perez", signedLicense: "OK-155" });
    const blank = (await approve(cookie, { signedName: "", signedLicense: "" })) as Rejection;
    expect(blank.init?.status).toBe(400);
    expect(blank.data.error).toMatchObject({
      signedName: ["Please type your full name to approve"],
      signedLicense: ["Please type your broker license number"],
    });
    expect(signoffRows().filter((row) => row.kind === "approved")).toEqual([]);
  });

  it("ends a link after five wrong license numbers: refused since, even with the right one, and the agent is mailed to ask again", async () => {
    const cookie = await openLink(await mailedToken("broker@lonestar.example"));
    for (let i = 1; i <= 4; i += 1) {
      const wrong = (await approve(cookie, { signedName: "Guess Er", signedLicense: String(1000 + i) })) as Rejection;
      expect(wrong.init?.status).toBe(400);
      expect(wrong.data.error?.signedLicense?.[0]).toMatch(/^This approval is for another broker/);
    }
    const fifth = (await approve(cookie, { signedName: "Guess Er", signedLicense: "1005" })) as Rejection;
    expect(fifth.init?.status).toBe(409);
    const ended =
      "This approval link can no longer be used: a wrong license number was typed too many times. We have told the agent who sent it; ask them to send you a new link from the referral's page.";
    expect(fifth.data.error?.[""]).toEqual([ended]);
    expect(fifth.data.initialValue).toMatchObject({ signedName: "Guess Er", signedLicense: "1005" });

    const right = (await approve(cookie, { signedName: "John Smith", signedLicense: "0412345" })) as Rejection;
    expect(right.init?.status).toBe(409);
    const page = (await approvalPage(cookie)) as Rejection & { data: { refusal: string; agreement: unknown } };
    expect(page.init?.status).toBe(410);
    expect(page.data).toMatchObject({ refusal: ended, agreement: null });
    expect(signoffRows().filter((row) => row.kind === "approved")).toEqual([]);
    expect(stored().status).toBe("proposed");

    const told = (await sentMails(context.services)).filter((mail) => mail.to === james.email && /approval link/i.test(mail.subject));
    expect(told).toHaveLength(1);
    expect(told[0]!.text).toContain("wrong license number");
    // James may ask again, and the new link works.
    expect((await pageOf("james")).canAskBroker).toBe(true);
    const again = (await outcome(() =>
      referralAction({
        request: post(`/referrals/${referralId}`, { intent: "broker", brokerSignoff: "requested" }, cookies.james),
        context,
        params: { id: referralId },
      }),
    )) as Response;
    expect(again.status).toBe(302);
    const fresh = await openLink(await mailedToken("broker@lonestar.example"));
    expect(((await approve(fresh, { signedName: "John Smith", signedLicense: "0412345" })) as Response).status).toBe(302);
    expect(stored().status).toBe("signed");
  });

  it("refuses a link for an earlier text once the terms changed", async () => {
    const token = await mailedToken("broker@lonestar.example");
    const terms = {
      intent: "terms",
      referrer: "me",
      clientName: "Ana",
      side: "buyer",
      feeType: "percent",
      feePercent: "30",
      termMonths: "12",
      feeDue: "at closing",
    };
    await outcome(() =>
      referralAction({ request: post(`/referrals/${referralId}`, terms, cookies.maria), context, params: { id: referralId } }),
    );
    const cookie = await openLink(token);
    const refused = (await approve(cookie, { signedName: "John Smith", signedLicense: "0412345" })) as Rejection;
    expect(refused.init?.status).toBe(409);
    expect(signoffRows().filter((row) => row.kind === "approved")).toEqual([]);
  });
});
