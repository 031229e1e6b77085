import type { DashboardMessages } from "~/domain/messages";
import type { Agent } from "~/domain/workbook/tabs";
import { conversationListPage, unreadTotal, type ConversationServices } from "./conversations.server";

/** The dashboard's Messages card shows this many of the newest conversations. */
const DASHBOARD_CONVERSATIONS = 3;

export function dashboardMessages(
  services: ConversationServices,
  member: Agent,
  now: Date,
  shown = DASHBOARD_CONVERSATIONS,
): DashboardMessages {
  const newest = conversationListPage(services, member, 1, shown);
  return {
    now: now.toISOString(),
    conversations: newest.conversations,
    unreadTotal: unreadTotal(services, member),
    conversationCount: newest.conversationTotal,
  };
}
