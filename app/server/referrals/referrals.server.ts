import {
  nextSignature,
  otherParty,
  partyEmail,
  partyName,
  partyOf,
  SIGNATURE_CLEARED,
  stepPatch,
  termEnd,
  termsFromProposal,
  type ProposalInput,
  type StepInput,
} from "~/domain/referrals/agreement";
import { BLOCKED_CANNOT_REFER } from "~/domain/moderation";
import { agreementHeading } from "~/domain/referrals/labels";
import { rechecksLicenses, type RecheckedStep } from "~/domain/referrals/license-recheck";
import { checkStep, isFinalStatus, REFERRAL_STATUS_LABELS, type ReferralParty } from "~/domain/referrals/status";
import type { Agent, Referral, ReferralEvent, RequestResponse } from "~/domain/workbook/tabs";
import { signedAgreementMails, type ReferralUpdate } from "../mail/referral-mail.server";
import { isBlockedBetween } from "../moderation/visibility.server";
import type { Services } from "../services.server";
import { newId } from "../store/store.server";
import { mayBeStored, rowIdFor } from "../form-keys.server";
import { agreementPdf } from "./agreement-pdf.server";
import { agreementHash } from "./agreement-text.server";
import { recheckReferralLicenses, tellBothOfLicenseRefusal } from "./license-recheck.server";
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
  brokerMissing:
    "Add your brokerage and your broker's license number to your profile before signing: referral fees are paid broker to broker.",
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

/** The referral as it reads once `member` signs: their brokerage and broker license copied from their profile. */
export function asSignedBy(referral: Referral, member: Pick<Agent, "email" | "brokerage" | "brokerLicenseNumber">): Referral {
  const party = memberParty(referral, member);
  const details = { brokerage: member.brokerage.trim(), license: (member.brokerLicenseNumber ?? "").trim() };
  return party === "referring"
    ? { ...referral, referringBrokerage: details.brokerage, referringBrokerLicense: details.license }
    : { ...referral, receivingBrokerage: details.brokerage, receivingBrokerLicense: details.license };
}

/** The heading the printable page and the PDF put above the agreement's text. */
export function referralHeading(services: Pick<Services, "store">, referral: Referral) {
  return agreementHeading(referral.id, services.store.requests.get(referral.requestId)?.title);
}

