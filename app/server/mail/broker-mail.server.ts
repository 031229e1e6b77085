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

/** Staff's one mail when the hour's new pending Brokers rows are used up: requests past it were not recorded. */
export function brokerRequestsPausedMail(supportEmail: string, perHour: number, waitMinutes: number): Mail {
  const body = renderMailBody(
    `${PRODUCT_NAME} added ${perHour} new pending rows to the Brokers tab within the last hour, its limit for the whole site, and records no more Oklahoma broker requests for about ${waitMinutes} minutes.`,
    [
      ["New pending rows an hour", String(perHour)],
      ["Requests recorded again in", `about ${waitMinutes} minutes`],
    ],
    "The page at /broker answered every request as usual, so nobody was told their request was dropped: a real broker whose request came in meanwhile hears nothing and asks again. Many requests at once are more likely someone filling the tab; look at the new rows before confirming any, and set the ones you cannot match at OREC to refused. The limit is BROKER_REQUESTS_PER_HOUR (docs/operator-guide.md).",
  );
  return { to: supportEmail, subject: "[Brokers] Oklahoma broker requests paused for the hour", ...body };
}
