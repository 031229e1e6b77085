import { agentIdFromEmail } from "~/domain/agent-id";
import { feeLabel, otherParty, partyEmail, partyName } from "~/domain/referrals/agreement";
import { brokerStanding, brokerStateLabel, hasSigned, isSignedOff, mayAskBroker, sideBroker } from "~/domain/referrals/broker-signoff";
import { likelyMistypedValues } from "~/domain/referrals/mistyped-values";
import { SIDE_LABELS } from "~/domain/referrals/labels";
import { formatDollars } from "~/domain/referrals/money";
import { isFinalStatus, nextSteps, REFERRAL_STATUS_LABELS, type ReferralParty } from "~/domain/referrals/status";
import type { Agent, BrokerSignoff, Referral } from "~/domain/workbook/tabs";
import { notFound } from "../http.server";
import { isBlockedBetween } from "../moderation/visibility.server";
import { agreementHash, agreementTextOf } from "./agreement-text.server";
import type { Services } from "../services.server";
import { signoffsOf } from "./broker-signoff.server";
import { memberParty, REFERRAL_NOT_FOUND, referralFor, referralTimeline } from "./referrals.server";

/** The referral a member opened, or the 404 every other member gets. */
export function requireReferral(
  services: Pick<Services, "store">,
  member: Agent,
  id: string,
): { referral: Referral; party: ReferralParty } {
  const referral = referralFor(services, member, id);
  if (!referral) throw notFound(REFERRAL_NOT_FOUND);
  return { referral, party: memberParty(referral, member) };
}

const EVENT_LABELS: Record<string, string> = {
  ...REFERRAL_STATUS_LABELS,
  proposed: "Proposed",
  "terms-changed": "Terms changed",
  accepted: "Signature",
  signed: "In force: signed by both, brokers signed off",
  reminder: "Reminder sent",
  "license-check": "License check",
  "broker-attested": "Broker attested",
  "broker-requested": "Broker asked to approve",
  "broker-approved": "Broker approved",
  "broker-link-ended": "Broker's approval link ended",
  cda: "Commission disbursement authorization sent",
};

/** Each side's broker as the agreement names them, and where their sign-off stands. */
function brokerView(referral: Referral, signoffs: readonly BrokerSignoff[], side: ReferralParty, now: Date) {
  const broker = sideBroker(referral, side);
  const standing = brokerStanding(referral, signoffs, side, now);
  return {
    role: side === "referring" ? "Referring broker" : "Receiving broker",
    name: broker.name,
    license: broker.license,
    state: brokerStateLabel(standing, broker.name, partyName(referral, side)),
    signedOff: isSignedOff(standing),
  };
}

function acceptanceView(referral: Referral, party: ReferralParty) {
  const signed = hasSigned(referral, party);
  return {
    role: party === "referring" ? "Referring agent" : "Receiving agent",
    agentName: partyName(referral, party),
    signed,
    signedName: signed ? ((party === "referring" ? referral.referringSignedName : referral.receivingSignedName) ?? "") : "",
    signedAt: signed ? minuteUtc((party === "referring" ? referral.referringSignedAt : referral.receivingSignedAt) ?? "") : "",
  };
}

function money(cents: number | undefined): string | null {
  return cents === undefined ? null : formatDollars(cents);
}

/** "2026-11-23 15:04 UTC": the timeline's times, the same for both parties wherever they are. */
function minuteUtc(time: string): string {
  return `${time.slice(0, 10)} ${time.slice(11, 16)} UTC`;
}

/** The date part of a stored time, "2026-12-01". */
function day(time: string | undefined): string | null {
  return time ? time.slice(0, 10) : null;
}

/**
 * What the referral's page shows one party: the text as it was proposed (a signature never
 * changes it), whose hash goes into the sign form so the server can refuse a text that
 * changed meanwhile, and each broker's sign-off.
 */
export function referralPageView(services: Pick<Services, "store">, referral: Referral, member: Agent, now = new Date()) {
  const party = memberParty(referral, member);
  const otherEmail = partyEmail(referral, otherParty(party));
  // A block either way leaves an open proposal only to be declined or withdrawn.
  const blocked = isBlockedBetween(services, member, { email: otherEmail });
  const proposed = referral.status === "proposed";
  const canSign = proposed && !blocked && !hasSigned(referral, party);
  // An agreement proposed before brokers were required may lack this side's broker: its terms are saved again first.
  const brokerMissing = canSign && !(sideBroker(referral, party).name.trim() && sideBroker(referral, party).license.trim());
  const signoffs = signoffsOf(services, referral.id);
  const isProposer = referral.proposedByEmail === member.email;
  const names = new Map([
    [referral.referringEmail, referral.referringName],
    [referral.receivingEmail, referral.receivingName],
    [referral.referringBrokerEmail, referral.referringBrokerage],
    [referral.receivingBrokerEmail, referral.receivingBrokerage],
  ]);
  names.delete("");
  return {
    id: referral.id,
    requestId: referral.requestId,
    party,
    otherName: partyName(referral, otherParty(party)),
    otherAgentId: agentIdFromEmail(otherEmail),
    status: referral.status,
    statusLabel: REFERRAL_STATUS_LABELS[referral.status],
    isFinal: isFinalStatus(referral.status),
    clientName: referral.clientName,
    sideLabel: SIDE_LABELS[referral.side],
    feeLabel: feeLabel(referral),
    text: agreementTextOf(referral),
    hash: agreementHash(referral),
    acceptances: [acceptanceView(referral, "referring"), acceptanceView(referral, "receiving")],
    brokers: [brokerView(referral, signoffs, "referring", now), brokerView(referral, signoffs, "receiving", now)],
    canSign: canSign && !brokerMissing,
    canAskBroker: proposed && !blocked && hasSigned(referral, party) && mayAskBroker(brokerStanding(referral, signoffs, party, now)),
    waitingForBrokers: proposed && hasSigned(referral, "referring") && hasSigned(referral, "receiving"),
    brokerMissing,
    canChangeTerms: proposed && !blocked,
    blocked,
    canDecline: proposed && !isProposer,
    canWithdraw: proposed && isProposer,
    steps: nextSteps(referral.status, party),
    facts: {
      signedAt: day(referral.signedAt),
      termEndsAt: day(referral.termEndsAt),
      expectedCloseDate: day(referral.expectedCloseDate),
      closeDate: day(referral.closeDate),
      salePrice: money(referral.salePrice),
      grossCommission: money(referral.grossCommission),
      feeAmount: money(referral.feeAmount),
      lostReason: referral.lostReason ?? null,
    },
    doubts: likelyMistypedValues(referral),
    timeline: referralTimeline(services, referral.id).map((event) => ({
      id: event.id,
      label: EVENT_LABELS[event.step] ?? event.step,
      by: names.get(event.byEmail) ?? (event.byEmail ? event.byEmail : "Staff"),
      at: minuteUtc(event.createdAt),
      note: event.note,
    })),
    signedByBoth: referral.signedAt !== undefined,
  };
}
