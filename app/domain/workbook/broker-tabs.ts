/**
 * The brokers' tabs: each side's broker sign-off on a referral agreement, and the
 * brokers staff confirmed for the broker's view. Listed in the workbook (`tabs.ts`)
 * like every other tab.
 */
import { licenseKey } from "../license-check";
import { choice, email, optionalText, optionalTime, reference, requiredText, stateCode, text, time } from "./columns";
import { defineTab } from "./define-tab";

/**
 * attested: the agent declared that their broker authorizes them to sign referral
 * agreements (the broker is sent a copy); requested: the agent asked the broker to
 * approve (a mailed link); approved: the broker approved through that link.
 */
const BROKER_SIGNOFF_KINDS = ["attested", "requested", "approved"] as const;
export const REFERRAL_SIDES_OF_PARTIES = ["referring", "receiving"] as const;

/**
 * One row per sign-off event, never changed: a side's standing is its latest row whose
 * `agreementHash` is the agreement's current one, so a change of terms leaves earlier
 * sign-offs behind without touching them.
 */
export const BROKER_SIGNOFFS_TAB = defineTab({
  name: "BrokerSignoffs",
  appendOnly: true,
  columns: {
    id: requiredText(),
    referralId: reference(),
    side: choice(REFERRAL_SIDES_OF_PARTIES),
    kind: choice(BROKER_SIGNOFF_KINDS),
    /** SHA-256 of the agreement text the sign-off covers. */
    agreementHash: requiredText(),
    brokerName: text(),
    brokerLicense: text(),
    brokerEmail: email(),
    /** The agent who attested or asked; blank for the broker's own approval. */
    byEmail: email(),
    /** The broker's approval, recorded like an agent's signature: typed name and license, IP, user agent. */
    signedName: optionalText(),
    signedLicense: optionalText(),
    signedIp: optionalText(),
    signedAgent: optionalText(),
    /** Until when a request's mailed link works. */
    expiresAt: optionalTime(),
    createdAt: time(),
  },
  indexes: {
    referralId: (signoff) => signoff.referralId,
  },
});

/** pending: asked for the broker's view; confirmed or refused by staff in the sheet (Oklahoma brokers). */
const BROKER_STATUSES = ["pending", "confirmed", "refused"] as const;

/** Brokers outside TREC's data (Oklahoma) who asked for the broker's view; staff confirm them here. */
export const BROKERS_TAB = defineTab({
  name: "Brokers",
  appendOnly: false,
  columns: {
    id: requiredText(),
    licenseNumber: requiredText(),
    state: stateCode(),
    name: text(),
    email: email({ required: true }),
    status: choice(BROKER_STATUSES, "pending"),
    staffNote: optionalText(),
    createdAt: time(),
    updatedAt: optionalTime(),
  },
  indexes: {
    /** By the license number's digits, as TREC's data is looked up (`licenseKey`). */
    licenseNumber: (broker) => licenseKey(broker.licenseNumber),
    email: (broker) => broker.email,
  },
});
