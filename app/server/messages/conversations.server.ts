import { agentIdOf } from "~/domain/agent-id";
import { conversationIdFor } from "~/domain/conversation";
import { AGENT_NOT_FOUND, messageAgentPath } from "~/domain/directory-cards";
import { pageWindow } from "~/domain/directory-search";
import {
  byTime,
  CONVERSATION_PAGE_SIZE,
  conversationPath,
  partnerIdIn,
  previewText,
  summariseConversations,
  type ConversationListItem,
  type ConversationSummary,
  type Partner,
  type ThreadMessage,
} from "~/domain/messages";
import { photoSource } from "~/domain/member-profile";
import type { Agent, Message } from "~/domain/workbook/tabs";
import { findDirectoryAgent } from "../directory/directory.server";
import { hasBlocked } from "../moderation/blocks.server";
import { notFound } from "../http.server";
import { blockedBetween, hiddenItemIds, suspendedEmails } from "../moderation/visibility.server";
import type { Services } from "../services.server";
import type { Store } from "../store/store.server";
import { SUMMARY_CACHE_MEMBERS, type ModerationSources, type SummarySources } from "./summary-cache.server";

export const CANNOT_MESSAGE_SELF = "You can't send a message to yourself.";
const CONVERSATION_NOT_FOUND = "Conversation not found";

function moderationSources({ store }: Pick<Services, "store">): ModerationSources {
  return { hiddenReports: store.reports.by("itemStatus", "hidden"), suspended: store.agents.by("status", "suspended") };
}

/** The messages no page shows: those staff hid and those of suspended agents. */
function visibleMessages(services: Pick<Services, "store">, messages: readonly Message[]): Message[] {
  const hidden = hiddenItemIds(services, "message");
  const suspended = suspendedEmails(services);
  return messages.filter((message) => !hidden.has(message.id) && !suspended.has(message.fromEmail));
}

/**
 * Every message the member sent or received in a conversation of theirs. A row naming
 * the member but filed under another pair's conversation id (a staff edit gone wrong)
 * is left out, so a conversation only ever shows to the two agents its id names.
 */
function messagesOf(services: Pick<Services, "store">, member: Agent, sent: readonly Message[], received: readonly Message[]): Message[] {
  const receivedOnly = received.filter((message) => message.fromEmail !== member.email);
  return visibleMessages(services, [...sent, ...receivedOnly]).filter((message) => partnerIdIn(message.conversationId, member.id) !== null);
}

/** What the conversation queries read: the replica, the directory, read positions and the summaries kept. */
export type ConversationServices = Pick<Services, "store" | "directory" | "readPositions" | "conversationSummaries">;

function sameRows(a: readonly unknown[], b: readonly unknown[]): boolean {
  return a === b || (a.length === 0 && b.length === 0);
}

/**
 * The member's conversation summaries (newest first, with unread counts), worked out
 * again only when a message to or from them or one of their read positions changed:
 * every page's header needs the unread count, and most pages change nothing.
 */
