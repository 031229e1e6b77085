import { PRODUCT_NAME } from "~/domain/product";
import { BLIND_PERIOD_DAYS } from "~/domain/reviews";
import type { Referral, Review } from "~/domain/workbook/tabs";
import { renderMailBody } from "./html.server";
import type { Mail } from "./mailer.server";
import { clientOf } from "./referral-mail.server";

/** Invites one party of an ended referral to review the other. */
export function reviewInvitationMail(options: { referral: Referral; to: string; otherName: string; link: string }): Mail {
  const { referral, to, otherName, link } = options;
  const body = renderMailBody(
    `Your referral for ${clientOf(referral)} on ${PRODUCT_NAME} has ended. How was it to work with ${otherName}?`,
    [
      ["Other agent", otherName],
      ["Client", referral.clientName],
      [
        "How reviews work",
        `Neither of you sees the other's review until both have written one, or ${BLIND_PERIOD_DAYS} days after the first; then both are published on your profiles at once.`,
      ],
    ],
    `Write your review: ${link}`,
  );
  return { to, subject: `Review your referral with ${otherName.replace(/\s+/g, " ").trim()}`, ...body };
}

/** Tells the reviewed member that a review of them is published, where they can read it and reply once. */
export function reviewPublishedMail(options: { referral: Referral; review: Review; reviewerName: string; link: string }): Mail {
  const { referral, review, reviewerName, link } = options;
  const name = reviewerName.replace(/\s+/g, " ").trim();
  const body = renderMailBody(
    `${name}'s review of you, for your referral for ${clientOf(referral)} on ${PRODUCT_NAME}, is published on your profile.`,
    [
      ["Reviewer", name],
      ["Overall", `${review.overall ?? 0} of 5 stars`],
    ],
    `Read it and reply: ${link}`,
  );
  return { to: review.reviewedEmail, subject: `${name} reviewed you`, ...body };
}
