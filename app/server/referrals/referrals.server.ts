import {
  brokersNext,
  nextSignature,
  otherParty,
  partyEmail,
  partyOf,
  stepPatch,
  termsFromProposal,
  type ProposalInput,
  type StepInput,
} from "~/domain/referrals/agreement";
import { CURRENT_AGREEMENT_VERSION } from "~/domain/referrals/agreement-text";
import { brokerStanding, hasSigned, mayAskBroker, sideBroker, type BrokerChoice } from "~/domain/referrals/broker-signoff";
import { BLOCKED_CANNOT_REFER } from "~/domain/moderation";
import { rechecksLicenses, type RecheckedStep } from "~/domain/referrals/license-recheck";
import { checkStep, isFinalStatus, REFERRAL_STATUS_LABELS, type ReferralParty } from "~/domain/referrals/status";
import type { Agent, Referral, ReferralEvent, RequestResponse } from "~/domain/workbook/tabs";
import type { ReferralUpdate } from "../mail/referral-mail.server";
import { isBlockedBetween } from "../moderation/visibility.server";
import type { Services } from "../services.server";
import { mayBeStored, rowIdFor } from "../idempotency-keys.server";
import { agreementHash } from "./agreement-text.server";
import { putInForceIfReady, recordAgentChoice, signoffsOf } from "./broker-signoff.server";
import { recheckReferralLicenses, tellBothOfLicenseRefusal } from "./license-recheck.server";
import { addEvent } from "./referral-events.server";
import { tellOtherParty, type ReferralServices } from "./referral-notify.server";

export const REFERRAL_NOT_FOUND = "Referral not found";

/** A refused change: nothing was written. */
type Refusal = { ok: false; status: 400 | 403 | 404 | 409; message: string };
const BLOCKED: Refusal = { ok: false, status: 403, message: BLOCKED_CANNOT_REFER };
export type ReferralResult = { ok: true; referral: Referral } | Refusal;

const REFUSALS = {
  notProposed: "This agreement is no longer open: it was signed, declined or withdrawn.",
  alreadySigned: "You have already signed this agreement.",
  changed: "The agreement changed since you opened it. Please read it again before signing.",
  brokerMissing: "Add your sponsoring broker's name and license number in Edit profile first: referral fees are paid broker to broker.",
  otherBrokerMissing: (name: string) => `${name} has not added their sponsoring broker yet: the agreement names both brokers.`,
  agreementBrokerMissing:
    "This agreement does not name your sponsoring broker. Add your broker in Edit profile, then save the terms again so the text names them.",
  brokerEmailMissing:
    "The agreement has no e-mail for your broker, so they cannot be asked by mail. Add it in Edit profile and save the terms again, or attest.",
  brokerAsked: "Your broker has already signed off on this agreement, or a link sent to them still works.",
  signFirst: "Sign the agreement first.",
  declineOwn: "You proposed this referral: withdraw it instead.",
  withdrawOther: "Only the agent who proposed this referral can withdraw it; you can decline it.",
  wrongParty: "This step belongs to the other agent.",
  outOfOrder: "This step cannot be taken now.",
  responseMissing: "Response not found",
  alreadyOpen: "A referral for this response is already open.",
} as const;

/** A referral the member is a party of; everyone else is told it does not exist. */
export function referralFor({ store }: Pick<Services, "store">, member: Pick<Agent, "email">, id: string): Referral | undefined {
  const referral = store.referrals.get(id);
  if (!referral || !partyOf(referral, member.email)) return undefined;
  return referral;
}

/** The member's side of a referral `referralFor` returned. */
export function memberParty(referral: Referral, member: Pick<Agent, "email">): ReferralParty {
  const party = partyOf(referral, member.email);
  if (!party) throw new Error("Not a party of this referral");
  return party;
}

/** The timeline, oldest first. */
export function referralTimeline({ store }: Pick<Services, "store">, referralId: string): ReferralEvent[] {
  return [...store.referralEvents.by("referralId", referralId)].sort((a, b) => a.createdAt.localeCompare(b.createdAt));
}

