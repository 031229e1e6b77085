/**
 * The demo's referral agreements: deals between demo agents in every status, from a
 * proposal waiting for the demo login's signature to fees received months ago, each with
 * its timeline, both electronic acceptances and the agreement's exact text.
 *
 * Each deal is built the way the app builds it (app/server/referrals/referrals.server.ts):
 * the terms go through the proposal form's schema, each step through its form's schema and
 * the pipeline's order and party rules, the brokers are copied from the profiles, each
 * acceptance and broker sign-off covers the SHA-256 of the agreement's text, the agreement
 * is signed when in force (`isInForce`), the term ends `termEnd` after that and each step sets the app's columns (`stepPatch`: the fee at closing from the
 * gross commission). A deal whose story the app would refuse throws instead of being
 * written. The deals' stories are data, in `demo-data/deals.ts`.
 */
import {
  otherParty,
  partyOf,
  proposalDefaults,
  proposalSchema,
  stepSchemas,
  stepPatch,
  termEnd,
  termsFromProposal,
  type StepInput,
} from "~/domain/referrals/agreement";
import { CURRENT_AGREEMENT_VERSION } from "~/domain/referrals/agreement-text";
import { BROKER_LINK_DAYS, hasSigned, isInForce, sideBroker } from "~/domain/referrals/broker-signoff";
import { checkStep, PIPELINE_STEPS, type PipelineStep, type ReferralParty } from "~/domain/referrals/status";
import type { Agent, BrokerSignoff, Referral, ReferralEvent, ReferralRequest, RequestResponse } from "~/domain/workbook/tabs";
import { agreementHash } from "~/server/referrals/agreement-text.server";
import { partiesFor } from "~/server/referrals/referrals.server";
import { DEALS, SIGNING_AGENTS, SIGNING_IPS, type DealSeed, type DealStep } from "./demo-data/deals";
import { agentNamed, clockAt, demoId } from "./demo-kit";

/** The demo's records a deal refers to, as the network built them. */
export type DealRecords = {
  now: Date;
  agents: readonly Agent[];
  request: (key: string) => ReferralRequest;
  response: (requestKey: string, fromName: string) => RequestResponse;
};

type Deal = { referral: Referral; events: ReferralEvent[]; signoffs: BrokerSignoff[]; parties: Record<ReferralParty, Agent> };

/** A date input's day for a time: what a party would have typed. */
function dayOf(iso: string): string {
  return iso.slice(0, 10);
}

function addEvent(deal: Deal, key: string, step: string, by: string, note: string, at: string): void {
  deal.events.push({
    id: demoId(`referral-event:${key}:${deal.events.length}`),
    referralId: deal.referral.id,
    step,
    byEmail: by,
    note,
    createdAt: at,
  });
}

/** The proposal: the form's defaults for the request, the deal's terms, the brokers from both profiles. */
function propose(seed: DealSeed, records: DealRecords, at: string): Deal {
  const request = records.request(seed.request);
  const response = records.response(seed.request, seed.responder);
  const poster = agentNamed(records.agents, request.agentName);
  const responder = agentNamed(records.agents, seed.responder);
  const proposer = seed.proposedBy === "poster" ? poster : responder;
  const defaults = proposalDefaults(request, seed.proposedBy === "poster");
  const input = proposalSchema.parse({
    ...defaults,
    referrer: seed.referrer === seed.proposedBy ? "me" : "them",
    clientName: seed.clientName,
    side: seed.side ?? defaults.side,
    feeType: seed.feeFlat === undefined ? "percent" : "flat",
    feePercent: seed.feePercent ?? defaults.feePercent,
    feeFlat: seed.feeFlat,
    termMonths: seed.termMonths ?? defaults.termMonths,
    terms: seed.terms,
  });
  const [referring, receiving] = seed.referrer === "poster" ? [poster, responder] : [responder, poster];
  const draft: Referral = {
    id: demoId(`referral:${seed.key}`),
    requestId: request.id,
    responseId: response.id,
    status: "proposed",
    proposedByEmail: proposer.email,
    agreementVersion: CURRENT_AGREEMENT_VERSION,
    ...partiesFor(referring, receiving),
    ...termsFromProposal(input),
    createdAt: at,
  };
  const deal: Deal = {
    referral: { ...draft, agreementHash: agreementHash(draft) },
    events: [],
    signoffs: [],
    parties: { referring, receiving },
  };
  addEvent(deal, seed.key, "proposed", proposer.email, "", at);
  return deal;
}

