import type { Throttle } from "../notifier/notifier.server";
import { memberRowId, saveMember, type MemberServices } from "./read-positions.server";

/*
 * The mail a member gets about a conversation, throttled through their ConversationMembers
 * row (`lastNotifiedAt`); the row and the read positions are in read-positions.server.ts.
 */

/**
 * The throttle chain of a member's mails about a conversation (docs/decisions/0005, 0029):
 * at most one mail per 10 minutes, the time stamped in their ConversationMembers row. The
 * referral proposal mails reuse it with a conversation id of their own.
 */
export function conversationThrottle(services: MemberServices, conversationId: string, agentEmail: string): Throttle {
  const id = memberRowId(conversationId, agentEmail);
  return {
    chain: `message:${id}`,
    lastNotifiedAt: () => services.store.conversationMembers.get(id)?.lastNotifiedAt,
    stamp: (at) => saveMember(services, conversationId, agentEmail, () => ({ lastNotifiedAt: at.toISOString() })),
  };
}
