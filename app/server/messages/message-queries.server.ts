import { partnerIdIn, readPositionAfter, summariseConversations, threadPage, byTime } from "~/domain/messages";
import type { ConversationSummary, LeftOut, ThreadView } from "~/domain/messages";
import { latestMessageActivity } from "~/domain/matching/signals";
import { conversationOpenings, type ConversationOpening } from "~/domain/track-record";
import type { Agent, Message } from "~/domain/workbook/tabs";
import { hiddenItemIds, suspendedEmails } from "../moderation/visibility.server";
import type { WriteQueues } from "../store/write-queues.server";
import type { Store } from "../store/store.server";
import { memberRowId, saveMember, type ReadPositions } from "./read-positions.server";
import { SUMMARY_CACHE_MEMBERS, type SummaryCache, type SummarySources } from "./summary-cache.server";

/**
 * Figures counted from all the messages, kept between requests for the caches that read
 * them synchronously (the track records, the ranking's signals).
 */
export type MessageAggregate<T> = {
  /** Changes whenever `current()` may answer differently; `NOT_COUNTED` until the first count ends. */
  version(): number;
  current(): T;
};

/** A `MessageAggregate`'s version before its first count. */
export const NOT_COUNTED = 0;

/**
 * Every read of the Messages and ConversationMembers tabs, named after what the pages ask
 * (docs/decisions/0055), and the writes of a member's row in a conversation. Two
 * implementations: over the replica (`createReplicaMessageQueries`, without a database) and
 * by query (`createPostgresMessageQueries`). Both leave out the messages staff hid and those
 * of suspended agents, taken from the staff tabs. One per process, in `Services`. By query,
 * a read or write rejects with StoreUnavailableError while the database is out of reach.
 */
export type MessageQueries = {
  /** The member's conversations, newest activity first, with unread counts. */
  summaries(member: Pick<Agent, "id" | "email">): Promise<ConversationSummary[]>;
  /** Page `requestedPage` (1: the newest) of the thread's messages the member sent or received. */
  thread(member: Pick<Agent, "email">, conversationId: string, requestedPage: number): Promise<ThreadView>;
  /** A message by id, hidden or not: staff's reports name any message. */
  message(id: string): Promise<Message | undefined>;
  /** When the member was last mailed about the conversation. */
  lastNotifiedAt(conversationId: string, agentEmail: string): Promise<string | undefined>;
  /** Marks the conversation read up to `upTo` when that moves the position forward; true when it did. */
  markRead(conversationId: string, agentEmail: string, upTo: string): Promise<boolean>;
  /** Stamps the time the member was mailed about the conversation. */
  stampNotified(conversationId: string, agentEmail: string, at: Date): Promise<unknown>;
  /**
   * For staff's mirror tabs (docs/decisions/0081): the newest `limit` messages, hidden ones and
   * suspended senders' too, of a member's conversations, of one conversation, of a message's
   * conversation or with these ids, newest first, and how many there are in all.
   */
  forStaff(about: StaffMessageQuery, limit: number): Promise<{ messages: Message[]; total: number }>;
  /** How many messages were stored each day (UTC, `YYYY-MM-DD`) from `since` (a day) on, for staff's Daily counts tab. */
  perDay(since: string): Promise<Map<string, number>>;
  /** Each conversation's opening, for the track records' reply times. */
  openings: MessageAggregate<readonly ConversationOpening[]>;
  /** Each agent's latest message written or read, for the ranking's last activity. */
  latestActivity: MessageAggregate<ReadonlyMap<string, string>>;
};

/** What staff look messages up by: a member's address, a conversation's id, a message's id (its conversation) or several messages' ids. */
type StaffMessageQuery = { email: string } | { conversationId: string } | { messageId: string } | { messageIds: readonly string[] };

/** Messages per day of their `createdAt`, from `since` on. */
function countPerDay(messages: Iterable<Pick<Message, "createdAt">>, since: string): Map<string, number> {
  const counts = new Map<string, number>();
  for (const { createdAt } of messages) {
    const day = createdAt.slice(0, 10);
    if (day >= since) counts.set(day, (counts.get(day) ?? 0) + 1);
  }
  return counts;
}

/** The messages no page shows, as the staff tabs say now. */
export function leftOut(services: { store: Store }): LeftOut {
  return { ids: [...hiddenItemIds(services, "message")], senders: [...suspendedEmails(services)] };
}

/** Keeps only the conversations the member belongs to: a row filed under another pair's id shows to neither. */
export function ownConversations(summaries: readonly ConversationSummary[], member: Pick<Agent, "id">): ConversationSummary[] {
  return summaries.filter((summary) => partnerIdIn(summary.conversationId, member.id) !== null);
}

type ReplicaServices = { store: Store; writeQueues: WriteQueues; readPositions: ReadPositions; conversationSummaries: SummaryCache };

