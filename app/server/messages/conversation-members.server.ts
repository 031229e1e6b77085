import { CLAIM_KEYS } from "~/domain/claim-keys";
import type { Throttle } from "../notifier/notifier.server";
import type { Services } from "../services.server";
import { memberRowId } from "./read-positions.server";

/*
 * The mail a member gets about a conversation, throttled through their ConversationMembers
 * row (`lastNotifiedAt`); the row and the read positions are in read-positions.server.ts.
 */

/**
 * The throttle chain of a member's mails about a conversation (docs/decisions/0005, 0029):
 * at most one mail per 10 minutes, the time stamped in their ConversationMembers row. The
 * referral proposal mails reuse it with a conversation id of their own.
 */
export function conversationThrottle(
  { messageQueries }: Pick<Services, "messageQueries">,
  conversationId: string,
  agentEmail: string,
): Throttle {
  return {
    chain: CLAIM_KEYS.message.key(memberRowId(conversationId, agentEmail)),
    lastNotifiedAt: () => messageQueries.lastNotifiedAt(conversationId, agentEmail),
    stamp: (at) => messageQueries.stampNotified(conversationId, agentEmail, at),
  };
}
