import type { DashboardMessages } from "~/domain/messages";
import type { Agent } from "~/domain/workbook";
import type { Store } from "../store/store.server";
import { conversationListPage, unreadTotal } from "./conversations.server";

/** The dashboard's Messages card shows this many of the newest conversations. */
const DASHBOARD_CONVERSATIONS = 3;

export function dashboardMessages(store: Store, member: Agent, now: Date, shown = DASHBOARD_CONVERSATIONS): DashboardMessages {
  const newest = conversationListPage(store, member, 1, shown);
  return {
    now: now.toISOString(),
    conversations: newest.conversations,
    unreadTotal: unreadTotal(store, member),
    conversationCount: newest.conversationTotal,
  };
}
