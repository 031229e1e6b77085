import { PRODUCT_NAME } from "~/domain/product";
import { BLIND_PERIOD_DAYS } from "~/domain/reviews";
import type { Referral } from "~/domain/workbook/tabs";
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
