/**
 * Referral agreements between members who blocked each other, and the limits on how often
 * one member may act on referrals and how often the other party is mailed about it.
 */
import type { AppLoadContext } from "@remix-run/node";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { BLOCKED_CANNOT_REFER } from "../../app/domain/moderation";
import type { Agent, Referral, RequestResponse } from "../../app/domain/workbook/tabs";
import { action as proposeAction, loader as proposeLoader } from "../../app/routes/referral-requests.$id.propose";
import { action as referralAction, loader as referralLoader } from "../../app/routes/referrals.$id._index/route";
import type { StoredMail } from "../../app/server/mail/mailer.server";
import { setBlock } from "../../app/server/moderation/blocks.server";
import { insertAgent, testContext, sentMails } from "../support/services";
import { get, insertRequest, outcome, post, sessionCookie, type Rejection } from "./requests-support";

let context: AppLoadContext;
let maria: Agent;
let james: Agent;
let cookies: Record<"maria" | "james", string>;
let requestId: string;
let response: RequestResponse;

async function setUp(env: Record<string, string> = {}) {
  context = testContext({}, env);
  context.clientIp = "203.0.113.7";
  maria = await insertAgent(context, { fullName: "Maria Delgado", email: "maria@example.com", brokerLicenseNumber: "OK-155" });
  james = await insertAgent(context, { fullName: "James Whitfield", email: "james@example.com", brokerLicenseNumber: "TX-9001" });
  cookies = { maria: await sessionCookie(context, maria), james: await sessionCookie(context, james) };
  // Maria posts a request; James responds.
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
}

afterEach(() => {
  vi.useRealTimers();
});

const PROPOSAL = {
  referrer: "me",
  clientName: "Ana",
  side: "buyer",
  feeType: "percent",
  feePercent: "25",
  termMonths: "12",
  feeDue: "within 10 days after closing or funding",
  terms: "",
};

const proposalUrl = () => `/referral-requests/${requestId}/propose?response=${response.id}`;

function propose(who: keyof typeof cookies, fields: Record<string, string> = PROPOSAL) {
  return outcome(() => proposeAction({ request: post(proposalUrl(), cookies[who], fields), context, params: { id: requestId } }));
}

function act(who: keyof typeof cookies, referralId: string, fields: Record<string, string>) {
  return outcome(() =>
    referralAction({ request: post(`/referrals/${referralId}`, cookies[who], fields), context, params: { id: referralId } }),
  );
}

async function pageOf(who: keyof typeof cookies, id: string) {
  return (await referralLoader({ request: get(`/referrals/${id}`, cookies[who]), context, params: { id } })) as {
    referral: { hash: string; canSign: boolean; canChangeTerms: boolean; blocked: boolean };
  };
}

async function sign(who: keyof typeof cookies, id: string, fullName: string) {
  return act(who, id, {
    intent: "sign",
    agreementHash: (await pageOf(who, id)).referral.hash,
    fullName,
    consent: "on",
    brokerSignoff: "attested",
  });
}

function stored(id: string): Referral {
  const referral = context.services.store.referrals.get(id);
  if (!referral) throw new Error(`no referral ${id}`);
  return referral;
}

async function proposed(who: keyof typeof cookies = "maria"): Promise<Referral> {
  const result = (await propose(who)) as Response;
  expect(result.status).toBe(302);
  return stored(result.headers.get("Location")!.split("/").at(-1)!);
}

function block(blocker: Agent, blocked: Agent, on = true) {
  return setBlock(context.services, { blocker, blocked, on, now: new Date() });
}

async function mailsTo(agent: Agent): Promise<StoredMail[]> {
  return (await sentMails(context.services)).filter((mail) => mail.to === agent.email);
}

function statusOf(result: unknown): number | undefined {
  if (result instanceof Response) return result.status;
  return (result as Rejection).init?.status ?? undefined;
}

function formError(result: unknown): string | undefined {
  return (result as Rejection).data.error?.[""]?.[0];
}

const newTerms = (feePercent: string) => ({ intent: "terms", ...PROPOSAL, feePercent });

