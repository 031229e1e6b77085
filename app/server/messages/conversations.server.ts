import { agentIdOf } from "~/domain/agent-id";
import { conversationIdFor } from "~/domain/conversation";
import { AGENT_NOT_FOUND, messageAgentPath } from "~/domain/directory-cards";
import { pageWindow, parsePageNumber } from "~/domain/directory-search";
import {
  CONVERSATION_PAGE_SIZE,
  conversationPath,
  partnerIdIn,
  previewText,
  type ConversationListItem,
  type ConversationSummary,
  type Partner,
  type ThreadMessage,
  type ThreadView,
} from "~/domain/messages";
import { photoSource } from "~/domain/member-profile";
import type { Agent, Message } from "~/domain/workbook/tabs";
import { findDirectoryAgent } from "../directory/directory.server";
import { hasBlocked } from "../moderation/blocks.server";
import { notFound } from "../http.server";
import { blockedBetween } from "../moderation/visibility.server";
import type { Services } from "../services.server";
import { StoreUnavailableError, type Store } from "../store/store.server";

export const CANNOT_MESSAGE_SELF = "You can't send a message to yourself.";
const CONVERSATION_NOT_FOUND = "Conversation not found";

/** What the conversation queries read: the replica's staff tabs, the directory and the messages' reads. */
export type ConversationServices = Pick<Services, "store" | "directory" | "messageQueries">;

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

/**
 * The messages' answer, or null while the database holding them is out of reach (a restart, a
 * failover): the page says so where they would be, and everything else on it serves.
 */
export async function unlessUnavailable<T>(read: Promise<T>): Promise<T | null> {
  try {
    return await read;
  } catch (error) {
    if (error instanceof StoreUnavailableError) return null;
    throw error;
  }
}

/** The member's conversations, newest activity first, with unread counts: one read for everything a page shows of them. */
export function conversationsOf({ messageQueries }: Pick<Services, "messageQueries">, member: Agent): Promise<ConversationSummary[]> {
  return messageQueries.summaries(member);
}

/** The member's conversations, the one with the newest message first. */
export async function listConversations(services: ConversationServices, member: Agent): Promise<ConversationListItem[]> {
  return (await conversationsOf(services, member)).map((summary) => listItem(services.store, member, summary));
}

/** One page of the member's conversations, newest first, and how many there are in all. */
export function conversationListPage(
  services: Pick<Services, "store">,
  member: Agent,
  summaries: readonly ConversationSummary[],
  requestedPage: number,
  pageSize = CONVERSATION_PAGE_SIZE,
) {
  const window = pageWindow(summaries.length, requestedPage, pageSize);
  return {
    conversations: summaries.slice(window.start, window.end).map((summary) => listItem(services.store, member, summary)),
    conversationTotal: summaries.length,
    page: window.page,
    pageCount: window.pageCount,
  };
}

/** Messages to the member they have not read yet, in all their conversations: the header badge. */
export function unreadIn(summaries: readonly ConversationSummary[]): number {
  return summaries.reduce((total, summary) => total + summary.unread, 0);
}

/** When the newest message to or from the member was written; "" when there is none. */
export function newestIn(summaries: readonly ConversationSummary[]): string {
  return summaries[0]?.lastMessage.createdAt ?? "";
}

/** The header badge's count, for a page that shows nothing else of the messages. */
export async function unreadTotal(services: Pick<Services, "messageQueries">, member: Agent): Promise<number> {
  return unreadIn(await conversationsOf(services, member));
}

export function toThreadMessage(message: Message, member: Agent): ThreadMessage {
  return {
    id: message.id,
    text: message.text,
    createdAt: message.createdAt,
    fromMe: message.fromEmail === member.email,
    byEmail: message.via === "email",
  };
}

export type OpenConversation = {
  conversationId: string;
  partner: Partner;
  /** The other agent's row, when it still exists: the recipient of what is sent. */
  partnerAgent: Agent | undefined;
  /** The page of the thread the address asks for (`threadPage`), and what the page needs of the whole thread; null while the database is out of reach. */
  thread: ThreadView | null;
  /** Either member blocked the other: nothing more can be sent. */
  blocked: boolean;
  /** The member blocked the partner (and may unblock them here). */
  blockedByMe: boolean;
  /**
   * Where the page belongs when the address is not it: the conversation's own address when
   * `?to=` named an agent the member already writes with, the canonical `?to=` id when it
   * named them by e-mail (the old site's links do).
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
export async function openFromUrl(services: ConversationServices, member: Agent, url: URL): Promise<Opened> {
  const { store, messageQueries } = services;
  const requestedPage = parsePageNumber(url.searchParams.get("threadPage"));
  const conversationId = url.searchParams.get("conversation");
  if (conversationId !== null) return openById(services, member, conversationId, requestedPage);
  const to = url.searchParams.get("to");
  if (to === null) return { kind: "none" };
  const match = findDirectoryAgent(services, to);
  if (!match) return { kind: "refused", status: 404, message: AGENT_NOT_FOUND };
  if (match.agent.id === member.id) return { kind: "refused", status: 400, message: CANNOT_MESSAGE_SELF };
  const id = conversationIdFor(member.id, match.agent.id);
  const thread = await unlessUnavailable(messageQueries.thread(member, id, requestedPage));
  return {
    kind: "open",
    conversationId: id,
    partner: partnerOf(store, match.agent.id, match.agent.email),
    partnerAgent: match.agent,
    thread,
    ...blockState(services, member, match.agent.email),
    existingPath: thread && thread.total > 0 ? conversationPath(id) : to.includes("@") ? messageAgentPath(match.canonicalId) : null,
  };
}

async function openById(services: ConversationServices, member: Agent, conversationId: string, requestedPage: number): Promise<Opened> {
  const { store, messageQueries } = services;
  const partnerId = partnerIdIn(conversationId, member.id);
  if (partnerId === null) throw notFound(CONVERSATION_NOT_FOUND);
  const partnerAgent = store.agents.get(partnerId);
  const thread = await unlessUnavailable(messageQueries.thread(member, conversationId, requestedPage));
  // An empty conversation opens only with an agent the member could write to. Unread, the
  // conversation is the member's by its id, and opens to say that its messages are unavailable.
  if (thread?.total === 0 && partnerAgent?.status !== "approved") throw notFound(CONVERSATION_NOT_FOUND);
  const oldest = thread?.oldest;
  const partnerEmail = oldest ? (oldest.fromEmail === member.email ? oldest.toEmail : oldest.fromEmail) : "";
  return {
    kind: "open",
    conversationId,
    partner: partnerOf(store, partnerId, partnerEmail),
    partnerAgent,
    thread,
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
