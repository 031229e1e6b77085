import { conversationIdFor } from "~/domain/conversation";
import type { Agent, Referral } from "~/domain/workbook/tabs";
import { otherPartyMail, type ReferralUpdate } from "../mail/referral-mail.server";
import { notifyThrottled } from "../messages/conversation-members.server";
import type { Services } from "../services.server";

/** What the referral actions use of the services. */
export type ReferralServices = Pick<Services, "store" | "mailer" | "writeQueues" | "config" | "sendClaims">;

/** Mails are sent after the change is stored: a failed mail is logged, the change stands. */
export async function mailQuietly(send: () => Promise<unknown>, what: string, log: Pick<Console, "error">) {
  try {
    await send();
  } catch (error) {
    log.error(`Referral change stored, but ${what} failed:`, error);
  }
}

/** The changes of an open proposal, which a member can repeat at will, each mailed at most once per 10 minutes. */
type ProposalChange = "proposed" | "terms-changed" | "accepted" | "declined" | "withdrawn";

/**
 * Tells the other party what the member did. A step of a signed referral's pipeline is
 * mailed at once: each is taken once. A change of an open proposal can be repeated at
 * will (change the terms forty times, withdraw and propose again), so each kind of change
 * is mailed like messages (docs/decisions/0005, 0033): to each party at most once per
 * 10 minutes for the proposals between these two agents; the page shows every change.
 */
export async function tellOtherParty(
  services: ReferralServices,
  referral: Referral,
  actor: Agent,
  update: ReferralUpdate,
  options: { link: string; now: Date; change: ProposalChange | "step"; log: Pick<Console, "error"> },
) {
  const { link, now, change, log } = options;
  const found = otherPartyMail(services, referral, actor.email, update, link);
  if (!found) return;
  const send = () => services.mailer.send(found.mail);
  await mailQuietly(
    () =>
      change === "step"
        ? send()
        : notifyThrottled(services, {
            conversationId: `referrals:${conversationIdFor(actor.id, found.recipient.id)}:${change}`,
            agentEmail: found.recipient.email,
            now,
            send,
            log,
          }),
    `the ${change} mail`,
    log,
  );
}