export function hasBrokerDetails(agent: Pick<Agent, "brokerage" | "brokerLicenseNumber">): boolean {
  return agent.brokerage.trim() !== "" && (agent.brokerLicenseNumber ?? "").trim() !== "";
}

/**
 * The agreement names both sponsoring brokers from the start, so no signature is voided
 * later by broker details added afterwards: a proposal or change of terms is refused
 * until both profiles have them.
 */
function brokerRefusal(member: Agent, other: Agent): Refusal | null {
  if (!hasBrokerDetails(member)) return { ok: false, status: 409, message: REFUSALS.brokerMissing };
  if (!hasBrokerDetails(other)) return { ok: false, status: 409, message: REFUSALS.otherBrokerMissing(other.fullName) };
  return null;
}

const NO_ACCEPTANCES = {
  referringSignedName: undefined,
  referringSignedAt: undefined,
  referringSignedIp: undefined,
  referringSignedAgent: undefined,
  referringSignedHash: undefined,
  receivingSignedName: undefined,
  receivingSignedAt: undefined,
  receivingSignedIp: undefined,
  receivingSignedAgent: undefined,
  receivingSignedHash: undefined,
} satisfies Partial<Referral>;

function agentByEmail({ store }: Pick<Services, "store">, email: string): Agent | undefined {
  return store.agents.by("email", email)[0];
}

/** The parties' columns: who refers and who receives, their names and brokers as their profiles have them. */
export function partiesFor(referring: Agent, receiving: Agent) {
  return {
    referringEmail: referring.email,
    referringName: referring.fullName,
    referringBrokerage: referring.brokerage,
    referringBrokerLicense: referring.brokerLicenseNumber ?? "",
    referringBrokerEmail: referring.brokerEmail,
    receivingEmail: receiving.email,
    receivingName: receiving.fullName,
    receivingBrokerage: receiving.brokerage,
    receivingBrokerLicense: receiving.brokerLicenseNumber ?? "",
    receivingBrokerEmail: receiving.brokerEmail,
  };
}

export type ChangeOptions = { referralId: string; member: Agent; now: Date; link: string; log?: Pick<Console, "error"> };

/**
 * Reads both parties' licenses again before `step` (docs/decisions/0049): a lapse refuses
 * it with 400, stores nothing and mails both parties once; otherwise what staff should
 * look at (an Oklahoma license's OREC link, a number TREC's data lacks) goes on the
 * timeline and null lets the step go ahead.
 */
async function licenseRefusal(
  services: ReferralServices,
  referral: Referral,
  step: RecheckedStep,
  options: Pick<ChangeOptions, "member" | "now" | "link" | "log">,
): Promise<Refusal | null> {
  const { member, now, link, log } = options;
  const outcome = recheckReferralLicenses(services, referral, now, log);
  if (!outcome.ok) {
    tellBothOfLicenseRefusal(services, referral, { step, reason: outcome.reason, link, now });
    return { ok: false, status: 400, message: outcome.reason };
  }
  const note = outcome.notes.join("\n");
  if (note !== "" && note !== lastLicenseNote(services, referral.id))
    await addEvent(services, referral, "license-check", member.email, note, now);
  return null;
}

/** The timeline's latest license-check note: the same links again at the next step would only repeat it. */
function lastLicenseNote(services: Pick<ReferralServices, "store">, referralId: string): string | undefined {
  return referralTimeline(services, referralId).findLast((event) => event.step === "license-check")?.note;
}

/** Runs a read-decide-write change of one referral, one at a time per referral, on its current row. */
export function changeReferral(
  services: ReferralServices,
  options: ChangeOptions,
  decide: (referral: Referral, party: ReferralParty) => Promise<ReferralResult>,
): Promise<ReferralResult> {
  return services.writeQueues.serially(`referral:${options.referralId}`, async () => {
    const referral = referralFor(services, options.member, options.referralId);
    if (!referral) return { ok: false, status: 404, message: REFERRAL_NOT_FOUND };
    return decide(referral, memberParty(referral, options.member));
  });
}

