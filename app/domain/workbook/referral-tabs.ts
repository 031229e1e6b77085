/**
 * The referral agreements' tabs: one row per agreement with its current terms, and its
 * timeline. Listed in the workbook (`tabs.ts`) like every other tab.
 */
import { describeLikelyMistypedValues } from "../referrals/mistyped-values";
import { REFERRAL_STATUSES } from "../referrals/status";
import { amount, choice, count, email, optionalText, optionalTime, percentage, reference, requiredText, text, time } from "./columns";
import { defineTab } from "./define-tab";

export const REFERRAL_SIDES = ["buyer", "seller", "landlord", "tenant"] as const;
const FEE_TYPES = ["percent", "flat"] as const;

/**
 * One row per referral agreement: its current terms, both acceptances and where the deal
 * stands. Staff may correct the status or the fee here; the timeline is in ReferralEvents.
 * The parties' brokerages are copied in when the agreement is proposed: the agreement is
 * between the brokers, as they were then.
 */
export const REFERRALS_TAB = defineTab({
  name: "Referrals",
  appendOnly: false,
  columns: {
    id: requiredText(),
    requestId: reference(),
    responseId: optionalText(),
    status: choice(REFERRAL_STATUSES, "proposed"),
    proposedByEmail: email({ required: true }),
    referringEmail: email({ required: true }),
    referringName: text(),
    referringBrokerage: text(),
    referringBrokerLicense: text(),
    receivingEmail: email({ required: true }),
    receivingName: text(),
    receivingBrokerage: text(),
    receivingBrokerLicense: text(),
    /** First name or initials only: no more of the client's personal data than that. */
    clientName: text(),
    side: choice(REFERRAL_SIDES),
    feeType: choice(FEE_TYPES, "percent"),
    feePercent: percentage(),
    feeFlat: amount(),
    termMonths: count(),
    feeDue: text(),
    terms: text(),
    /** SHA-256 of the agreement's exact text as the parties read it; a term change makes a new one. */
    agreementHash: optionalText(),
    referringSignedName: optionalText(),
    referringSignedAt: optionalTime(),
    referringSignedIp: optionalText(),
    referringSignedAgent: optionalText(),
    referringSignedHash: optionalText(),
    receivingSignedName: optionalText(),
    receivingSignedAt: optionalTime(),
    receivingSignedIp: optionalText(),
    receivingSignedAgent: optionalText(),
    receivingSignedHash: optionalText(),
    signedAt: optionalTime(),
    termEndsAt: optionalTime(),
    expectedCloseDate: optionalTime(),
    closeDate: optionalTime(),
    salePrice: amount(),
    grossCommission: amount(),
    feeAmount: amount(),
    lostReason: optionalText(),
    lastReminderAt: optionalTime(),
    createdAt: time(),
    updatedAt: optionalTime(),
    /** The agreement text's version the row was proposed under (blank: the first); a signed agreement keeps it. */
    agreementVersion: optionalText(),
    /** Each side's sponsoring broker's e-mail, copied with the brokerage: where sign-off requests and copies go. */
    referringBrokerEmail: email(),
    receivingBrokerEmail: email(),
    /** The commission disbursement authorization: the title company the receiving agent named, and when it was sent. */
    titleCompany: optionalText(),
    titleEmail: optionalText(),
    cdaSentAt: optionalTime(),
  },
  indexes: {
    requestId: (referral) => referral.requestId,
    parties: (referral) => [referral.referringEmail, referral.receivingEmail],
    status: (referral) => referral.status,
  },
  doubts: describeLikelyMistypedValues,
});

/** A referral's timeline, one row per step taken (who, when, the note); never changed, only added to. */
export const REFERRAL_EVENTS_TAB = defineTab({
  name: "ReferralEvents",
  appendOnly: true,
  columns: {
    id: requiredText(),
    referralId: reference(),
    /** A status the step led to, or an event that kept it: "proposed", "terms-changed", "signed", "reminder". */
    step: requiredText(),
    byEmail: email(),
    note: text(),
    createdAt: time(),
  },
  indexes: {
    referralId: (event) => event.referralId,
  },
});
