import { REFERRAL_EVENTS_TAB, REFERRALS_TAB } from "../../../app/domain/workbook/referral-tabs";
import { REVIEWS_TAB } from "../../../app/domain/workbook/review-tab";
import type { Agent, Referral, ReferralEvent, Review } from "../../../app/domain/workbook/tabs";
import { referralRecord } from "../../support/records";
import { insertRows } from "./store-file";

/**
 * Writes a signed referral between two seeded agents straight into the e2e server's store
 * (with the timeline steps given), as the referral pages would have; the server sees it on
 * its next refresh. Tests set the status and the amounts they look at.
 */
export function seedReferral(
  referring: Agent,
  receiving: Agent,
  fields: Partial<Referral> = {},
  steps: readonly Pick<ReferralEvent, "step" | "createdAt">[] = [],
): Referral {
  const referral = referralRecord(referring, receiving, fields);
  insertRows(REFERRALS_TAB, [referral]);
  insertRows(
    REFERRAL_EVENTS_TAB,
    steps.map((step, i) => ({ id: `${referral.id}-${i}`, referralId: referral.id, byEmail: referring.email, note: "", ...step })),
  );
  return referral;
}

/** Both parties' reviews of an ended referral, written a day ago: published, as the review page would have stored them. */
export function seedPublishedReviews(referral: Referral, text: string, reply?: string): Review[] {
  const submittedAt = new Date(Date.now() - 24 * 60 * 60 * 1000).toISOString();
  const review = (reviewer: "referring" | "receiving"): Review => ({
    id: `${referral.id}-${reviewer}`,
    referralId: referral.id,
    reviewerEmail: reviewer === "referring" ? referral.referringEmail : referral.receivingEmail,
    reviewedEmail: reviewer === "referring" ? referral.receivingEmail : referral.referringEmail,
    reviewedSide: reviewer === "referring" ? "receiving" : "referring",
    overall: 4,
    communication: 5,
    clientCare: 3,
    feeAsAgreed: reviewer === "referring" ? 5 : undefined,
    referralQuality: reviewer === "referring" ? undefined : 4,
    text,
    submittedAt,
    updatedAt: undefined,
    reply,
    repliedAt: reply === undefined ? undefined : submittedAt,
    status: "visible",
  });
  const rows = [review("referring"), review("receiving")];
  insertRows(REVIEWS_TAB, rows);
  return rows;
}