/** Whether a party's acceptance covers the agreement's current text. */
export function hasSigned(referral: Referral, party: ReferralParty): boolean {
  const hash = party === "referring" ? referral.referringSignedHash : referral.receivingSignedHash;
  return hash !== undefined && hash !== "" && hash === referral.agreementHash;
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

function acceptanceCleared(party: ReferralParty): Partial<Referral> {
  return Object.fromEntries(
    Object.keys(NO_ACCEPTANCES)
      .filter((key) => key.startsWith(party))
      .map((key) => [key, undefined]),
  );
}

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

export async function addEvent(services: ReferralServices, referral: Referral, step: string, by: string, note: string, now: Date) {
  await services.store.referralEvents.insert({
    id: newId(),
    referralId: referral.id,
    step,
    byEmail: by,
    note,
    createdAt: now.toISOString(),
  });
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
  if (outcome.notes.length > 0) await addEvent(services, referral, "license-check", member.email, outcome.notes.join("\n"), now);
  return null;
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

  const id = rowIdFor(member.email, input.formKey);
  return services.writeQueues.serially(`referral-response:${responseId}`, async () => {
    if (isBlockedBetween(services, member, other)) return BLOCKED;
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
      ...partiesFor(referring, receiving),
      ...termsFromProposal(input),
      ...NO_ACCEPTANCES,
      createdAt: now.toISOString(),
    };
    const referral = await services.store.referrals.insertOnce(
      { ...draft, agreementHash: agreementHash(draft) },
      mayBeStored(input.formKey),
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
    const [referring, receiving] = input.referrer === "me" ? [member, other] : [other, member];
    const terms = { ...partiesFor(referring, receiving), ...termsFromProposal(input), ...NO_ACCEPTANCES, updatedAt: now.toISOString() };
    const updated = await services.store.referrals.update(referral.id, {
      ...terms,
      agreementHash: agreementHash({ ...referral, ...terms }),
    });
    await addEvent(services, updated, "terms-changed", member.email, "Both acceptances were cleared.", now);
    const headline = `${member.fullName} changed the terms: please read the agreement again`;
    tellOtherParty(services, updated, member, { headline }, { link, now, change: "terms-changed" });
    return { ok: true, referral: updated };
  });
}

/**
 * Records one party's electronic acceptance: typed name, time, IP address, user agent
 * and the SHA-256 of the exact text they read (docs/decisions/0025). Their broker is
 * copied from their profile first; if that changes the text, the other party's earlier
 * acceptance no longer covers it and is cleared. Both acceptances on one text sign it.
 */
export function signReferral(
  services: ReferralServices,
  options: ChangeOptions & { fullName: string; shownHash: string; ip: string; userAgent: string },
): Promise<ReferralResult> {
  const { member, now, link, log = console } = options;
  return changeReferral(services, options, async (referral, party) => {
    if (referral.status !== "proposed") return { ok: false, status: 409, message: REFUSALS.notProposed };
    if (hasSigned(referral, party)) return { ok: false, status: 409, message: REFUSALS.alreadySigned };
    if (isBlockedBetween(services, member, { email: partyEmail(referral, otherParty(party)) })) return BLOCKED;
    if (!hasBrokerDetails(member)) return { ok: false, status: 409, message: REFUSALS.brokerMissing };
    const text = asSignedBy(referral, member);
    const hash = agreementHash(text);
    if (hash !== options.shownHash) return { ok: false, status: 409, message: REFUSALS.changed };
    const lapsed = await licenseRefusal(services, text, "sign", options);
    if (lapsed) return lapsed;
    const other = otherParty(party);
    const otherStands = hasSigned({ ...referral, agreementHash: hash }, other);
    // The other party signed first, but the broker details copied now changed the text their signature covered.
    const otherCleared = hasSigned(referral, other) && !otherStands;
    const signedAt = now.toISOString();
    const patch: Partial<Referral> = {
      referringBrokerage: text.referringBrokerage,
      referringBrokerLicense: text.referringBrokerLicense,
      receivingBrokerage: text.receivingBrokerage,
      receivingBrokerLicense: text.receivingBrokerLicense,
      agreementHash: hash,
      ...(otherStands ? {} : acceptanceCleared(other)),
      [`${party}SignedName`]: options.fullName,
      [`${party}SignedAt`]: signedAt,
      [`${party}SignedIp`]: options.ip,
      [`${party}SignedAgent`]: options.userAgent,
      [`${party}SignedHash`]: hash,
      updatedAt: signedAt,
      ...(otherStands ? { status: "signed" as const, signedAt, termEndsAt: termEnd(now, referral.termMonths).toISOString() } : {}),
    };
    const updated = await services.store.referrals.update(referral.id, patch);
    const signedNote = `Signed by ${options.fullName} as the ${party} agent.`;
    const clearedName = partyName(referral, other);
    const note = otherCleared ? `${signedNote} ${SIGNATURE_CLEARED.timeline(clearedName, member.fullName)}` : signedNote;
    await addEvent(services, updated, "accepted", member.email, note, now);
    if (!otherStands) {
      const update = otherCleared ? SIGNATURE_CLEARED.mail(member.fullName) : nextSignature(member.fullName);
      tellOtherParty(services, updated, member, update, { link, now, change: "accepted" });
      return { ok: true, referral: updated };
    }
    await addEvent(services, updated, "signed", member.email, "Both parties signed.", now);
    try {
      const pdf = await agreementPdf(updated, referralHeading(services, updated));
      services.notifier.enqueueAll(
        signedAgreementMails(updated, pdf, link).map((mail) => ({
          mail,
          about: `the signed copy of referral ${updated.id} to ${mail.to}`,
        })),
      );
    } catch (error) {
      log.error(`Referral ${updated.id} signed, but its PDF could not be made: the signed copies were not mailed.`, error);
    }
    return { ok: true, referral: updated };
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