/** One party's acceptance of the text as proposed, and their choice for their broker: attested, or asked by mail. */
function sign(deal: Deal, key: string, party: ReferralParty, at: string, askBroker: boolean): void {
  const signer = deal.parties[party];
  const hash = deal.referral.agreementHash ?? "";
  if (hasSigned(deal.referral, party)) throw new Error(`Demo referral ${key}: ${signer.fullName} signs twice`);
  const index = deal.events.length;
  deal.referral = {
    ...deal.referral,
    [`${party}SignedName`]: signer.fullName,
    [`${party}SignedAt`]: at,
    [`${party}SignedIp`]: SIGNING_IPS[index % SIGNING_IPS.length],
    [`${party}SignedAgent`]: SIGNING_AGENTS[index % SIGNING_AGENTS.length],
    [`${party}SignedHash`]: hash,
    updatedAt: at,
  };
  addEvent(deal, key, "accepted", signer.email, `Signed by ${signer.fullName} as the ${party} agent.`, at);
  const broker = sideBroker(deal.referral, party);
  const expiresAt = askBroker ? new Date(Date.parse(at) + BROKER_LINK_DAYS * 24 * 3600 * 1000).toISOString() : undefined;
  addSignoff(deal, key, party, { kind: askBroker ? "requested" : "attested", byEmail: signer.email, expiresAt }, at);
  const note = askBroker
    ? `${signer.fullName} asked ${broker.name} to approve (link sent to ${broker.email}).`
    : `${signer.fullName} attested that ${broker.name} authorizes them to sign.`;
  addEvent(deal, key, askBroker ? "broker-requested" : "broker-attested", signer.email, note, at);
  putInForce(deal, key, signer.email, at);
}

function addSignoff(
  deal: Deal,
  key: string,
  side: ReferralParty,
  row: Pick<BrokerSignoff, "kind" | "byEmail"> & Partial<BrokerSignoff>,
  at: string,
) {
  const broker = sideBroker(deal.referral, side);
  deal.signoffs.push({
    id: demoId(`broker-signoff:${key}:${deal.signoffs.length}`),
    referralId: deal.referral.id,
    side,
    agreementHash: deal.referral.agreementHash ?? "",
    brokerName: broker.name,
    brokerLicense: broker.license,
    brokerEmail: broker.email,
    createdAt: at,
    ...row,
  });
}

/** The broker a side asked approves through the link, by name and the license the agreement names. */
function approveAsBroker(deal: Deal, key: string, side: ReferralParty, approverName: string, at: string): void {
  const broker = sideBroker(deal.referral, side);
  const index = deal.events.length;
  addSignoff(
    deal,
    key,
    side,
    {
      kind: "approved",
      byEmail: "",
      signedName: approverName,
      signedLicense: broker.license,
      signedIp: SIGNING_IPS[index % SIGNING_IPS.length],
      signedAgent: SIGNING_AGENTS[index % SIGNING_AGENTS.length],
    },
    at,
  );
  addEvent(deal, key, "broker-approved", broker.email, `Approved by ${approverName} (license ${broker.license}) for ${broker.name}.`, at);
  putInForce(deal, key, broker.email, at);
}

/** Signed, and the term running, once both agents signed and both brokers signed off. */
function putInForce(deal: Deal, key: string, by: string, at: string): void {
  if (!isInForce(deal.referral, deal.signoffs, new Date(at))) return;
  deal.referral = {
    ...deal.referral,
    status: "signed",
    signedAt: at,
    termEndsAt: termEnd(new Date(at), deal.referral.termMonths).toISOString(),
    updatedAt: at,
  };
  addEvent(deal, key, "signed", by, "Both parties signed and both brokers signed off: the agreement is in force.", at);
}

