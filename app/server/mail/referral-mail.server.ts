import { feeLabel } from "~/domain/referrals/agreement";
import { SIDE_LABELS } from "~/domain/referrals/labels";
import { REFERRAL_STATUS_LABELS } from "~/domain/referrals/status";
import type { Agent, Referral } from "~/domain/workbook/tabs";
import { hasBlocked } from "../moderation/blocks.server";
import type { Services } from "../services.server";
import { renderMailBody, type MailRow } from "./html.server";
import type { Mail } from "./mailer.server";

type MailServices = Pick<Services, "store">;

/** The client as named in the agreement, on one line: it goes into the subject. */
export function clientOf(referral: Pick<Referral, "clientName">): string {
  return referral.clientName.replace(/\s+/g, " ").trim() || "your client";
}

/** What happened to a referral, in the words of the other party's mail. */
export type ReferralUpdate = { headline: string; note?: string };

export function summaryRows(referral: Referral): MailRow[] {
  return [
    ["Client", `${referral.clientName} (${SIDE_LABELS[referral.side].toLowerCase()})`],
    ["Referring agent", referral.referringName],
    ["Receiving agent", referral.receivingName],
    ["Fee", feeLabel(referral)],
    ["Status", REFERRAL_STATUS_LABELS[referral.status]],
  ];
}

function otherPartyEmail(referral: Referral, actorEmail: string): string {
  return referral.referringEmail === actorEmail ? referral.receivingEmail : referral.referringEmail;
}

/**
 * The mail telling the party who did not act what the other did (proposed, signed,
 * changed the terms, took a pipeline step), with the note; null when they blocked the one
 * who acted: a block stops every mail from the blocked side. (Their choice of referral
 * mails is the notifier's to apply.)
 */
export function otherPartyMail(
  services: MailServices,
  referral: Referral,
  actorEmail: string,
  update: ReferralUpdate,
  link: string,
): { recipient: Agent; mail: Mail } | null {
  const to = otherPartyEmail(referral, actorEmail);
  const recipient = services.store.agents.by("email", to)[0];
  if (!recipient || hasBlocked(services, recipient, { email: actorEmail })) return null;
  const rows = summaryRows(referral);
  if (update.note) rows.push(["Note", update.note]);
  const body = renderMailBody(update.headline, rows, `Open the referral: ${link}`);
  return { recipient, mail: { to, replyTo: actorEmail, subject: `Referral for ${referral.clientName}: ${update.headline}`, ...body } };
}

/**
 * The signed copy of the agreement, to both parties, with the PDF attached. A signed
 * contract's copy always goes, whatever the member's mail choices.
 */
export function signedAgreementMails(referral: Referral, pdf: Buffer, link: string): Mail[] {
  const body = renderMailBody(
    `Both parties signed the referral agreement for ${referral.clientName} and both brokers signed off: it is in force. Your signed copy is attached.`,
    summaryRows(referral),
    `The agreement and its timeline: ${link}`,
  );
  const attachment = agreementAttachment(referral, pdf);
  return [referral.referringEmail, referral.receivingEmail].map((to) => ({
    to,
    subject: `Signed referral agreement: ${referral.clientName}`,
    ...body,
    attachments: [attachment],
  }));
}

/** The signed agreement's PDF as a mail attachment. */
export function agreementAttachment(referral: Referral, pdf: Buffer) {
  return {
    content: pdf.toString("base64"),
    filename: `referral-agreement-${referral.id}.pdf`,
    type: "application/pdf",
    disposition: "attachment" as const,
  };
}

/** The mail telling a party that a step of their referral was refused because a license is not active in TREC's data. */
export function licenseRefusalMail(referral: Referral, to: string, refusal: { step: string; reason: string; link: string }): Mail {
  const headline = `${refusal.step} was refused: a license is not active`;
  const body = renderMailBody(headline, [...summaryRows(referral), ["Reason", refusal.reason]], `Open the referral: ${refusal.link}`);
  return { to, subject: `Referral for ${clientOf(referral)}: ${headline}`, ...body };
}
