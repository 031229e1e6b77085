import { createHash } from "node:crypto";
import type { AppLoadContext } from "@remix-run/node";
import { beforeEach, describe, expect, it } from "vitest";
import { agreementText } from "../../app/domain/referrals/agreement-text";
import type { Agent, Referral, RequestResponse } from "../../app/domain/workbook/tabs";
import { action as proposeAction, loader as proposeLoader } from "../../app/routes/referral-requests.$id.propose";
import { loader as requestLoader } from "../../app/routes/referral-requests.$id._index";
import { action as referralAction, loader as referralLoader } from "../../app/routes/referrals.$id._index/route";
import { loader as printLoader } from "../../app/routes/referrals.$id.agreement";
import { loader as pdfLoader } from "../../app/routes/referrals.$id.agreement[.]pdf";
import type { StoredMail } from "../../app/server/mail/mailer.server";
import { pdfText } from "../support/pdf-text";
import { insertAgent, testContext, sentMails } from "../support/services";
import { get, insertRequest, outcome, sessionCookie, type Rejection } from "./requests-support";

let context: AppLoadContext;
let maria: Agent;
let james: Agent;
let olivia: Agent;
let cookies: Record<"maria" | "james" | "olivia", string>;
let requestId: string;
let response: RequestResponse;

const USER_AGENT = "Mozilla/5.0 (X11; Linux x86_64) ReferralTest/1.0";

function post(url: string, cookie: string, fields: Record<string, string>): Request {
  return new Request(`http://localhost${url}`, {
    method: "POST",
    headers: { Cookie: cookie, "User-Agent": USER_AGENT },
    body: new URLSearchParams(fields),
  });
}

beforeEach(async () => {
  context = testContext();
  context.clientIp = "203.0.113.7";
  maria = await insertAgent(context, {
    fullName: "Maria Delgado",
    email: "maria@example.com",
    brokerage: "Sooner Homes",
    brokerLicenseNumber: "OK-155",
  });
  james = await insertAgent(context, {
    fullName: "James Whitfield",
    email: "james@example.com",
    brokerage: "Hill Country Homes",
    brokerLicenseNumber: "TX-9001",
  });
  olivia = await insertAgent(context, { fullName: "Olivia Stone", email: "olivia@example.com" });
  cookies = {
    maria: await sessionCookie(context, maria),
    james: await sessionCookie(context, james),
    olivia: await sessionCookie(context, olivia),
  };
  // Maria posts a referral request for her buyer; James responds.
  requestId = (await insertRequest(context, maria, { requestType: "referral", clientType: "buyer" })).id;
  response = await context.services.store.responses.insert({
    id: "response-1",
    requestId,
    fromEmail: james.email,
    fromName: james.fullName,
    toEmail: maria.email,
    message: "Happy to help in Austin.",
    createdAt: new Date().toISOString(),
  });
});

const PROPOSAL = {
  referrer: "me",
  clientName: "Ana",
  side: "buyer",
  feeType: "percent",
  feePercent: "25",
  termMonths: "12",
  feeDue: "within 10 days after closing or funding",
  terms: '=HYPERLINK("http://evil") <b>bold</b>',
};

