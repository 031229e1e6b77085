import { PRODUCT_NAME } from "~/domain/product";
import { BROKER_LINK_HOURS } from "~/domain/brokers";
import { renderMailBody } from "./html.server";
import type { Mail } from "./mailer.server";

/** The broker's link to their view; it works for a day and needs no account. */
export function brokerLinkMail(to: string, licenseNumber: string, url: string): Mail {
  const body = renderMailBody(
    `Here is your link to the referrals of the agents you sponsor in ${PRODUCT_NAME}, with their agreements and a yearly CSV of the referral fees.`,
    [
      ["Broker license", licenseNumber],
      ["The link works for", `${BROKER_LINK_HOURS} hours`],
    ],
    `Open your view: ${url}\n\nIf you did not ask for this link, you can ignore this mail.`,
  );
  return { to, subject: `Your broker's view of ${PRODUCT_NAME}`, ...body };
}