function summariesOf(services: ConversationServices, member: Agent): ConversationSummary[] {
  const { store, readPositions, conversationSummaries: cache } = services;
  const sources: SummarySources = {
    sent: store.messages.by("fromEmail", member.email),
    received: store.messages.by("toEmail", member.email),
    reads: store.conversationMembers.by("agentEmail", member.email),
    ...moderationSources(services),
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
    sameRows(cached.hiddenReports, sources.hiddenReports) &&
    sameRows(cached.suspended, sources.suspended);
  const lastReadAt = (conversationId: string) => readPositions.position(conversationId, member.email);
  const summaries = fresh
    ? cached.summaries
    : summariseConversations(messagesOf(services, member, sources.sent, sources.received), member.email, lastReadAt);
  cache.set(member.email, { ...sources, memberId: member.id, waitingReads, summaries });
  if (cache.size > SUMMARY_CACHE_MEMBERS) cache.delete(cache.keys().next().value!);
  return summaries;
}

function partnerOf(store: Store, partnerId: string, fallbackEmail: string): Partner {
  const agent = store.agents.get(partnerId);
  if (!agent) {
    return {
      fullName: fallbackEmail || "Former member",
      photoUrl: null,
      brokerage: "",
      city: "",
      state: "",
      profileHref: null,
      canReceive: false,
    };
  }
  return {
    fullName: agent.fullName.trim() || agent.email,
    photoUrl: photoSource(agent.photoUrl),
    brokerage: agent.brokerage,
    city: agent.city,
    state: agent.state,
    profileHref: agent.status === "approved" ? `/agent/${encodeURIComponent(agentIdOf(agent))}` : null,
    canReceive: agent.status === "approved",
  };
}

function listItem(store: Store, member: Agent, summary: ConversationSummary): ConversationListItem {
  return {
    conversationId: summary.conversationId,
    partner: partnerOf(store, partnerIdIn(summary.conversationId, member.id) ?? "", summary.partnerEmail),
    preview: previewText(summary.lastMessage.text),
    lastAt: summary.lastMessage.createdAt,
    lastFromMe: summary.lastMessage.fromEmail === member.email,
    unread: summary.unread,
  };
}

/** The member's conversations, the one with the newest message first. */
export function listConversations(services: ConversationServices, member: Agent): ConversationListItem[] {
  return summariesOf(services, member).map((summary) => listItem(services.store, member, summary));
}

/** One page of the member's conversations, newest first, and how many there are in all. */
export function conversationListPage(
  services: ConversationServices,
  member: Agent,
  requestedPage: number,
  pageSize = CONVERSATION_PAGE_SIZE,
) {
  const summaries = summariesOf(services, member);
  const window = pageWindow(summaries.length, requestedPage, pageSize);
  return {
    conversations: summaries.slice(window.start, window.end).map((summary) => listItem(services.store, member, summary)),
    conversationTotal: summaries.length,
    page: window.page,
    pageCount: window.pageCount,
  };
}

/** Messages to the member they have not read yet, in all their conversations: the header badge. */
export function unreadTotal(services: ConversationServices, member: Agent): number {
  return summariesOf(services, member).reduce((total, summary) => total + summary.unread, 0);
}

/** When the newest message to or from the member was written; "" when there is none. */
export function newestMessageAt(services: ConversationServices, member: Agent): string {
  return summariesOf(services, member)[0]?.lastMessage.createdAt ?? "";
}

/** The thread's messages the member may read, oldest first. */
function threadMessages(services: Pick<Services, "store">, member: Agent, conversationId: string): Message[] {
  return visibleMessages(services, services.store.messages.by("conversationId", conversationId))
    .filter((message) => message.fromEmail === member.email || message.toEmail === member.email)
    .sort(byTime);
}

export function toThreadMessage(message: Message, member: Agent): ThreadMessage {
  return { id: message.id, text: message.text, createdAt: message.createdAt, fromMe: message.fromEmail === member.email };
}

export type OpenConversation = {
  conversationId: string;
  partner: Partner;
  /** The other agent's row, when it still exists: the recipient of what is sent. */
  partnerAgent: Agent | undefined;
  messages: Message[];
  /** Either member blocked the other: nothing more can be sent. */
  blocked: boolean;
  /** The member blocked the partner (and may unblock them here). */
  blockedByMe: boolean;
  /**
   * Where the page belongs when the address is not it: the conversation's own address when
   * `?to=` named an agent the member already writes with, the canonical `?to=` id when it
   * named them by e-mail (the spec's links do).
   */
  existingPath: string | null;
};

/** What the address asks to open: nothing, a conversation, or a recipient the member cannot write to. */
export type Opened = { kind: "none" } | { kind: "refused"; status: 400 | 404; message: string } | ({ kind: "open" } & OpenConversation);

/**
 * Reads `?conversation=` or `?to=` from the messages page's address.
 *
 * A conversation id that is not one of the member's throws a 404, whoever's it is, so
 * the answer says nothing about other members' conversations. `?to=` with an agent
 * the member already writes with opens that conversation (the page then redirects to its
 * address); with a new agent it opens an empty conversation, stored when its first
 * message is sent; named by e-mail, the page moves to the canonical id first.
 */
export function openFromUrl(services: Pick<Services, "store" | "directory">, member: Agent, url: URL): Opened {
  const { store } = services;
  const conversationId = url.searchParams.get("conversation");
  if (conversationId !== null) return openById(services, member, conversationId);
  const to = url.searchParams.get("to");
  if (to === null) return { kind: "none" };
  const match = findDirectoryAgent(services, to);
  if (!match) return { kind: "refused", status: 404, message: AGENT_NOT_FOUND };
  if (match.agent.id === member.id) return { kind: "refused", status: 400, message: CANNOT_MESSAGE_SELF };
  const id = conversationIdFor(member.id, match.agent.id);
  const messages = threadMessages(services, member, id);
  return {
    kind: "open",
    conversationId: id,
    partner: partnerOf(store, match.agent.id, match.agent.email),
    partnerAgent: match.agent,
    messages,
    ...blockState(services, member, match.agent.email),
    existingPath: messages.length > 0 ? conversationPath(id) : to.includes("@") ? messageAgentPath(match.canonicalId) : null,
  };
}

function openById(services: Pick<Services, "store">, member: Agent, conversationId: string): Opened {
  const { store } = services;
  const partnerId = partnerIdIn(conversationId, member.id);
  if (partnerId === null) throw notFound(CONVERSATION_NOT_FOUND);
  const partnerAgent = store.agents.get(partnerId);
  const messages = threadMessages(services, member, conversationId);
  // An empty conversation opens only with an agent the member could write to.
  if (messages.length === 0 && partnerAgent?.status !== "approved") throw notFound(CONVERSATION_NOT_FOUND);
  const partnerEmail = messages[0] ? (messages[0].fromEmail === member.email ? messages[0].toEmail : messages[0].fromEmail) : "";
  return {
    kind: "open",
    conversationId,
    partner: partnerOf(store, partnerId, partnerEmail),
    partnerAgent,
    messages,
    ...blockState(services, member, partnerAgent?.email ?? partnerEmail),
    existingPath: null,
  };
}

function blockState(
  services: Pick<Services, "store">,
  member: Agent,
  partnerEmail: string,
): Pick<OpenConversation, "blocked" | "blockedByMe"> {
  const blocked = partnerEmail !== "" && blockedBetween(services, member.email).has(partnerEmail);
  return { blocked, blockedByMe: blocked && hasBlocked(services, member, { email: partnerEmail }) };
}