export function createReplicaMessageQueries(services: ReplicaServices): MessageQueries {
  const { store, readPositions } = services;

  function visible(messages: readonly Message[]): Message[] {
    const hidden = hiddenItemIds(services, "message");
    const suspended = suspendedEmails(services);
    return messages.filter((message) => !hidden.has(message.id) && !suspended.has(message.fromEmail));
  }

  return {
    summaries: async (member) => summariesOf(services, member, visible),
    async thread(member, conversationId, requestedPage) {
      const messages = visible(store.messages.by("conversationId", conversationId))
        .filter((message) => message.fromEmail === member.email || message.toEmail === member.email)
        .sort(byTime);
      return {
        ...threadPage(messages, requestedPage),
        total: messages.length,
        oldest: messages[0],
        readUpTo: readPositionAfter(messages, member.email),
      };
    },
    message: async (id) => store.messages.get(id),
    async forStaff(about, limit) {
      const messages = [...staffMessagesOf(store, about)].sort(byTime).reverse();
      return { messages: messages.slice(0, limit), total: messages.length };
    },
    perDay: async (since) => countPerDay(store.messages.all(), since),
    lastNotifiedAt: async (conversationId, agentEmail) =>
      store.conversationMembers.get(memberRowId(conversationId, agentEmail))?.lastNotifiedAt,
    markRead: (conversationId, agentEmail, upTo) => readPositions.markRead(conversationId, agentEmail, upTo),
    stampNotified: (conversationId, agentEmail, at) =>
      saveMember(services, conversationId, agentEmail, () => ({ lastNotifiedAt: at.toISOString() })),
    openings: replicaAggregate(
      () => [store.messages.version()],
      () => conversationOpenings(store.messages.all()),
    ),
    latestActivity: replicaAggregate(
      () => [store.messages.version(), store.conversationMembers.version()],
      () => latestMessageActivity(store.messages.all(), store.conversationMembers.all()),
    ),
  };
}

function staffMessagesOf(store: Store, about: StaffMessageQuery): Set<Message> {
  if ("email" in about) return new Set([...store.messages.by("fromEmail", about.email), ...store.messages.by("toEmail", about.email)]);
  if ("messageIds" in about) return new Set(about.messageIds.flatMap((id) => store.messages.get(id) ?? []));
  const conversationId = "conversationId" in about ? about.conversationId : store.messages.get(about.messageId)?.conversationId;
  return new Set(conversationId === undefined ? [] : store.messages.by("conversationId", conversationId));
}

/** Counted again from the replica's rows when the tabs it reads changed, when asked. */
function replicaAggregate<T>(tabVersions: () => readonly number[], count: () => T): MessageAggregate<T> {
  let version = NOT_COUNTED;
  let counted: { versions: readonly number[]; value: T } | undefined;
  const seen = () => {
    const versions = tabVersions();
    if (!counted || versions.some((v, i) => v !== counted!.versions[i])) {
      version += 1;
      counted = { versions, value: count() };
    }
    return counted.value;
  };
  return {
    version() {
      seen();
      return version;
    },
    current: seen,
  };
}

function sameRows(a: readonly unknown[], b: readonly unknown[]): boolean {
  return a === b || (a.length === 0 && b.length === 0);
}

/**
 * The member's conversation summaries (newest first, with unread counts), worked out
 * again only when a message to or from them or one of their read positions changed:
 * every page's header needs the unread count, and most pages change nothing.
 */
function summariesOf(
  services: ReplicaServices,
  member: Pick<Agent, "id" | "email">,
  visible: (messages: readonly Message[]) => Message[],
): ConversationSummary[] {
  const { store, readPositions, conversationSummaries: cache } = services;
  const sources: SummarySources = {
    sent: store.messages.by("fromEmail", member.email),
    received: store.messages.by("toEmail", member.email),
    reads: store.conversationMembers.by("agentEmail", member.email),
    staffDecisions: store.moderation.all(),
    hiddenReports: store.reports.by("itemStatus", "hidden"),
    suspended: store.agents.by("status", "suspended"),
  };
  const waitingReads = readPositions.waitingVersion(member.email);
  const cached = cache.get(member.email);
  cache.delete(member.email);
  const fresh =
    cached &&
    cached.memberId === member.id &&
    cached.waitingReads === waitingReads &&
    sameRows(cached.sent, sources.sent) &&
    sameRows(cached.received, sources.received) &&
    sameRows(cached.reads, sources.reads) &&
    sameRows(cached.staffDecisions, sources.staffDecisions) &&
    sameRows(cached.hiddenReports, sources.hiddenReports) &&
    sameRows(cached.suspended, sources.suspended);
  const lastReadAt = (conversationId: string) => readPositions.position(conversationId, member.email);
  const summaries = fresh
    ? cached.summaries
    : summariseConversations(messagesOf(member, sources.sent, sources.received, visible), member.email, lastReadAt);
  cache.set(member.email, { ...sources, memberId: member.id, waitingReads, summaries });
  if (cache.size > SUMMARY_CACHE_MEMBERS) cache.delete(cache.keys().next().value!);
  return summaries;
}

/**
 * Every message the member sent or received in a conversation of theirs. A row naming
 * the member but filed under another pair's conversation id (a staff edit gone wrong)
 * is left out, so a conversation only ever shows to the two agents its id names.
 */
function messagesOf(
  member: Pick<Agent, "id" | "email">,
  sent: readonly Message[],
  received: readonly Message[],
  visible: (messages: readonly Message[]) => Message[],
): Message[] {
  const receivedOnly = received.filter((message) => message.fromEmail !== member.email);
  return visible([...sent, ...receivedOnly]).filter((message) => partnerIdIn(message.conversationId, member.id) !== null);
}