/**
 * Proposes a referral between a request's poster and one of its responders: either of
 * them may propose. The brokers are copied from both profiles as they are now.
 */
export async function proposeReferral(
  services: ReferralServices,
  options: {
    requestId: string;
    responseId: string;
    member: Agent;
    input: ProposalInput;
    now: Date;
    link: (id: string) => string;
  },
): Promise<ReferralResult> {
  const { requestId, responseId, member, input, now } = options;
  const request = services.store.requests.get(requestId);
  const response = services.store.responses.get(responseId);
  if (!request || !response || response.requestId !== requestId) return { ok: false, status: 404, message: REFUSALS.responseMissing };
  const isPoster = request.agentEmail === member.email;
  if (!isPoster && response.fromEmail !== member.email) return { ok: false, status: 404, message: REFUSALS.responseMissing };
  const other = agentByEmail(services, isPoster ? response.fromEmail : request.agentEmail);
  if (!other) return { ok: false, status: 404, message: REFUSALS.responseMissing };

  const id = rowIdFor(member.email, input.idempotencyKey);
  return services.writeQueues.serially(`referral-response:${responseId}`, async () => {
    if (isBlockedBetween(services, member, other)) return BLOCKED;
    const missing = brokerRefusal(member, other);
    if (missing) return missing;
    const open = referralsOnResponse(services, response).find((row) => !isFinalStatus(row.status));
    // This very proposal, stored by a submission whose answer was lost (docs/decisions/0032).
    if (open?.id === id) return { ok: true, referral: open };
    if (open) return { ok: false, status: 409, message: REFUSALS.alreadyOpen };
    const [referring, receiving] = input.referrer === "me" ? [member, other] : [other, member];
    const draft: Referral = {
      id,
      requestId,
      responseId,
      status: "proposed",
      proposedByEmail: member.email,
      agreementVersion: CURRENT_AGREEMENT_VERSION,
      ...partiesFor(referring, receiving),
      ...termsFromProposal(input),
      ...NO_ACCEPTANCES,
      createdAt: now.toISOString(),
    };
    const referral = await services.store.referrals.insertOnce(
      { ...draft, agreementHash: agreementHash(draft) },
      mayBeStored(input.idempotencyKey),
    );
    await addEvent(services, referral, "proposed", member.email, "", now);
    const headline = `${member.fullName} proposed a referral agreement`;
    tellOtherParty(services, referral, member, { headline }, { link: options.link(referral.id), now, change: "proposed" });
    return { ok: true, referral };
  });
}

/** Replaces the terms of a proposed agreement: a new text, so both acceptances are cleared. */
export function changeTerms(services: ReferralServices, options: ChangeOptions & { input: ProposalInput }): Promise<ReferralResult> {
  const { member, input, now, link } = options;
  return changeReferral(services, options, async (referral) => {
    if (referral.status !== "proposed") return { ok: false, status: 409, message: REFUSALS.notProposed };
    const other = agentByEmail(services, referral.referringEmail === member.email ? referral.receivingEmail : referral.referringEmail);
    if (!other) return { ok: false, status: 404, message: REFERRAL_NOT_FOUND };
    if (isBlockedBetween(services, member, other)) return BLOCKED;
    const missing = brokerRefusal(member, other);
    if (missing) return missing;
    const [referring, receiving] = input.referrer === "me" ? [member, other] : [other, member];
    const terms = {
      agreementVersion: CURRENT_AGREEMENT_VERSION,
      ...partiesFor(referring, receiving),
      ...termsFromProposal(input),
      ...NO_ACCEPTANCES,
      updatedAt: now.toISOString(),
    };
    const updated = await services.store.referrals.update(referral.id, {
      ...terms,
      agreementHash: agreementHash({ ...referral, ...terms }),
    });
    await addEvent(services, updated, "terms-changed", member.email, "Both acceptances and both brokers' sign-offs were cleared.", now);
    const headline = `${member.fullName} changed the terms: please read the agreement again`;
    tellOtherParty(services, updated, member, { headline }, { link, now, change: "terms-changed" });
    return { ok: true, referral: updated };
  });
}