function propose(cookie: string, fields: Record<string, string> = PROPOSAL) {
  return outcome(() =>
    proposeAction({
      request: post(`/referral-requests/${requestId}/propose?response=${response.id}`, cookie, fields),
      context,
      params: { id: requestId },
    }),
  );
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

async function proposed(): Promise<Referral> {
  const result = (await propose(cookies.maria)) as Response;
  expect(result.status).toBe(302);
  const id = result.headers.get("Location")!.split("/").at(-1)!;
  return stored(id);
}

async function shownHash(who: keyof typeof cookies, id: string): Promise<string> {
  const page = (await referralLoader({ request: get(`/referrals/${id}`, cookies[who]), context, params: { id } })) as {
    referral: { hash: string };
  };
  return page.referral.hash;
}

async function sign(who: "maria" | "james", id: string, name: string, brokerSignoff: "attested" | "requested" = "attested") {
  return act(who, id, { intent: "sign", agreementHash: await shownHash(who, id), fullName: name, consent: "on", brokerSignoff });
}

function mails(): Promise<StoredMail[]> {
  return sentMails(context.services);
}

const sha256 = (text: string) => createHash("sha256").update(text, "utf8").digest("hex");

describe("proposing a referral", () => {
  it("defaults the agent with the client as the referrer, for the poster and for the responder", async () => {
    const asPoster = await proposeLoader({
      request: get(`/referral-requests/${requestId}/propose?response=${response.id}`, cookies.maria),
      context,
      params: { id: requestId },
    });
    const asResponder = await proposeLoader({
      request: get(`/referral-requests/${requestId}/propose?response=${response.id}`, cookies.james),
      context,
      params: { id: requestId },
    });
    expect(asPoster.defaults).toMatchObject({
      referrer: "me",
      side: "buyer",
      feePercent: "25",
      termMonths: 12,
      feeDue: "within 10 days after closing or funding",
    });
    expect(asResponder.defaults.referrer).toBe("them");
  });

  it("shows Propose referral to the poster beside the response and to the responder beside their own", async () => {
    const forPoster = (
      await requestLoader({
        request: get(`/referral-requests/${requestId}`, cookies.maria),
        context,
        params: { id: requestId },
      })
    ).data;
    const forResponder = (
      await requestLoader({
        request: get(`/referral-requests/${requestId}`, cookies.james),
        context,
        params: { id: requestId },
      })
    ).data;
    const forOther = (
      await requestLoader({
        request: get(`/referral-requests/${requestId}`, cookies.olivia),
        context,
        params: { id: requestId },
      })
    ).data;
    expect(forPoster.responses.map((r) => r.id)).toEqual([response.id]);
    expect(forResponder.responses.map((r) => r.id)).toEqual([response.id]);
    expect(forOther.responses).toEqual([]);
  });

  it("refuses bad input with a message beside each field, the input kept, status 400", async () => {
    const result = (await propose(cookies.maria, {
      ...PROPOSAL,
      clientName: "Ana Smith 555-0100",
      feePercent: "60",
      termMonths: "0",
      feeDue: "",
    })) as { init: ResponseInit; data: Rejection["data"] };
    expect(result.init.status).toBe(400);
    expect(result.data.error).toMatchObject({
      clientName: ["First name or initials only, as one word (no surname, phone or e-mail)"],
      feePercent: ["Please enter a percentage from 1 to 50"],
      termMonths: ["Please enter a term of 1 to 36 months"],
      feeDue: ["Please say when the fee is due"],
    });
    expect(result.data.initialValue).toMatchObject({ clientName: "Ana Smith 555-0100", feePercent: "60" });
    expect(context.services.store.referrals.all()).toEqual([]);
  });

  it("asks for a flat amount in dollars and cents when the fee is flat", async () => {
    const result = (await propose(cookies.maria, { ...PROPOSAL, feeType: "flat", feeFlat: "lots" })) as {
      init: ResponseInit;
      data: Rejection["data"];
    };
    expect(result.init.status).toBe(400);
    expect(result.data.error?.feeFlat).toEqual(["Please enter an amount in dollars and cents, e.g. 2,500.00"]);
    const ok = (await propose(cookies.maria, { ...PROPOSAL, feeType: "flat", feeFlat: "2,500.50" })) as Response;
    expect(ok.status).toBe(302);
    expect(context.services.store.referrals.all()[0]).toMatchObject({ feeType: "flat", feeFlat: 250050, feePercent: undefined });
  });

  it("stores the terms, both brokers and the text's hash, and tells the other agent", async () => {
    const referral = await proposed();
    expect(referral).toMatchObject({
      status: "proposed",
      proposedByEmail: maria.email,
      referringEmail: maria.email,
      receivingEmail: james.email,
      referringBrokerage: "Sooner Homes",
      receivingBrokerLicense: "TX-9001",
      clientName: "Ana",
      feePercent: 25,
      terms: PROPOSAL.terms,
    });
    expect(referral.agreementHash).toBe(sha256(agreementText(referral)));
    const sent = await mails();
    expect(sent.map((mail) => mail.to)).toEqual([james.email]);
    expect(sent[0]!.subject).toContain("proposed a referral agreement");
  });

  it("is refused to anyone but the poster and that responder", async () => {
    const result = (await propose(cookies.olivia)) as Response;
    expect(result.status).toBe(404);
    expect(context.services.store.referrals.all()).toEqual([]);
  });
});

describe("signing", () => {
  it("records name, time, IP, user agent and the SHA-256 of the exact text; both signed makes it signed and mails both the PDF", async () => {
    const referral = await proposed();
    expect(((await sign("james", referral.id, "James R. Whitfield")) as Response).status).toBe(302);
    const once = stored(referral.id);
    expect(once).toMatchObject({
      status: "proposed",
      receivingSignedName: "James R. Whitfield",
      receivingSignedIp: "203.0.113.7",
      receivingSignedAgent: USER_AGENT,
      receivingSignedHash: sha256(agreementText(once)),
    });
    expect(((await sign("maria", referral.id, "Maria Delgado")) as Response).status).toBe(302);
    const both = stored(referral.id);
    expect(both.status).toBe("signed");
    expect(both.referringSignedHash).toBe(both.receivingSignedHash);
    expect(both.signedAt).toBeDefined();
    const months = (Date.parse(both.termEndsAt!) - Date.parse(both.signedAt!)) / (24 * 3600 * 1000);
    expect(months).toBeGreaterThan(364);
    expect(months).toBeLessThan(367);

    const signedMails = (await mails()).filter((mail) => mail.subject.startsWith("Signed referral agreement"));
    expect(signedMails.map((mail) => mail.to).sort()).toEqual([james.email, maria.email]);
    const attachment = signedMails[0]!.attachments![0]!;
    expect(attachment).toMatchObject({ type: "application/pdf", disposition: "attachment" });
    const text = await pdfText(Buffer.from(attachment.content, "base64"));
    expect(text).toContain("REFERRAL AGREEMENT");
    expect(text).toContain("Ana");
    expect(text).toContain("signed by James R. Whitfield");
    expect(text).toContain(both.agreementHash!);
    expect(text).toContain('=HYPERLINK("http://evil") <b>bold</b>');
    expect(text).toContain("Broker sign-offs");
    expect(text).toContain("Receiving broker Hill Country Homes (license TX-9001): the agent james@example.com attested");
  });

  it("sends the signed copy even to a member who turned referral mail off", async () => {
    await context.services.store.agents.update(maria.id, { mailOff: ["referrals"] });
    const referral = await proposed();
    await sign("maria", referral.id, "Maria Delgado");
    await sign("james", referral.id, "James Whitfield");
    const toMaria = (await mails()).filter((mail) => mail.to === maria.email);
    expect(toMaria.map((mail) => mail.subject)).toEqual(["Signed referral agreement: Ana"]);
  });

  it("needs the typed name and the consent tick", async () => {
    const referral = await proposed();
    const result = (await act("james", referral.id, {
      intent: "sign",
      agreementHash: await shownHash("james", referral.id),
      fullName: " ",
    })) as {
      init: ResponseInit;
      data: Rejection["data"];
    };
    expect(result.init.status).toBe(400);
    expect(result.data.error).toMatchObject({
      fullName: ["Please type your full name to sign"],
      consent: ["Please tick the box to agree to sign electronically"],
      brokerSignoff: ["Please choose how your broker signs off"],
    });
    expect(stored(referral.id).receivingSignedAt).toBeUndefined();
  });

  it("refuses a text that changed since the page showed it", async () => {
    const referral = await proposed();
    const hash = await shownHash("james", referral.id);
    await act("maria", referral.id, { intent: "terms", ...PROPOSAL, feePercent: "30" });
    const result = (await act("james", referral.id, {
      intent: "sign",
      agreementHash: hash,
      fullName: "James",
      consent: "on",
      brokerSignoff: "attested",
    })) as {
      init: ResponseInit;
    };
    expect(result.init.status).toBe(409);
    expect(stored(referral.id).receivingSignedAt).toBeUndefined();
  });

  it("refuses a proposal until both agents have a sponsoring broker: the proposer is sent to Edit profile, the other named", async () => {
    await context.services.store.agents.update(james.id, { brokerLicenseNumber: undefined });
    const otherMissing = (await propose(cookies.maria)) as { init: ResponseInit; data: Rejection["data"] };
    expect(otherMissing.init.status).toBe(409);
    expect(otherMissing.data.error?.[""]).toEqual([
      "James Whitfield has not added their sponsoring broker yet: the agreement names both brokers.",
    ]);
    await context.services.store.agents.update(maria.id, { brokerage: " " });
    const ownMissing = (await propose(cookies.maria)) as { init: ResponseInit; data: Rejection["data"] };
    expect(ownMissing.init.status).toBe(409);
    expect(ownMissing.data.error?.[""]?.[0]).toContain("Edit profile");
    const page = await proposeLoader({
      request: get(`/referral-requests/${requestId}/propose?response=${response.id}`, cookies.maria),
      context,
      params: { id: requestId },
    });
    expect(page.brokerMissing).toBe(true);
    expect(context.services.store.referrals.all()).toEqual([]);
  });

  it("never changes the text at signing: a broker edited in a profile after the proposal leaves the first signature standing", async () => {
    const referral = await proposed();
    await sign("maria", referral.id, "Maria Delgado");
    await context.services.store.agents.update(james.id, { brokerage: "Capitol Realty", brokerLicenseNumber: "TX-42" });
    expect(((await sign("james", referral.id, "James Whitfield")) as Response).status).toBe(302);
    const after = stored(referral.id);
    expect(after).toMatchObject({ status: "signed", receivingBrokerage: "Hill Country Homes", receivingBrokerLicense: "TX-9001" });
    expect(after.agreementHash).toBe(referral.agreementHash);
    expect(after.referringSignedHash).toBe(referral.agreementHash);
    expect(after.agreementHash).toBe(sha256(agreementText(after)));
  });

  it("keeps the full-id text of an agreement proposed before short references, so its first signature stands", async () => {
    const referral = await proposed();
    // A row as the app stored it before short references (the first text): its hash and Maria's acceptance cover the full-id line.
    const earlierHash = sha256(agreementText({ ...referral, agreementVersion: undefined }, "full ids"));
    await context.services.store.referrals.update(referral.id, {
      agreementVersion: undefined,
      agreementHash: earlierHash,
      referringSignedName: "Maria Delgado",
      referringSignedAt: new Date().toISOString(),
      referringSignedHash: earlierHash,
    });
    const page = (await referralLoader({
      request: get(`/referrals/${referral.id}`, cookies.james),
      context,
      params: { id: referral.id },
    })) as { referral: { text: string; hash: string } };
    expect(page.referral.text).toContain(`Agreement ${referral.id}, from request ${requestId}.`);
    expect(page.referral.hash).toBe(earlierHash);
    expect(((await sign("james", referral.id, "James Whitfield")) as Response).status).toBe(302);
    // Maria signed before brokers signed off: she attests for hers on the same text, which puts it in force.
    expect(stored(referral.id).status).toBe("proposed");
    expect(((await act("maria", referral.id, { intent: "broker", brokerSignoff: "attested" })) as Response).status).toBe(302);
    expect(stored(referral.id)).toMatchObject({ status: "signed", referringSignedHash: earlierHash, receivingSignedHash: earlierHash });
  });
});

describe("before signing", () => {
  it("a term change resets both acceptances with a new hash and a terms-changed event", async () => {
    const referral = await proposed();
    await sign("james", referral.id, "James Whitfield");
    expect(
      ((await act("james", referral.id, { intent: "terms", ...PROPOSAL, referrer: "them", feePercent: "30" })) as Response).status,
    ).toBe(302);
    const after = stored(referral.id);
    expect(after).toMatchObject({
      feePercent: 30,
      receivingSignedAt: undefined,
      receivingSignedHash: undefined,
      referringSignedAt: undefined,
    });
    expect(after.agreementHash).not.toBe(referral.agreementHash);
    expect(after.agreementHash).toBe(sha256(agreementText(after)));
    const steps = context.services.store.referralEvents.by("referralId", referral.id).map((event) => event.step);
    expect(steps).toEqual(["proposed", "accepted", "broker-attested", "terms-changed"]);
  });

  it("only the other agent declines and only the proposer withdraws", async () => {
    const referral = await proposed();
    expect(((await act("maria", referral.id, { intent: "decline" })) as { init: ResponseInit }).init.status).toBe(403);
    expect(((await act("james", referral.id, { intent: "withdraw" })) as { init: ResponseInit }).init.status).toBe(403);
    expect(stored(referral.id).status).toBe("proposed");
    expect(((await act("james", referral.id, { intent: "decline", note: "Not my area after all" })) as Response).status).toBe(302);
    expect(stored(referral.id).status).toBe("declined");
    const second = await proposed();
    expect(((await act("maria", second.id, { intent: "withdraw" })) as Response).status).toBe(302);
    expect(stored(second.id).status).toBe("withdrawn");
  });
});

describe("a post the page did not send", () => {
  it("is refused with 400 when its intent is unknown, and changes nothing", async () => {
    const referral = await proposed();
    const result = (await act("james", referral.id, { intent: "status", status: "fee_received" })) as {
      init: ResponseInit;
      data: Rejection["data"];
    };
    expect(result.init.status).toBe(400);
    expect(result.data.error?.[""]).toEqual(["This form could not be read. Please reload the page and try again."]);
    expect(stored(referral.id)).toEqual(referral);
  });
});

describe("the pipeline", () => {
  async function signedReferral(): Promise<Referral> {
    const referral = await proposed();
    await sign("maria", referral.id, "Maria Delgado");
    await sign("james", referral.id, "James Whitfield");
    return stored(referral.id);
  }

  it("each step by its party to the fee received, the fee computed, each step on the timeline and mailed to the other", async () => {
    const referral = await signedReferral();
    const before = (await mails()).length;
    expect(((await act("maria", referral.id, { intent: "introduced", note: "Ana expects your call" })) as Response).status).toBe(302);
    expect(((await act("james", referral.id, { intent: "under_contract", expectedCloseDate: "2027-02-15" })) as Response).status).toBe(302);
    const closed = (await act("james", referral.id, {
      intent: "closed",
      closeDate: "2027-02-20",
      salePrice: "$412,000.00",
      grossCommission: "12,360.00",
    })) as Response;
    expect(closed.status).toBe(302);
    expect(stored(referral.id)).toMatchObject({ status: "closed", salePrice: 41200000, grossCommission: 1236000, feeAmount: 309000 });
    expect(((await act("james", referral.id, { intent: "fee_paid", note: "Wired broker to broker" })) as Response).status).toBe(302);
    expect(((await act("maria", referral.id, { intent: "fee_received" })) as Response).status).toBe(302);
    expect(stored(referral.id).status).toBe("fee_received");
    const steps = context.services.store.referralEvents.by("referralId", referral.id).map((event) => event.step);
    expect(steps).toEqual([
      "proposed",
      "accepted",
      "broker-attested",
      "accepted",
      "broker-attested",
      "signed",
      "introduced",
      "under_contract",
      "closed",
      "fee_paid",
      "fee_received",
    ]);
    const newMails = (await mails()).slice(0, (await mails()).length - before);
    // The fee received ends the referral: both parties are also invited to review each other.
    const isInvitation = (mail: { subject: string }) => mail.subject.startsWith("Review your referral");
    const stepMails = newMails.filter((mail) => !isInvitation(mail));
    expect(stepMails.map((mail) => mail.to).sort()).toEqual([james.email, james.email, maria.email, maria.email, maria.email]);
    expect(
      newMails
        .filter(isInvitation)
        .map((mail) => mail.to)
        .sort(),
    ).toEqual([james.email, maria.email]);
  });

  it("refuses a wrong-party or out-of-order step with 403 and changes nothing", async () => {
    const referral = await signedReferral();
    const eventsBefore = context.services.store.referralEvents.all().length;
    const wrongParty = (await act("james", referral.id, { intent: "introduced" })) as { init: ResponseInit; data: Rejection["data"] };
    expect(wrongParty.init.status).toBe(403);
    const outOfOrder = (await act("james", referral.id, { intent: "fee_paid" })) as { init: ResponseInit };
    expect(outOfOrder.init.status).toBe(403);
    expect(stored(referral.id)).toEqual(referral);
    expect(context.services.store.referralEvents.all()).toHaveLength(eventsBefore);
  });

  it("lost needs a reason, and ends the referral", async () => {
    const referral = await signedReferral();
    const blank = (await act("james", referral.id, { intent: "lost", reason: "" })) as { init: ResponseInit; data: Rejection["data"] };
    expect(blank.init.status).toBe(400);
    expect(blank.data.error?.reason).toEqual(["Please say why the referral was lost"]);
    expect(((await act("james", referral.id, { intent: "lost", reason: "Client chose to rent" })) as Response).status).toBe(302);
    expect(stored(referral.id)).toMatchObject({ status: "lost", lostReason: "Client chose to rent" });
  });

  it("closed checks its dates and amounts", async () => {
    const referral = await signedReferral();
    await act("maria", referral.id, { intent: "introduced" });
    await act("james", referral.id, { intent: "under_contract", expectedCloseDate: "2027-02-15" });
    const bad = (await act("james", referral.id, { intent: "closed", closeDate: "soon", salePrice: "abc", grossCommission: "" })) as {
      init: ResponseInit;
      data: Rejection["data"];
    };
    expect(bad.init.status).toBe(400);
    expect(Object.keys(bad.data.error ?? {}).sort()).toEqual(["closeDate", "grossCommission", "salePrice"]);
    expect(bad.data.initialValue).toMatchObject({ closeDate: "soon", salePrice: "abc" });
  });

  it("closed refuses a price under $1,000 and a commission over the price beside the field, keeps the input and stores nothing", async () => {
    const referral = await signedReferral();
    await act("maria", referral.id, { intent: "introduced" });
    await act("james", referral.id, { intent: "under_contract", expectedCloseDate: "2027-02-15" });
    const before = stored(referral.id);
    const close = (salePrice: string, grossCommission: string) =>
      act("james", referral.id, { intent: "closed", closeDate: "2027-02-20", salePrice, grossCommission }) as Promise<{
        init: ResponseInit;
        data: Rejection["data"];
      }>;

    const cents = await close("0.25", "12,360.00");
    expect(cents.init.status).toBe(400);
    expect(cents.data.error).toEqual({
      salePrice: ["A sale price is at least $1,000: please enter the whole price in dollars, e.g. 350,000.00"],
    });
    expect(cents.data.initialValue).toMatchObject({ salePrice: "0.25", grossCommission: "12,360.00" });

    const overPrice = await close("$412,000.00", "500,000");
    expect(overPrice.init.status).toBe(400);
    expect(overPrice.data.error).toEqual({ grossCommission: ["The gross commission cannot be more than the sale price"] });
    expect(stored(referral.id)).toEqual(before);

    expect(((await close("$412,000.00", "12,360.00")) as unknown as Response).status).toBe(302);
  });
});

describe("a third member", () => {
  it("gets 404 on every referral address, and nothing changes", async () => {
    const referral = await proposed();
    const id = referral.id;
    const params = { id };
    const answers = [
      await outcome(() => referralLoader({ request: get(`/referrals/${id}`, cookies.olivia), context, params })),
      await outcome(() => printLoader({ request: get(`/referrals/${id}/agreement`, cookies.olivia), context, params })),
      await outcome(() => pdfLoader({ request: get(`/referrals/${id}/agreement.pdf`, cookies.olivia), context, params })),
      await act("olivia", id, { intent: "decline" }),
      await act("olivia", id, {
        intent: "sign",
        agreementHash: referral.agreementHash!,
        fullName: "Olivia",
        consent: "on",
        brokerSignoff: "attested",
      }),
    ];
    for (const answer of answers) expect((answer as Response).status).toBe(404);
    expect(stored(id)).toEqual(referral);
  });

  it("the parties get the PDF of the agreement", async () => {
    const referral = await proposed();
    const pdf = (await pdfLoader({
      request: get(`/referrals/${referral.id}/agreement.pdf`, cookies.james),
      context,
      params: { id: referral.id },
    })) as Response;
    expect(pdf.headers.get("Content-Type")).toBe("application/pdf");
    expect(await pdfText(new Uint8Array(await pdf.arrayBuffer()))).toContain("Receiving agent: not signed yet");
  });
});
