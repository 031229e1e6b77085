import type { DashboardMessages } from "~/domain/messages";
import type { Agent } from "~/domain/workbook/tabs";
import { conversationListPage, conversationsOf, unreadIn, type ConversationServices } from "./conversations.server";

/** The dashboard's Messages card shows this many of the newest conversations. */
const DASHBOARD_CONVERSATIONS = 3;

export async function dashboardMessages(
  services: ConversationServices,
  member: Agent,
  now: Date,
  shown = DASHBOARD_CONVERSATIONS,
): Promise<DashboardMessages> {
  const summaries = await conversationsOf(services, member);
  const newest = conversationListPage(services, member, summaries, 1, shown);
  return {
    now: now.toISOString(),
    conversations: newest.conversations,
    unreadTotal: unreadIn(summaries),
    conversationCount: newest.conversationTotal,
  };
}