describe("a block between the two agents", () => {
  beforeEach(() => setUp());

  it("stops a proposal on the blocker's response, which the blocked poster no longer sees: 404, no row, no mail", async () => {
    await block(james, maria);
    await expect(
      outcome(() => proposeLoader({ request: get(proposalUrl(), cookies.maria), context, params: { id: requestId } })),
    ).resolves.toMatchObject({ status: 404 });
    expect(statusOf(await propose("maria"))).toBe(404);
    expect(context.services.store.referrals.all()).toHaveLength(0);
    expect(await mailsTo(james)).toHaveLength(0);

    // The other way round: the poster blocked the responder, who no longer sees the request.
    await block(james, maria, false);
    await block(maria, james);
    expect(statusOf(await propose("james"))).toBe(404);
    expect(statusOf(await propose("maria"))).toBe(404);
    expect(context.services.store.referrals.all()).toHaveLength(0);
    expect(await mailsTo(maria)).toHaveLength(0);
  });

  it("stops changing and signing an open proposal both ways; either may still end it, and the blocked side mails nobody", async () => {
    const referral = await proposed("maria");
    const jamesMailsBefore = (await mailsTo(james)).length;
    await block(james, maria);

    const terms = await act("maria", referral.id, newTerms("30"));
    expect(statusOf(terms)).toBe(403);
    expect(formError(terms)).toBe(BLOCKED_CANNOT_REFER);
    expect(stored(referral.id).feePercent).toBe(25);
    expect(statusOf(await act("james", referral.id, newTerms("20")))).toBe(403);
    expect(statusOf(await sign("maria", referral.id, "Maria Delgado"))).toBe(403);
    expect(statusOf(await sign("james", referral.id, "James Whitfield"))).toBe(403);
    expect(stored(referral.id)).toMatchObject({
      status: "proposed",
      feePercent: 25,
      referringSignedAt: undefined,
      receivingSignedAt: undefined,
    });
    expect((await pageOf("maria", referral.id)).referral).toMatchObject({ canSign: false, canChangeTerms: false, blocked: true });
    expect((await pageOf("james", referral.id)).referral).toMatchObject({ canSign: false, canChangeTerms: false, blocked: true });

    // Maria, who is blocked, withdraws: allowed, but James is not mailed.
    expect(statusOf(await act("maria", referral.id, { intent: "withdraw", note: "" }))).toBe(302);
    expect(stored(referral.id).status).toBe("withdrawn");
    expect(await mailsTo(james)).toHaveLength(jamesMailsBefore);
  });

  it("leaves a signed referral's pipeline to both, with no mail from the blocked side to the blocker", async () => {
    const referral = await proposed("maria");
    expect(statusOf(await sign("james", referral.id, "James Whitfield"))).toBe(302);
    expect(statusOf(await sign("maria", referral.id, "Maria Delgado"))).toBe(302);
    expect(stored(referral.id).status).toBe("signed");
    await block(james, maria);
    const [mariaBefore, jamesBefore] = [(await mailsTo(maria)).length, (await mailsTo(james)).length];

    // Maria (referring, blocked) takes her step: stored, James is not mailed.
    expect(statusOf(await act("maria", referral.id, { intent: "introduced", note: "" }))).toBe(302);
    expect(stored(referral.id).status).toBe("introduced");
    expect(await mailsTo(james)).toHaveLength(jamesBefore);
    // James (the blocker) can still act, and Maria hears of it.
    expect(statusOf(await act("james", referral.id, { intent: "lost", reason: "The client moved away.", note: "" }))).toBe(302);
    expect(stored(referral.id).status).toBe("lost");
    // The lost referral ends it: besides James's step, both are invited to review, the block notwithstanding.
    const isInvitation = (subject: string) => subject.startsWith("Review your referral");
    const mariaSubjects = (await mailsTo(maria)).map((mail) => mail.subject);
    expect(mariaSubjects.filter((subject) => !isInvitation(subject))).toHaveLength(mariaBefore + 1);
    expect(mariaSubjects.filter(isInvitation)).toHaveLength(1);
  });
});

