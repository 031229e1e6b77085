/**
 * Reviews between the two parties of a signed referral that has ended: one row per
 * reviewer and referral. Listed in the workbook (`tabs.ts`) like every other tab.
 */
import { choice, email, optionalText, optionalTime, rating, reference, requiredText, text, time } from "./columns";
import { defineTab } from "./define-tab";

/** "hidden" takes a review off every page: staff set it here, as they hide a reported message in Reports. */
const REVIEW_STATUSES = ["visible", "hidden"] as const;

export const REVIEWS_TAB = defineTab({
  name: "Reviews",
  appendOnly: false,
  columns: {
    id: requiredText(),
    referralId: reference(),
    reviewerEmail: email({ required: true }),
    reviewedEmail: email({ required: true }),
    /** The reviewed member's side of the referral: "receiving" owed the fee, "referring" sent the client. */
    reviewedSide: choice(["referring", "receiving"]),
    overall: rating(),
    communication: rating(),
    clientCare: rating(),
    /** Rated only for the receiving side, which owed the fee. */
    feeAsAgreed: rating(),
    /** Rated only for the referring side, whose referral the other received. */
    referralQuality: rating(),
    text: text(),
    submittedAt: time(),
    updatedAt: optionalTime(),
    reply: optionalText(),
    repliedAt: optionalTime(),
    status: choice(REVIEW_STATUSES, "visible"),
  },
  indexes: {
    referralId: (review) => review.referralId,
    reviewedEmail: (review) => review.reviewedEmail,
    reviewerEmail: (review) => review.reviewerEmail,
  },
});
