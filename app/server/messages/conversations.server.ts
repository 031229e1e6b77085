import { agentIdOf } from "~/domain/agent-id";
import { conversationIdFor } from "~/domain/conversation";
import { messageAgentPath } from "~/domain/directory-cards";
import {
  byTime,
  conversationPath,
  partnerIdIn,
  previewText,
  summariseConversations,
  unreadCount,
  type ConversationListItem,
  type Partner,
  type ThreadMessage,
} from "~/domain/messages";
import { photoSource } from "~/domain/member-profile";
import type { Agent, Message } from "~/domain/workbook";
import { findDirectoryAgent } from "../directory/directory.server";
import type { Store } from "../store/store.server";
import { conversationMember } from "./conversation-members.server";

export const CANNOT_MESSAGE_SELF = "You can't send a message to yourself.";
/** The spec's wording on the agent profile; agents who are pending or rejected are not found either. */
export const AGENT_NOT_FOUND = "Agent not found";

/**
 * Every message the member sent or received in a conversation of theirs. A row naming
 * the member but filed under another pair's conversation id (a staff edit gone wrong)
 * is left out, so a conversation only ever shows to the two agents its id names.
 */
function messagesOf(store: Store, member: Agent): Message[] {
  const sent = store.messages.by("fromEmail", member.email);
  const received = store.messages.by("toEmail", member.email);
  const receivedOnly = received.filter((message) => message.fromEmail !== member.email);
  return [...sent, ...receivedOnly].filter((message) => partnerIdIn(message.conversationId, member.id) !== null);
}

function lastReadAt(store: Store, member: Agent): (conversationId: string) => string | undefined {
  return (conversationId) => conversationMember(store, conversationId, member.email)?.lastReadAt;
}

function partnerOf(store: Store, partnerId: string, fallbackEmail: string): Partner {
  const agent = store.agents.get(partnerId);
  if (!agent) {
    return { fullName: fallbackEmail || "Former member", photoUrl: null, brokerage: "", city: "", state: "", profileHref: null, canReceive: false };
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

/** The member's conversations, the one with the newest message first. */
export function listConversations(store: Store, member: Agent): ConversationListItem[] {
  return summariseConversations(messagesOf(store, member), member.email, lastReadAt(store, member)).map((summary) => ({
    conversationId: summary.conversationId,
    partner: partnerOf(store, partnerIdIn(summary.conversationId, member.id) ?? "", summary.partnerEmail),
    preview: previewText(summary.lastMessage.text),
    lastAt: summary.lastMessage.createdAt,
    lastFromMe: summary.lastMessage.fromEmail === member.email,
    unread: summary.unread,
  }));
}

/** Messages to the member they have not read yet, in all their conversations: the header badge. */
export function unreadTotal(store: Store, member: Agent): number {
  const readUpTo = lastReadAt(store, member);
  const byConversation = new Map<string, Message[]>();
  for (const message of store.messages.by("toEmail", member.email)) {
    if (partnerIdIn(message.conversationId, member.id) === null) continue;
    const thread = byConversation.get(message.conversationId);
    if (thread) thread.push(message);
    else byConversation.set(message.conversationId, [message]);
  }
  let total = 0;
  for (const [conversationId, thread] of byConversation) total += unreadCount(thread, member.email, readUpTo(conversationId));
  return total;
}

/** When the newest message to or from the member was written; "" when there is none. */
export function newestMessageAt(store: Store, member: Agent): string {
  return messagesOf(store, member).reduce((newest, message) => (message.createdAt > newest ? message.createdAt : newest), "");
}

/** The thread's messages the member may read, oldest first. */
export function threadMessages(store: Store, member: Agent, conversationId: string): Message[] {
  return store.messages
    .by("conversationId", conversationId)
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
export function openFromUrl(store: Store, member: Agent, url: URL): Opened {
  const conversationId = url.searchParams.get("conversation");
  if (conversationId !== null) return openById(store, member, conversationId);
  const to = url.searchParams.get("to");
  if (to === null) return { kind: "none" };
  const match = findDirectoryAgent(store, to);
  if (!match) return { kind: "refused", status: 404, message: AGENT_NOT_FOUND };
  if (match.agent.id === member.id) return { kind: "refused", status: 400, message: CANNOT_MESSAGE_SELF };
  const id = conversationIdFor(member.id, match.agent.id);
  const messages = threadMessages(store, member, id);
  return {
    kind: "open",
    conversationId: id,
    partner: partnerOf(store, match.agent.id, match.agent.email),
    partnerAgent: match.agent,
    messages,
    existingPath: messages.length > 0 ? conversationPath(id) : to.includes("@") ? messageAgentPath(match.canonicalId) : null,
  };
}

function openById(store: Store, member: Agent, conversationId: string): Opened {
  const partnerId = partnerIdIn(conversationId, member.id);
  if (partnerId === null) throw notFound();
  const partnerAgent = store.agents.get(partnerId);
  const messages = threadMessages(store, member, conversationId);
  // An empty conversation opens only with an agent the member could write to.
  if (messages.length === 0 && partnerAgent?.status !== "approved") throw notFound();
  const partnerEmail = messages[0] ? (messages[0].fromEmail === member.email ? messages[0].toEmail : messages[0].fromEmail) : "";
  return { kind: "open", conversationId, partner: partnerOf(store, partnerId, partnerEmail), partnerAgent, messages, existingPath: null };
}

function notFound(): Response {
  return new Response("Conversation not found", { status: 404 });
}
