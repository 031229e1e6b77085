import { shouldNotify } from "~/domain/messages";
import type { ConversationMember } from "~/domain/workbook";
import { serially } from "../store/serially.server";
import type { Store } from "../store/store.server";

/**
 * Each member's state in a conversation (ConversationMembers tab): how far they have
 * read it and when they were last mailed about it. One row per member and
 * conversation, found by an id made of both, so any instance of the app finds the
 * same row; it is updated in place and never deleted.
 */

export function memberRowId(conversationId: string, agentEmail: string): string {
  return `${conversationId}/${agentEmail.trim().toLowerCase()}`;
}

export function conversationMember(store: Store, conversationId: string, agentEmail: string): ConversationMember | undefined {
  return store.conversationMembers.get(memberRowId(conversationId, agentEmail));
}

type MemberPatch = Partial<Pick<ConversationMember, "lastReadAt" | "lastNotifiedAt">>;

/**
 * Writes the cells `change` asks for given the row as it is when the write starts
 * (null: nothing to write). Only those cells are written, so an update never
 * overwrites the other column, which another instance may be writing.
 */
function saveMember(
  store: Store,
  conversationId: string,
  agentEmail: string,
  change: (current: ConversationMember | undefined) => MemberPatch | null,
): Promise<boolean> {
  const id = memberRowId(conversationId, agentEmail);
  return serially(store, id, async () => {
    const current = store.conversationMembers.get(id);
    const patch = change(current);
    if (patch === null) return false;
    if (current) await store.conversationMembers.update(id, patch);
    else await store.conversationMembers.insert({ id, conversationId, agentEmail: agentEmail.trim().toLowerCase(), ...patch });
    return true;
  });
}

/**
 * Marks the conversation read up to the newest message the member was shown. The time
 * comes from that message, not the clock: a message another instance stored after it,
 * which this instance has not read yet, still counts as unread. Writes only when the
 * position moves forward: opening a thread already read costs no write. True when it wrote.
 */
export function markRead(store: Store, conversationId: string, agentEmail: string, upTo: string): Promise<boolean> {
  const current = conversationMember(store, conversationId, agentEmail)?.lastReadAt;
  if (current !== undefined && current >= upTo) return Promise.resolve(false);
  return saveMember(store, conversationId, agentEmail, (row) =>
    row?.lastReadAt !== undefined && row.lastReadAt >= upTo ? null : { lastReadAt: upTo },
  );
}

export function recordNotified(store: Store, conversationId: string, agentEmail: string, at: Date): Promise<boolean> {
  return saveMember(store, conversationId, agentEmail, () => ({ lastNotifiedAt: at.toISOString() }));
}

export type NotifyOutcome = "sent" | "throttled";

/**
 * Calls `send` when the member may be mailed about the conversation at `now` (at most
 * once per NOTIFICATION_INTERVAL_MS), then records the time. One decision at a time
 * per member and conversation in this process, so a double-clicked Send mails once.
 * A failed send records nothing: the next message tries again.
 */
export function notifyThrottled(
  store: Store,
  conversationId: string,
  agentEmail: string,
  now: Date,
  send: () => Promise<void>,
  log: Pick<Console, "error"> = console,
): Promise<NotifyOutcome> {
  const id = memberRowId(conversationId, agentEmail);
  return serially(store, `notify:${id}`, async () => {
    if (!shouldNotify(store.conversationMembers.get(id)?.lastNotifiedAt, now)) return "throttled";
    await send();
    try {
      await recordNotified(store, conversationId, agentEmail, now);
    } catch (error) {
      log.error(`Messages: the notification for conversation ${conversationId} was sent but its time could not be stored`, error);
    }
    return "sent";
  });
}
