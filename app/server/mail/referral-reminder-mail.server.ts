import { PRODUCT_NAME } from "~/domain/product";
import type { Referral } from "~/domain/workbook/tabs";
import { renderMailBody, type MailRow } from "./html.server";
import type { Mail } from "./mailer.server";
import { clientOf } from "./referral-mail.server";

/** Why a referral is worth a look: no step for a month, or the term ending soon. */
export type ReminderReason = "no-update" | "term-ending";

const dayFormat = new Intl.DateTimeFormat("en-US", { dateStyle: "long", timeZone: "America/Chicago" });

function day(iso: string | undefined): string {
  return iso === undefined ? "Not set" : dayFormat.format(new Date(iso));
}

/** The agreement in a few rows: enough to recognise it, nothing the mail need not carry. */
function referralRows(referral: Referral): MailRow[] {
  return [
    ["Referring agent", referral.referringName],
    ["Receiving agent", referral.receivingName],
    ["Client", referral.clientName],
    ["Side", referral.side],
    ["Term ends", day(referral.termEndsAt)],
  ];
}

const REASON_TEXT: Record<ReminderReason, string> = {
  "no-update":
    "Nothing has been recorded on this referral for 30 days. If the client was introduced, went under contract or closed, record the step.",
  "term-ending":
    "The referral's term ends within 14 days. If the deal is under way, record where it stands; without a closing the referral expires when the term ends.",
};

/** A reminder to look at a referral: to the receiving agent when it has gone quiet, to both parties when the term ends soon. */
export function referralReminderMail(options: { referral: Referral; to: string; reasons: readonly ReminderReason[]; link: string }): Mail {
  const { referral, to, reasons, link } = options;
  const body = renderMailBody(
    `A reminder about your referral with ${clientOf(referral)} on ${PRODUCT_NAME}.`,
    [...reasons.map((reason): MailRow => ["Why", REASON_TEXT[reason]]), ...referralRows(referral)],
    `Open the referral: ${link}\nYou get at most one reminder per referral a week. Turn referral mails off in your profile's mail settings.`,
  );
  return { to, subject: `Reminder: your referral for ${clientOf(referral)}`, ...body };
}

/** Tells a party the term ended with no closing, so the referral is now expired. */
export function referralExpiredMail(options: { referral: Referral; to: string; link: string }): Mail {
  const { referral, to, link } = options;
  const body = renderMailBody(
    `Your referral for ${clientOf(referral)} on ${PRODUCT_NAME} has expired: its term ended with no closing.`,
    referralRows(referral),
    `Open the referral: ${link}\nIf the deal did close, tell the network's staff so they can correct the referral.`,
  );
  return { to, subject: `Referral expired: ${clientOf(referral)}`, ...body };
}