/**
 * Records one party's electronic acceptance: typed name, time, IP address, user agent
 * and the SHA-256 of the exact text they read (docs/decisions/0025), with their choice for
 * their broker: attested, or asked to approve by mail (docs/decisions/0051). The text was
 * fixed at proposal, brokers included, so a signature never changes it. The agreement is
 * in force, and signed, once both agents signed and both brokers signed off.
 */
export function signReferral(
  services: ReferralServices,
  options: ChangeOptions & { fullName: string; shownHash: string; brokerChoice: BrokerChoice; ip: string; userAgent: string },
): Promise<ReferralResult> {
  const { member, now, link, log } = options;
  return changeReferral(services, options, async (referral, party) => {
    if (referral.status !== "proposed") return { ok: false, status: 409, message: REFUSALS.notProposed };
    if (hasSigned(referral, party)) return { ok: false, status: 409, message: REFUSALS.alreadySigned };
    if (isBlockedBetween(services, member, { email: partyEmail(referral, otherParty(party)) })) return BLOCKED;
    if (agreementHash(referral) !== options.shownHash) return { ok: false, status: 409, message: REFUSALS.changed };
    const choiceRefused = brokerChoiceRefusal(referral, party, options.brokerChoice);
    if (choiceRefused) return choiceRefused;
    const lapsed = await licenseRefusal(services, referral, "sign", options);
    if (lapsed) return lapsed;
    const signedAt = now.toISOString();
    const updated = await services.store.referrals.update(referral.id, {
      [`${party}SignedName`]: options.fullName,
      [`${party}SignedAt`]: signedAt,
      [`${party}SignedIp`]: options.ip,
      [`${party}SignedAgent`]: options.userAgent,
      [`${party}SignedHash`]: options.shownHash,
      updatedAt: signedAt,
    });
    await addEvent(services, updated, "accepted", member.email, `Signed by ${options.fullName} as the ${party} agent.`, now);
    await recordAgentChoice(services, updated, party, { member, choice: options.brokerChoice, now, link });
    const result = await putInForceIfReady(services, updated, { by: member.email, now, link, log });
    // In force, both get the signed copy; otherwise the other party learns what comes next.
    if (result.status === "proposed") {
      const update = hasSigned(updated, otherParty(party)) ? brokersNext(member.fullName) : nextSignature(member.fullName);
      tellOtherParty(services, updated, member, update, { link, now, change: "accepted" });
    }
    return { ok: true, referral: result };
  });
}

/** A side whose broker the text does not name cannot sign off; a broker without an e-mail cannot be asked by mail. */
function brokerChoiceRefusal(referral: Referral, party: ReferralParty, choice: BrokerChoice): Refusal | null {
  const broker = sideBroker(referral, party);
  if (!broker.name.trim() || !broker.license.trim()) return { ok: false, status: 409, message: REFUSALS.agreementBrokerMissing };
  if (choice === "requested" && !broker.email) return { ok: false, status: 409, message: REFUSALS.brokerEmailMissing };
  return null;
}

/**
 * An agent who signed attests for their broker or asks them (again): when they have not
 * signed off yet and no link sent to them still works (an agent may ask again after expiry).
 */