describe("referral actions", () => {
  it("are limited per member per hour: past REFERRAL_ACTIONS_PER_MEMBER_PER_HOUR, 429 with the input kept and nothing written", async () => {
    await setUp({ REFERRAL_ACTIONS_PER_MEMBER_PER_HOUR: "3" });
    const referral = await proposed("maria");
    expect(statusOf(await act("maria", referral.id, newTerms("20")))).toBe(302);
    // Bad input costs nothing.
    expect(statusOf(await act("maria", referral.id, newTerms("abc")))).toBe(400);
    expect(statusOf(await act("maria", referral.id, newTerms("21")))).toBe(302);

    const refused = (await act("maria", referral.id, newTerms("22"))) as Rejection;
    expect(refused.init?.status).toBe(429);
    expect(Number(new Headers(refused.init?.headers).get("Retry-After"))).toBeGreaterThan(0);
    expect(formError(refused)).toMatch(/^Too many referral changes\. Please wait \d+ minutes? and try again\.$/);
    expect(refused.data.initialValue).toMatchObject({ feePercent: "22" });
    expect(stored(referral.id).feePercent).toBe(21);
    expect(statusOf(await act("maria", referral.id, { intent: "withdraw", note: "" }))).toBe(429);
    expect(statusOf(await propose("maria"))).toBe(429);
    // The other party is counted on their own.
    expect(statusOf(await act("james", referral.id, newTerms("23")))).toBe(302);
  });

  it("mail the other party each kind of change of a proposal at most once per 10 minutes", async () => {
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(Date.UTC(2026, 10, 2, 15));
    await setUp();
    // The clock stands still here, so the outbox's order says nothing: compared sorted.
    const subjects = async (agent: Agent) => (await mailsTo(agent)).map((mail) => mail.subject.replace(/^Referral for Ana: /, "")).sort();
    const first = await proposed("maria");
    for (const percent of ["20", "21", "22", "23"]) expect(statusOf(await act("maria", first.id, newTerms(percent)))).toBe(302);
    // Withdraw and propose again, twice: new rows, and no kind of mail twice within the 10 minutes.
    expect(statusOf(await act("maria", first.id, { intent: "withdraw", note: "" }))).toBe(302);
    const second = await proposed("maria");
    expect(statusOf(await act("maria", second.id, { intent: "withdraw", note: "" }))).toBe(302);
    expect(context.services.store.referrals.all()).toHaveLength(2);
    expect(await subjects(james)).toEqual([
      "Maria Delgado changed the terms: please read the agreement again",
      "Maria Delgado proposed a referral agreement",
      "Maria Delgado withdrew the referral agreement",
    ]);

    // Ten minutes on, the next proposal is mailed again; signing it is another kind of news.
    vi.setSystemTime(Date.UTC(2026, 10, 2, 15, 10));
    const third = await proposed("maria");
    expect(statusOf(await sign("maria", third.id, "Maria Delgado"))).toBe(302);
    expect(await subjects(james)).toEqual([
      "Maria Delgado changed the terms: please read the agreement again",
      "Maria Delgado proposed a referral agreement",
      "Maria Delgado proposed a referral agreement",
      "Maria Delgado signed the referral agreement: your signature is next",
      "Maria Delgado withdrew the referral agreement",
    ]);
    // The limit is each inbox's: James's change of terms reaches Maria at once.
    expect(statusOf(await act("james", third.id, newTerms("30")))).toBe(302);
    expect(await subjects(maria)).toEqual(["James Whitfield changed the terms: please read the agreement again"]);
    // The signed copy always goes to both.
    expect(statusOf(await sign("james", third.id, "James Whitfield"))).toBe(302);
    expect(statusOf(await sign("maria", third.id, "Maria Delgado"))).toBe(302);
    expect((await mailsTo(james)).filter((mail) => mail.subject.startsWith("Signed referral agreement"))).toHaveLength(1);
    expect((await mailsTo(maria)).filter((mail) => mail.subject.startsWith("Signed referral agreement"))).toHaveLength(1);
  });
});
