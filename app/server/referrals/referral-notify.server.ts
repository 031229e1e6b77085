import { conversationIdFor } from "~/domain/conversation";
import type { Agent, Referral } from "~/domain/workbook/tabs";
import { otherPartyMail, type ReferralUpdate } from "../mail/referral-mail.server";
import { conversationThrottle } from "../messages/conversation-members.server";
import type { Services } from "../services.server";

/** What the referral actions use of the services. */
export type ReferralServices = Pick<Services, "store" | "notifier" | "writeQueues" | "config" | "messageReads"> & {
  /** TREC's license data, read again at the steps that bind the fee. */
  licenses: Pick<Services["licenses"], "table">;
};

/** The changes of an open proposal, which a member can repeat at will, each mailed at most once per 10 minutes. */
type ProposalChange = "proposed" | "terms-changed" | "accepted" | "declined" | "withdrawn";

/**
 * Queues the mail telling the other party what the member did, once the change is stored
 * (a mail that fails is the notifier's to log: the change stands). A step of a signed
 * referral's pipeline is mailed at once: each is taken once. A change of an open proposal
 * can be repeated at will (change the terms forty times, withdraw and propose again), so
 * each kind of change is mailed like messages (docs/decisions/0005, 0033): to each party at
 * most once per 10 minutes for the proposals between these two agents; the page shows
 * every change.
 */
export function tellOtherParty(
  services: ReferralServices,
  referral: Referral,
  actor: Agent,
  update: ReferralUpdate,
  options: { link: string; now: Date; change: ProposalChange | "step" },
): void {
  const { link, now, change } = options;
  const found = otherPartyMail(services, referral, actor.email, update, link);
  if (!found) return;
  const { recipient, mail } = found;
  const throttle =
    change === "step"
      ? undefined
      : conversationThrottle(services, `referrals:${conversationIdFor(actor.id, recipient.id)}:${change}`, recipient.email);
  services.notifier.enqueue(
    {
      mail,
      about: `the ${change} mail of referral ${referral.id}`,
      member: { recipient, kind: "referrals", reason: "you are a party to this referral" },
    },
    { now, throttle },
  );
}
