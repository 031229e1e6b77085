/**
 * Each side's broker sign-off and when an agreement is in force. An agent signs for their
 * broker and either attests that the broker authorizes them to sign referral agreements,
 * or asks the broker to approve the text through a mailed link. The agreement is in force
 * only when both agents' signatures and both brokers' sign-offs cover its current text.
 */
import { z } from "zod";
import { centralTime } from "../central-time";
import { licenseKey } from "../license-check";
import { requiredTextField } from "../text";
import { REFERRAL_SIDES_OF_PARTIES } from "../workbook/broker-tabs";
import type { BrokerSignoff, Referral } from "../workbook/tabs";
import type { ReferralParty } from "./status";

export type { BrokerChoice } from "./labels";

/** How long a broker's approval link works. */
export const BROKER_LINK_DAYS = 7;

/** Wrong license numbers one approval link takes; the last of them ends it (docs/decisions/0061). */
export const WRONG_LICENSES_PER_APPROVAL_LINK = 5;

export const brokerChoiceField = z.enum(["attested", "requested"], { error: "Please choose how your broker signs off" });

export const BROKER_APPROVAL_MESSAGES = {
  signedName: "Please type your full name to approve",
  signedLicense: "Please type your broker license number",
  anotherBroker: "This approval is for another broker: the license number is not the one this agreement names for this side.",
} as const;

/** The broker's approval form, on the page the mailed link opens. */
export const brokerApprovalSchema = z.object({
  signedName: requiredTextField(BROKER_APPROVAL_MESSAGES.signedName, 120, "Please keep your name under 120 characters"),
  signedLicense: requiredTextField(BROKER_APPROVAL_MESSAGES.signedLicense, 40, "Please keep the license number under 40 characters"),
});

/** Whether a party's acceptance covers the agreement's current text. */
export function hasSigned(referral: Referral, party: ReferralParty): boolean {
  const hash = party === "referring" ? referral.referringSignedHash : referral.receivingSignedHash;
  return hash !== undefined && hash !== "" && hash === referral.agreementHash;
}

/** A side's broker as the agreement names it (copied from the agent's profile at proposal). */
export function sideBroker(referral: Referral, side: ReferralParty) {
  return side === "referring"
    ? { name: referral.referringBrokerage, license: referral.referringBrokerLicense, email: referral.referringBrokerEmail }
    : { name: referral.receivingBrokerage, license: referral.receivingBrokerLicense, email: referral.receivingBrokerEmail };
}

/** A typed license number is the broker's when both read the same, spaces, dashes, case and leading zeros aside. */
export function isBrokersLicense(typed: string, brokerLicense: string): boolean {
  const plain = (license: string) => license.toUpperCase().replace(/[^0-9A-Z]/g, "");
  if (plain(typed) === "") return false;
  if (plain(typed) === plain(brokerLicense)) return true;
  const key = licenseKey(typed);
  return key !== "" && key === licenseKey(brokerLicense);
}

export type BrokerStanding =
  { state: "none" } | { state: "attested" | "approved"; row: BrokerSignoff } | { state: "requested"; row: BrokerSignoff; expired: boolean };

/**
 * A side's standing on the agreement's current text: its latest sign-off row for that text
 * (rows for an earlier text no longer count). A request is expired once its link is.
 */
export function brokerStanding(referral: Referral, signoffs: readonly BrokerSignoff[], side: ReferralParty, now: Date): BrokerStanding {
  const rows = signoffs
    .filter((row) => row.referralId === referral.id && row.side === side && row.agreementHash === referral.agreementHash)
    .sort((a, b) => a.createdAt.localeCompare(b.createdAt));
  const row = rows.at(-1);
  if (!row) return { state: "none" };
  // An approval stands whatever came after it: nothing replaces a broker's own approval of this text.
  const approval = rows.find((candidate) => candidate.kind === "approved");
  if (approval) return { state: "approved", row: approval };
  if (row.kind === "requested") return { state: "requested", row, expired: isExpired(row, now) };
  return { state: row.kind, row };
}

function isExpired(row: BrokerSignoff, now: Date): boolean {
  return row.expiresAt !== undefined && Date.parse(row.expiresAt) <= now.getTime();
}

export function isSignedOff(standing: BrokerStanding): boolean {
  return standing.state === "attested" || standing.state === "approved";
}

/** Whether an agent may attest or ask their broker now: they signed, and their broker has not signed off and no live link waits. */
export function mayAskBroker(standing: BrokerStanding): boolean {
  return standing.state === "none" || (standing.state === "requested" && standing.expired);
}

/** In force: both agents signed the current text, and each side's broker approved it or was attested. */
export function isInForce(referral: Referral, signoffs: readonly BrokerSignoff[], now: Date): boolean {
  return REFERRAL_SIDES_OF_PARTIES.every((side) => hasSigned(referral, side) && isSignedOff(brokerStanding(referral, signoffs, side, now)));
}

/** Built a single time, as `toLocaleDateString` would build a formatter on every call. */
const SHORT_DAY = new Intl.DateTimeFormat("en-US", { month: "short", day: "numeric", timeZone: "America/Chicago" });

/** "Nov 27": the day of a broker's approval, in Central time like every date on the site. */
function shortDay(time: string): string {
  return SHORT_DAY.format(new Date(time));
}

/**
 * The side's broker state in a sentence: "Attested by Maria Delgado", "Waiting for Lone
 * Star Realty's approval, link expires Dec 4", "Approved by John Smith, Nov 27".
 */
export function brokerStateLabel(standing: BrokerStanding, brokerName: string, agentName: string): string {
  const broker = brokerName.trim() || "the broker";
  switch (standing.state) {
    case "none":
      return `Not signed off yet: ${agentName} attests or asks ${broker} when signing`;
    case "attested":
      return `Attested by ${agentName}`;
    case "approved":
      return `Approved by ${standing.row.signedName ?? broker}, ${shortDay(standing.row.createdAt)}`;
    case "requested":
      return standing.expired
        ? `The link to ${broker} expired ${centralTime(standing.row.expiresAt ?? "")}: ${agentName} may ask again`
        : `Waiting for ${broker}'s approval, link expires ${centralTime(standing.row.expiresAt ?? "")}`;
  }
}