export function askBroker(services: ReferralServices, options: ChangeOptions & { brokerChoice: BrokerChoice }): Promise<ReferralResult> {
  const { member, now, link, log } = options;
  return changeReferral(services, options, async (referral, party) => {
    if (referral.status !== "proposed") return { ok: false, status: 409, message: REFUSALS.notProposed };
    if (!hasSigned(referral, party)) return { ok: false, status: 409, message: REFUSALS.signFirst };
    if (isBlockedBetween(services, member, { email: partyEmail(referral, otherParty(party)) })) return BLOCKED;
    if (!mayAskBroker(brokerStanding(referral, signoffsOf(services, referral.id), party, now)))
      return { ok: false, status: 409, message: REFUSALS.brokerAsked };
    const choiceRefused = brokerChoiceRefusal(referral, party, options.brokerChoice);
    if (choiceRefused) return choiceRefused;
    await recordAgentChoice(services, referral, party, { member, choice: options.brokerChoice, now, link });
    return { ok: true, referral: await putInForceIfReady(services, referral, { by: member.email, now, link, log }) };
  });
}

/** Ends a proposal before it is signed: the party who did not propose declines, the proposer withdraws. */
export function endProposal(
  services: ReferralServices,
  options: ChangeOptions & { outcome: "declined" | "withdrawn"; note: string },
): Promise<ReferralResult> {
  const { member, outcome, note, now, link } = options;
  return changeReferral(services, options, async (referral) => {
    if (referral.status !== "proposed") return { ok: false, status: 409, message: REFUSALS.notProposed };
    const isProposer = referral.proposedByEmail === member.email;
    if (outcome === "declined" && isProposer) return { ok: false, status: 403, message: REFUSALS.declineOwn };
    if (outcome === "withdrawn" && !isProposer) return { ok: false, status: 403, message: REFUSALS.withdrawOther };
    const updated = await services.store.referrals.update(referral.id, { status: outcome, updatedAt: now.toISOString() });
    await addEvent(services, updated, outcome, member.email, note, now);
    const headline = `${member.fullName} ${outcome === "declined" ? "declined" : "withdrew"} the referral agreement`;
    tellOtherParty(services, updated, member, { headline, note }, { link, now, change: outcome });
    return { ok: true, referral: updated };
  });
}

/** The timeline's note for a step: the typed note, after the reason of a loss. */
function stepNote(input: StepInput): string {
  const note = input.note ?? "";
  return input.intent === "lost" ? [`Reason: ${input.reason}`, note].filter(Boolean).join("\n") : note;
}

/**
 * Takes a pipeline step: only from the status it follows and only by the party it
 * belongs to (`checkStep`); anything else is refused with 403 and changes nothing.
 */
export function takeStep(services: ReferralServices, options: ChangeOptions & { input: StepInput }): Promise<ReferralResult> {
  const { member, input, now, link } = options;
  return changeReferral(services, options, async (referral, party) => {
    const check = checkStep(referral.status, input.intent, party);
    if (!check.ok) return { ok: false, status: 403, message: check.reason === "wrong-party" ? REFUSALS.wrongParty : REFUSALS.outOfOrder };
    if (rechecksLicenses(input.intent)) {
      const lapsed = await licenseRefusal(services, referral, input.intent, options);
      if (lapsed) return lapsed;
    }
    const updated = await services.store.referrals.update(referral.id, {
      ...stepPatch(referral, input),
      status: input.intent,
      updatedAt: now.toISOString(),
    });
    const note = stepNote(input);
    await addEvent(services, updated, input.intent, member.email, note, now);
    const update: ReferralUpdate = { headline: `${member.fullName} marked the referral: ${REFERRAL_STATUS_LABELS[input.intent]}`, note };
    tellOtherParty(services, updated, member, update, { link, now, change: "step" });
    return { ok: true, referral: updated };
  });
}

/** The referrals proposed on a response, oldest first: only its two agents are parties of them. */
export function referralsOnResponse({ store }: Pick<Services, "store">, response: Pick<RequestResponse, "id" | "requestId">): Referral[] {
  return store.referrals
    .by("requestId", response.requestId)
    .filter((referral) => referral.responseId === response.id)
    .sort((a, b) => a.createdAt.localeCompare(b.createdAt));
}
