import { shouldNotify } from "~/domain/messages";
import type { Services } from "../services.server";
import { memberRowId, saveMember, type MemberServices } from "./read-positions.server";

/*
 * The mail a member gets about a conversation, throttled through their ConversationMembers
 * row (`lastNotifiedAt`); the row and the read positions are in read-positions.server.ts.
 */

function recordNotified(services: MemberServices, conversationId: string, agentEmail: string, at: Date): Promise<boolean> {
  return saveMember(services, conversationId, agentEmail, () => ({ lastNotifiedAt: at.toISOString() }));
}

export type NotifyOutcome = "sent" | "throttled";

/**
 * Calls `send` when the member may be mailed about the conversation at `now` (at most
 * once per NOTIFICATION_INTERVAL_MS), then records the time. One decision at a time
 * per member and conversation in this process, so a double-clicked Send mails once; across
 * instances the mail is claimed as the next link of the conversation's chain of
 * notifications (docs/decisions/0029), so two instances sending messages in the same
 * conversation mail once. A failed send records nothing but its failed claim: the next
 * message tries again.
 *
 * Answers as soon as the mail is handed over: the time is recorded after, while the next
 * decision for this member and conversation waits for it, so a sender does not wait for a
 * second spreadsheet write (on Google Sheets, the next paced write call).
 */
export function notifyThrottled(
  services: MemberServices & Pick<Services, "sendClaims">,
  options: { conversationId: string; agentEmail: string; now: Date; send: () => Promise<void>; log?: Pick<Console, "error"> },
): Promise<NotifyOutcome> {
  const { conversationId, agentEmail, now, send, log = console } = options;
  const { store, writeQueues, sendClaims } = services;
  const id = memberRowId(conversationId, agentEmail);
  return new Promise((resolve, reject) => {
    void writeQueues.serially(`notify:${id}`, async () => {
      if (!shouldNotify(store.conversationMembers.get(id)?.lastNotifiedAt, now)) return resolve("throttled");
      try {
        if ((await sendClaims.sendOnce(sendClaims.nextInChain(`message:${id}`), now, send)) === "taken") return resolve("throttled");
      } catch (error) {
        return reject(error);
      }
      resolve("sent");
      try {
        await recordNotified(services, conversationId, agentEmail, now);
      } catch (error) {
        log.error(`Messages: the notification for conversation ${conversationId} was sent but its time could not be stored`, error);
      }
    });
  });
}
