import { partnerIdIn } from "~/domain/messages";
import type { Database } from "../store/postgres/database.server";
import type { Store } from "../store/store.server";
import { refreshJob } from "../jobs/registry.server";

/**
 * Tells a member's open messages pages that a message to or from them arrived. News
 * comes from this process's own writes (`publish`) and from what other instances and staff
 * wrote: without a database, the replica's refreshes, which run on the store's own timer,
 * so open pages cost no extra reads of the spreadsheet; with one, the database's
 * notifications of new messages, which name their conversation. Staff hiding or showing a
 * message reaches every open page through the refreshes, on either. One per process, in
 * `Services`.
 */
export type MessageEvents = {
  /**
   * Calls `listener` whenever a message to or from the member with this e-mail arrives,
   * and `onClose` when the hub closes; returns the unsubscribe.
   */
  subscribe(memberEmail: string, listener: () => void, onClose: () => void): () => void;
  publish(memberEmails: Iterable<string>): void;
  /**
   * Closes every subscription (the open streams end, and browsers reconnect to this
   * server once it is back or to another) and stops watching refreshes: the server
   * stops with it.
   */
  close(): void;
};

export function createMessageEvents(
  store: Pick<Store, "addJob"> & { messages: Pick<Store["messages"], "get">; agents: Pick<Store["agents"], "by"> },
  database: Pick<Database, "onTableChanges"> | null,
  log: Pick<Console, "error"> = console,
): MessageEvents {
  const listeners = new Map<string, Set<() => void>>();
  const closers = new Set<() => void>();
  let closed = false;

  function publish(memberEmails: Iterable<string>): void {
    for (const email of new Set(memberEmails)) {
      for (const listener of listeners.get(email) ?? []) {
        try {
          listener();
        } catch (error) {
          log.error("Messages: a live update listener failed:", error);
        }
      }
    }
  }

  /** The members listening whose conversation this is: a conversation id names its two agents' ids. */
  function membersOf(conversationId: string): string[] {
    return [...listeners.keys()].filter((email) =>
      store.agents.by("email", email).some((agent) => partnerIdIn(conversationId, agent.id) !== null),
    );
  }

  // Another instance's messages, as the database tells of them; this process's own were published as they were sent.
  const stopHearingDatabase = database
    ? database.onTableChanges(({ table, rows, local }) => {
        if (local || listeners.size === 0 || (table !== null && table !== "Messages")) return;
        // Too many to name, or missed while the listener reconnected: every open page reads again.
        if (table === null || rows === null) publish(listeners.keys());
        else publish(rows.flatMap((row) => (row.conversationId === undefined ? [] : membersOf(row.conversationId))));
      })
    : () => undefined;

  // Staff's decisions (the Moderation tab, a report's itemStatus) on every deployment, and
  // without a database the messages others stored: the refresh event names them.
  const job = store.addJob({
    ...refreshJob("liveUpdates"),
    async run({ messages: { added, changed }, moderation, reports }) {
      if (listeners.size === 0) return;
      // A hide or show names a message by id only: rare enough that every open page reads again.
      if (moderation.added.length + moderation.changed.length + moderation.removed.length + reports.changed.length > 0) {
        publish(listeners.keys());
        return;
      }
      if (database) return;
      const messages = [...added, ...changed.map(({ id }) => id)].flatMap((id) => store.messages.get(id) ?? []);
      publish(messages.flatMap((message) => [message.fromEmail, message.toEmail]));
    },
  });
  const stopWatching = () => {
    stopHearingDatabase();
    void job.stop();
  };

  return {
    publish,
    subscribe(memberEmail, listener, onClose) {
      // A stream opened while the server stops ends at once.
      if (closed) queueMicrotask(onClose);
      let set = listeners.get(memberEmail);
      if (!set) {
        set = new Set();
        listeners.set(memberEmail, set);
      }
      set.add(listener);
      closers.add(onClose);
      return () => {
        closers.delete(onClose);
        set.delete(listener);
        if (set.size === 0 && listeners.get(memberEmail) === set) listeners.delete(memberEmail);
      };
    },
    close() {
      closed = true;
      stopWatching();
      for (const onClose of [...closers]) onClose();
    },
  };
}
