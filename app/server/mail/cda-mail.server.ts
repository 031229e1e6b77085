import { feeLabel } from "~/domain/referrals/agreement";
import { shortReference } from "~/domain/referrals/labels";
import type { Referral } from "~/domain/workbook/tabs";
import { brokerViewUrl } from "./broker-signoff-mail.server";
import { renderMailBody } from "./html.server";
import type { Mail } from "./mailer.server";

/** Each address once: a broker who is also a party (an individual broker) gets one copy. */
function recipientsOf(referral: Referral): string[] {
  const addresses = [referral.receivingBrokerEmail, referral.referringBrokerEmail, referral.receivingEmail, referral.referringEmail];
  return [...new Set(addresses.filter((address): address is string => Boolean(address)))];
}

/**
 * The CDA, attached, to both sponsoring brokers and both agents: the receiving broker
 * signs it and sends it to the title company; the others keep it. Like the signed
 * agreement, it always goes, whatever the members' mail choices.
 */
export function cdaMails(referral: Referral, pdf: Buffer, link: string): Mail[] {
  const body = renderMailBody(
    `The commission disbursement authorization for the referral of ${referral.clientName} is attached. The receiving broker signs it and sends it to the title company.`,
    [
      ["Agreement", shortReference(referral.id)],
      ["Title company", `${referral.titleCompany ?? ""} <${referral.titleEmail ?? ""}>`],
      ["Expected closing", referral.expectedCloseDate?.slice(0, 10) ?? "not set"],
      ["Pay to", `${referral.referringBrokerage} (license ${referral.referringBrokerLicense})`],
      ["Paid from", `${referral.receivingBrokerage} (license ${referral.receivingBrokerLicense})`],
      ["Referral fee", feeLabel(referral)],
    ],
    `The referral and its timeline: ${link}\nBrokers see every referral of the agents they sponsor at ${brokerViewUrl(link)}`,
  );
  const attachment = {
    content: pdf.toString("base64"),
    filename: `commission-disbursement-${shortReference(referral.id).slice(4)}.pdf`,
    type: "application/pdf",
    disposition: "attachment" as const,
  };
  return recipientsOf(referral).map((to) => ({
    to,
    replyTo: referral.receivingEmail,
    subject: `Commission disbursement authorization: referral of ${referral.clientName}`,
    ...body,
    attachments: [attachment],
  }));
}
