import { CONVERSATION_MEMBERS_TAB, MESSAGES_TAB, type Message } from "../../../app/domain/workbook/tabs";
import { memberRowId } from "../../../app/server/messages/read-positions.server";
import { insertRows, updateRow } from "./store-file";

/**
 * Edits a member's row of the ConversationMembers tab in the e2e server's SQLite store, as
 * staff or another app instance would. Moving `lastNotifiedAt` back stands in for the
 * clock moving forward: the server decides the mail throttle from this stored time.
 */
export function updateConversationMemberRow(conversationId: string, agentEmail: string, cells: Readonly<Record<string, string>>): void {
  if (updateRow(CONVERSATION_MEMBERS_TAB, memberRowId(conversationId, agentEmail), cells) !== 1) {
    throw new Error(`No ConversationMembers row for ${agentEmail} in ${conversationId}`);
  }
}

/** Writes Messages rows straight into the e2e server's store; it sees them on its next refresh. */
export function seedMessages(messages: readonly Message[]): void {
  insertRows(MESSAGES_TAB, messages);
}
