import { CONVERSATION_MEMBERS_TAB, MESSAGES_TAB, SEND_CLAIMS_TAB, type Message } from "../../../app/domain/workbook/tabs";
import { memberRowId } from "../../../app/server/messages/read-positions.server";
import { insertRows, withStoreFile } from "./store-file";

/**
 * Stands in for the clock moving `minutes` forward for a member's mails about a conversation,
 * in the e2e server's SQLite store, as another app instance's writes would: the server decides
 * the mail throttle from the stored time of the last mail (ConversationMembers'
 * `lastNotifiedAt`) and from when its chain's newest link was claimed (SendClaims).
 */
export function moveMailTimesBack(conversationId: string, agentEmail: string, minutes: number): void {
  const id = memberRowId(conversationId, agentEmail);
  const back = `${-minutes} minutes`;
  withStoreFile((db) => {
    const moved = db
      .prepare(
        `UPDATE "${CONVERSATION_MEMBERS_TAB.name}" SET "lastNotifiedAt" = strftime('%Y-%m-%dT%H:%M:%fZ', "lastNotifiedAt", ?) WHERE id = ?`,
      )
      .run(back, id).changes;
    if (moved !== 1) throw new Error(`No ConversationMembers row for ${agentEmail} in ${conversationId}`);
    db.prepare(`UPDATE "${SEND_CLAIMS_TAB.name}" SET "claimedAt" = strftime('%Y-%m-%dT%H:%M:%fZ', "claimedAt", ?) WHERE key LIKE ?`).run(
      back,
      `message:${id}#%`,
    );
  });
}

/** Writes Messages rows straight into the e2e server's store; it sees them on its next refresh. */
export function seedMessages(messages: readonly Message[]): void {
  insertRows(MESSAGES_TAB, messages);
}
