import type { ConversationMember } from "~/domain/workbook/tabs";
import type { WriteQueues } from "../store/write-queues.server";
import type { Store } from "../store/store.server";

/**
 * Each member's state in a conversation (ConversationMembers tab): how far they have
 * read it and when they were last mailed about it. One row per member and
 * conversation, found by an id made of both, so any instance of the app finds the
 * same row; it is updated in place and never deleted.
 */

export function memberRowId(conversationId: string, agentEmail: string): string {
  return `${conversationId}/${agentEmail}`;
}

function conversationMember(store: Store, conversationId: string, agentEmail: string): ConversationMember | undefined {
  return store.conversationMembers.get(memberRowId(conversationId, agentEmail));
}

type MemberPatch = Partial<Pick<ConversationMember, "lastReadAt" | "lastNotifiedAt">>;
/** What writing a member's row takes: the replica, and the queue that orders the writes of one row. */
export type MemberServices = { store: Store; writeQueues: WriteQueues };

/**
 * Writes the cells `change` asks for given the row as it is when the write starts
 * (null: nothing to write). Only those cells are written, so an update never
 * overwrites the other column, which another instance may be writing.
 */
export function saveMember(
  { store, writeQueues }: MemberServices,
  conversationId: string,
  agentEmail: string,
  change: (current: ConversationMember | undefined) => MemberPatch | null,
): Promise<boolean> {
  const id = memberRowId(conversationId, agentEmail);
  return writeQueues.serially(id, async () => {
    const current = store.conversationMembers.get(id);
    const patch = change(current);
    if (patch === null) return false;
    if (current) await store.conversationMembers.update(id, patch);
    else await store.conversationMembers.insert({ id, conversationId, agentEmail, ...patch });
    return true;
  });
}

/**
 * A member's read position in a conversation is written at most once in this long by
 * one process: in a lively exchange each arriving message would otherwise cost a write.
 * A newer position waits in memory (and counts at once for the member's unread counts
 * here) until the end of the interval, then is written.
 */
const READ_WRITE_INTERVAL_MS = 30_000;

type ReadWrites = { lastWriteAt: number; waiting: string | undefined; timer: ReturnType<typeof setTimeout> | undefined };

/** Read positions waiting to be written, and when each was last written: one per process, in `Services`. */
export type ReadPositions = {
  /** How far the member has read the conversation: the stored position, or a newer one waiting to be written. */
  position(conversationId: string, agentEmail: string): string | undefined;
  /** Changes whenever a read position of the member waiting to be written changes. */
  waitingVersion(agentEmail: string): number;
  /**
   * Marks the conversation read up to the newest message the member was shown. The time
   * comes from that message, not the clock: a message another instance stored after it,
   * which this instance has not read yet, still counts as unread. Writes only when the
   * position moves forward (opening a thread already read costs no write), and at most
   * once per READ_WRITE_INTERVAL_MS (a later position waits for the end of it). True when
   * the position moved.
   */
  markRead(conversationId: string, agentEmail: string, upTo: string): Promise<boolean>;
  /** Drops the positions still waiting: at shutdown, they only show those messages as unread again. */
  stop(): void;
};

export function createReadPositions(services: MemberServices): ReadPositions {
  const { store } = services;
  const readWrites = new Map<string, ReadWrites>();
  /** Per member, bumped whenever one of their waiting positions changes, so cached unread counts are worked out again. */
  const waitingVersions = new Map<string, number>();

  function readWritesOf(id: string): ReadWrites {
    let state = readWrites.get(id);
    if (!state) readWrites.set(id, (state = { lastWriteAt: 0, waiting: undefined, timer: undefined }));
    return state;
  }

  function setWaiting(agentEmail: string, state: ReadWrites, waiting: string | undefined): void {
    state.waiting = waiting;
    waitingVersions.set(agentEmail, (waitingVersions.get(agentEmail) ?? 0) + 1);
  }

  function position(conversationId: string, agentEmail: string): string | undefined {
    const stored = conversationMember(store, conversationId, agentEmail)?.lastReadAt;
    const waiting = readWrites.get(memberRowId(conversationId, agentEmail))?.waiting;
    return waiting !== undefined && (stored === undefined || waiting > stored) ? waiting : stored;
  }

  function writeReadPosition(conversationId: string, agentEmail: string, upTo: string): Promise<boolean> {
    return saveMember(services, conversationId, agentEmail, (row) =>
      row?.lastReadAt !== undefined && row.lastReadAt >= upTo ? null : { lastReadAt: upTo },
    );
  }

  /** Writes the waiting position at the end of the interval; a failure is logged and only leaves the stored count as it was. */
  async function writeWaiting(conversationId: string, agentEmail: string, state: ReadWrites): Promise<void> {
    state.timer = undefined;
    const upTo = state.waiting;
    if (upTo === undefined) return;
    state.lastWriteAt = Date.now();
    try {
      await writeReadPosition(conversationId, agentEmail, upTo);
    } catch (error) {
      console.error(`Messages: could not store that ${agentEmail} read conversation ${conversationId}`, error);
    }
    // Kept until written, so the count never goes back meanwhile; a newer one stays for the next interval.
    if (state.waiting === upTo) setWaiting(agentEmail, state, undefined);
  }

  return {
    position,
    waitingVersion: (agentEmail) => waitingVersions.get(agentEmail) ?? 0,
    async markRead(conversationId, agentEmail, upTo) {
      const current = position(conversationId, agentEmail);
      if (current !== undefined && current >= upTo) return false;
      const state = readWritesOf(memberRowId(conversationId, agentEmail));
      const wait = state.lastWriteAt + READ_WRITE_INTERVAL_MS - Date.now();
      if (wait > 0) {
        setWaiting(agentEmail, state, upTo);
        state.timer ??= setTimeout(() => void writeWaiting(conversationId, agentEmail, state), wait);
        // A waiting position never keeps the process alive.
        state.timer.unref?.();
        return true;
      }
      state.lastWriteAt = Date.now();
      return writeReadPosition(conversationId, agentEmail, upTo);
    },
    stop() {
      for (const state of readWrites.values()) clearTimeout(state.timer);
    },
  };
}