/** A pipeline step, refused unless the app would take it: from the status it follows, by the party it belongs to. */
function takeStep(deal: Deal, key: string, input: StepInput, party: ReferralParty, at: string): void {
  const check = checkStep(deal.referral.status, input.intent, party);
  if (!check.ok) throw new Error(`Demo referral ${key}: ${input.intent} is ${check.reason} from ${deal.referral.status}`);
  deal.referral = { ...deal.referral, ...stepPatch(deal.referral, input), status: input.intent, updatedAt: at };
  const note = input.intent === "lost" ? [`Reason: ${input.reason}`, input.note ?? ""].filter(Boolean).join("\n") : (input.note ?? "");
  addEvent(deal, key, input.intent, deal.parties[party].email, note, at);
}

/** The party a step belongs to: the pipeline's rule, or the one the deal names for a step either may take. */
function partyFor(step: PipelineStep, named?: ReferralParty): ReferralParty {
  const rule = PIPELINE_STEPS[step].by;
  if (rule !== "either") return rule;
  if (!named) throw new Error(`Demo referral step ${step} needs the party who took it`);
  return named;
}

function happen(deal: Deal, seed: DealSeed, step: DealStep, records: DealRecords): void {
  const clock = clockAt(records.now);
  const key = seed.key;
  if (step.step === "expired") {
    // The app's pass after a refresh, a few minutes after the term ended.
    const at = clock.after(deal.referral.termEndsAt ?? "", 0.1);
    deal.referral = { ...deal.referral, status: "expired", updatedAt: at };
    addEvent(deal, key, "expired", "", "The term ended with no closing.", at);
    return;
  }
  const at = clock.daysAgo(step.daysAgo);
  switch (step.step) {
    case "sign":
      return sign(deal, key, step.by, at, step.askBroker === true);
    case "broker-approved":
      return approveAsBroker(deal, key, step.side, step.approverName, at);
    case "declined":
    case "withdrawn": {
      // The proposer withdraws; the other party declines.
      const proposer = partyOf(deal.referral, deal.referral.proposedByEmail)!;
      const by = deal.parties[step.step === "withdrawn" ? proposer : otherParty(proposer)];
      deal.referral = { ...deal.referral, status: step.step, updatedAt: at };
      return addEvent(deal, key, step.step, by.email, step.note, at);
    }
    case "under_contract":
      return takeStep(
        deal,
        key,
        stepSchemas.under_contract.parse({
          intent: step.step,
          expectedCloseDate: dayOf(clock.daysAgo(-step.closesInDays)),
          note: step.note,
        }),
        partyFor(step.step),
        at,
      );
    case "closed":
      return takeStep(
        deal,
        key,
        stepSchemas.closed.parse({
          intent: step.step,
          closeDate: dayOf(at),
          salePrice: step.salePrice,
          grossCommission: step.grossCommission,
          note: step.note,
        }),
        partyFor(step.step),
        at,
      );
    case "lost":
      return takeStep(
        deal,
        key,
        stepSchemas.lost.parse({ intent: step.step, reason: step.reason, note: step.note }),
        partyFor(step.step, step.by),
        at,
      );
    default:
      return takeStep(deal, key, stepSchemas[step.step].parse({ intent: step.step, note: step.note }), partyFor(step.step), at);
  }
}

/** Every demo deal's Referrals row and ReferralEvents rows, as they stand at `now`. */
export function buildDemoReferrals(records: DealRecords): {
  referrals: Referral[];
  referralEvents: ReferralEvent[];
  brokerSignoffs: BrokerSignoff[];
} {
  const clock = clockAt(records.now);
  const deals = DEALS.map((seed) => {
    const deal = propose(seed, records, clock.daysAgo(seed.proposedDaysAgo));
    for (const step of seed.steps) happen(deal, seed, step, records);
    checkTimes(seed, deal, records);
    return deal;
  });
  return {
    referrals: deals.map((deal) => deal.referral),
    referralEvents: deals.flatMap((deal) => deal.events),
    brokerSignoffs: deals.flatMap((deal) => deal.signoffs),
  };
}

/** A deal's story must run forward from its response and end before `now`. */
function checkTimes(seed: DealSeed, deal: Deal, records: DealRecords): void {
  const response = records.response(seed.request, seed.responder);
  const times = [response.createdAt, ...deal.events.map((event) => event.createdAt)].map(Date.parse);
  const inOrder = times.every((time, index) => index === 0 || time >= times[index - 1]!);
  if (!inOrder || times.at(-1)! > records.now.getTime())
    throw new Error(`Demo referral ${seed.key}: its steps must follow its response in order and end before now`);
}
