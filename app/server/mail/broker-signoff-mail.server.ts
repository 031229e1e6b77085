import { centralTime } from "~/domain/central-time";
import type { ReferralParty } from "~/domain/referrals/status";
import type { Referral } from "~/domain/workbook/tabs";
import { renderMailBody } from "./html.server";
import type { Mail } from "./mailer.server";
import { agreementAttachment, clientOf, summaryRows } from "./referral-mail.server";

type Broker = { name: string; license: string; email: string };

/** The broker's view, on the site `siteLink` is a page of: said in each mail a broker gets, which is how brokers find it. */
export function brokerViewUrl(siteLink: string): string {
  return new URL("/broker", siteLink).toString();
}

function brokerViewLine(siteLink: string): string {
  return `Every referral of the agents you sponsor, with each year's fees as a CSV: ${brokerViewUrl(siteLink)}`;
}

function agentOf(referral: Referral, side: ReferralParty): string {
  return side === "referring" ? referral.referringName : referral.receivingName;
}

/** To a broker an agent asked to approve: the signed, expiring link to the agreement (no account needed). */
export function approvalRequestMail(
  referral: Referral,
  side: ReferralParty,
  broker: Broker,
  link: { url: string; expiresAt: string },
): Mail {
  const agent = agentOf(referral, side);
  const body = renderMailBody(
    `${agent}, an agent you sponsor, signed a referral agreement and asks you, ${broker.name}, to approve it. Referral fees are paid broker to broker.`,
    [...summaryRows(referral), ["Your license on the agreement", broker.license]],
    `Read the agreement and approve it (link works until ${centralTime(link.expiresAt)}): ${link.url}\nIf you do not sponsor ${agent}, ignore this mail.\n${brokerViewLine(link.url)}`,
  );
  return { to: broker.email, subject: `Please approve the referral agreement for ${clientOf(referral)}`, ...body };
}

/** To a broker once the agreement is in force: their copy, with the PDF, whether their agent attested or they approved. */
export function brokerCopyMail(referral: Referral, side: ReferralParty, broker: Broker, pdf: Buffer, link: string): Mail {
  const body = renderMailBody(
    `The referral agreement ${agentOf(referral, side)} signed for ${broker.name} is in force. Your copy is attached: the fee is paid broker to broker.`,
    summaryRows(referral),
    brokerViewLine(link),
  );
  return {
    to: broker.email,
    subject: `Referral agreement in force: ${clientOf(referral)}`,
    ...body,
    attachments: [agreementAttachment(referral, pdf)],
  };
}

/** To an agent: a broker approved the agreement through their link. */
export function brokerApprovedMail(
  referral: Referral,
  to: string,
  approval: { brokerName: string; signedName: string },
  link: string,
): Mail {
  const headline = `${approval.signedName} approved the referral agreement for ${approval.brokerName}`;
  const body = renderMailBody(headline, summaryRows(referral), `Open the referral: ${link}`);
  return { to, subject: `Referral for ${clientOf(referral)}: ${headline}`, ...body };
}

/** To the agent who asked their broker: the link was ended after too many wrong license numbers, and they may ask again. */
export function brokerLinkEndedMail(referral: Referral, to: string, broker: Broker, link: string): Mail {
  const headline = `The approval link sent to ${broker.email} no longer works`;
  const body = renderMailBody(
    `Someone with the approval link you sent ${broker.name} typed a wrong license number too many times, so the link was ended and nothing was approved.`,
    summaryRows(referral),
    `If it was your broker, ask them again from the referral's page: a new link goes to ${broker.email}. If they did not try, someone else may have the link: check with them before asking again.\nOpen the referral: ${link}`,
  );
  return { to, subject: `Referral for ${clientOf(referral)}: ${headline}`, ...body };
}
