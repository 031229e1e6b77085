import type { ConversationListItem } from "~/domain/messages";
import type { Agent } from "~/domain/workbook/tabs";
import { conversationListPage, unreadTotal, type ConversationServices } from "./conversations.server";

/** The dashboard's Messages card shows this many of the newest conversations. */
export const DASHBOARD_CONVERSATIONS = 3;

export type DashboardMessages = {
  conversations: ConversationListItem[];
  /** Unread messages in all the member's conversations, not only the ones shown. */
  unreadTotal: number;
  /** How many conversations the member has in all. */
  conversationCount: number;
  /** The clock the card's times are read against, so the page and its hydration agree. */
  now: string;
};

export function dashboardMessages(services: ConversationServices, member: Agent, now: Date, shown = DASHBOARD_CONVERSATIONS): DashboardMessages {
  const newest = conversationListPage(services, member, 1, shown);
  return {
    now: now.toISOString(),
    conversations: newest.conversations,
    unreadTotal: unreadTotal(services, member),
    conversationCount: newest.conversationTotal,
  };
}
