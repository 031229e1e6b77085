import path from "node:path";
import Database from "better-sqlite3";
import { serialiseRecord } from "../../../app/domain/workbook/rows";
import { CONVERSATION_MEMBERS_TAB, MESSAGES_TAB, type Message } from "../../../app/domain/workbook/tabs";
import { memberRowId } from "../../../app/server/messages/conversation-members.server";
import { e2eDataDir } from "./env";

/**
 * Edits a member's row of the ConversationMembers tab in the e2e server's SQLite store, as
 * staff or another app instance would. Moving `lastNotifiedAt` back stands in for the
 * clock moving forward: the server decides the mail throttle from this stored time.
 */
export function updateConversationMemberRow(conversationId: string, agentEmail: string, cells: Readonly<Record<string, string>>): void {
  const db = new Database(path.join(e2eDataDir, "store.sqlite"));
  db.pragma("busy_timeout = 10000");
  try {
    const assignments = Object.keys(cells).map((column) => `"${column.replaceAll('"', '""')}" = ?`).join(", ");
    const changed = db
      .prepare(`UPDATE "${CONVERSATION_MEMBERS_TAB.name}" SET ${assignments} WHERE id = ?`)
      .run(...Object.values(cells), memberRowId(conversationId, agentEmail)).changes;
    if (changed !== 1) throw new Error(`No ConversationMembers row for ${agentEmail} in ${conversationId}`);
  } finally {
    db.close();
  }
}

/** Writes Messages rows straight into the e2e server's store; it sees them on its next refresh. */
export function seedMessages(messages: readonly Message[]): void {
  const db = new Database(path.join(e2eDataDir, "store.sqlite"));
  db.pragma("busy_timeout = 10000");
  try {
    const columns = MESSAGES_TAB.headers.map((header) => `"${header}"`).join(", ");
    const insert = db.prepare(`INSERT INTO "${MESSAGES_TAB.name}" (${columns}) VALUES (${MESSAGES_TAB.headers.map(() => "?").join(", ")})`);
    db.transaction(() => {
      for (const message of messages) {
        const cells = serialiseRecord(MESSAGES_TAB, message);
        insert.run(...MESSAGES_TAB.headers.map((header) => cells[header] ?? ""));
      }
    }).immediate();
  } finally {
    db.close();
  }
}
