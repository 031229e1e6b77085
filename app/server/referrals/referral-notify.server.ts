import { conversationIdFor } from "~/domain/conversation";
import { partyOf } from "~/domain/referrals/agreement";
import { hasSigned } from "~/domain/referrals/broker-signoff";
import type { Agent, Referral } from "~/domain/workbook/tabs";
import { otherPartyMail, type ReferralUpdate } from "../mail/referral-mail.server";
import { conversationThrottle } from "../messages/conversation-members.server";
import { signatureNotice } from "../push/notices.server";
import type { Services } from "../services.server";

/** What the referral actions use of the services. */
export type ReferralServices = Pick<Services, "store" | "notifier" | "writeQueues" | "config" | "messageQueries"> & {
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
      push: signaturePush(services, referral, actor, recipient, change),
    },
    { now, throttle },
  );
}

/**
 * A push only when the change leaves the agreement waiting for the recipient's signature
 * (docs/decisions/0067); its mail then goes only if it is still unsigned after the wait.
 */
function signaturePush(services: ReferralServices, referral: Referral, actor: Agent, recipient: Agent, change: ProposalChange | "step") {
  if (change !== "proposed" && change !== "terms-changed" && change !== "accepted") return undefined;
  if (!awaitsSignatureOf(referral, recipient.email)) return undefined;
  return {
    notice: signatureNotice({ referral, actorName: actor.fullName, change }),
    urgency: "normal" as const,
    stillUnread: async () => {
      const current = services.store.referrals.get(referral.id);
      return current !== undefined && current.agreementHash === referral.agreementHash && awaitsSignatureOf(current, recipient.email);
    },
  };
}

function awaitsSignatureOf(referral: Referral, email: string): boolean {
  const party = partyOf(referral, email);
  return referral.status === "proposed" && party !== undefined && !hasSigned(referral, party);
}
