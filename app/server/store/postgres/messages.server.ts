import type { Pool } from "pg";
import type { ConversationSummary } from "~/domain/messages";
import { parseRow, serialiseRecord } from "~/domain/workbook/rows";
import { MESSAGES_TAB, type Message } from "~/domain/workbook/tabs";

/** Where a page of a thread ends: the next, older page starts before this message. */
export type ThreadCursor = { readonly createdAt: string; readonly id: string };

/**
 * The Messages and ConversationMembers tables read by query (docs/decisions/0053): a
 * thread a page at a time and a member's conversations with their unread counts, each
 * one indexed query, so no instance holds the messages in memory. The answers are the
 * replica's (`summariseConversations`, a thread oldest first); the messages no page shows
 * (`leaveOut`) count nowhere.
 */
export type PostgresMessages = {
  /** Stores a message; a retry of one already stored (the same id) stores nothing. */
  insert(message: Message): Promise<void>;
  /** Up to `limit` messages of the thread before `before` (the newest when absent), oldest first, and the cursor of the page before. */
  threadPage(
    conversationId: string,
    options: { limit: number; before?: ThreadCursor; leaveOut?: LeftOut },
  ): Promise<{ messages: Message[]; older: ThreadCursor | undefined }>;
  /** The member's conversations, newest activity first, each with its newest message and unread count. */
  summaries(memberEmail: string, options?: { leaveOut?: LeftOut }): Promise<ConversationSummary[]>;
};

/**
 * The messages no page shows, from the staff tabs, which are few and in memory: those staff
 * hid (Reports) and those of suspended agents (Agents), by sender.
 */
type LeftOut = { readonly ids: readonly string[]; readonly senders: readonly string[] };

const NOTHING_LEFT_OUT: LeftOut = { ids: [], senders: [] };

const COLUMNS = MESSAGES_TAB.headers.map((header) => `m."${header}"`).join(", ");

/** A row as the tab reads it; the app wrote it, so a row that does not read is a fault, not staff's typing. */
function messageOf(cells: Record<string, string>): Message {
  const parsed = parseRow(MESSAGES_TAB, cells);
  if (parsed.ok !== true) throw new Error(`Messages row ${cells.id ?? ""} does not read: ${parsed.ok === false ? parsed.reason : "blank"}`);
  return parsed.record;
}

export function createPostgresMessages(pool: Pick<Pool, "query">): PostgresMessages {
  return {
    async insert(message) {
      const cells = serialiseRecord(MESSAGES_TAB, message);
      const headers = MESSAGES_TAB.headers;
      await pool.query(
        `INSERT INTO "Messages" (${headers.map((header) => `"${header}"`).join(", ")})
         VALUES (${headers.map((_, i) => `$${i + 1}`).join(", ")}) ON CONFLICT ("id") DO NOTHING`,
        headers.map((header) => cells[header]),
      );
    },

    async threadPage(conversationId, { limit, before, leaveOut = NOTHING_LEFT_OUT }) {
      // One more than asked, to know whether an older page exists; newest first through the thread's index.
      const rows = await pool.query<Record<string, string>>(
        `SELECT ${COLUMNS} FROM "Messages" m
         WHERE m."conversationId" = $1 AND NOT (m."id" = ANY($2::text[])) AND NOT (m."fromEmail" = ANY($3::text[]))
           AND ($4::text IS NULL OR (m."createdAt", m."id") < ($4, $5))
         ORDER BY m."createdAt" DESC, m."id" DESC LIMIT $6`,
        [conversationId, leaveOut.ids, leaveOut.senders, before?.createdAt ?? null, before?.id ?? null, limit + 1],
      );
      const page = rows.rows.slice(0, limit).map(messageOf).reverse();
      const oldest = page[0];
      return { messages: page, older: rows.rows.length > limit && oldest ? { createdAt: oldest.createdAt, id: oldest.id } : undefined };
    },

    async summaries(memberEmail, { leaveOut = NOTHING_LEFT_OUT } = {}) {
      const rows = await pool.query<Record<string, string> & { unread: number }>(
        `WITH mine AS (
           SELECT * FROM "Messages" WHERE "fromEmail" = $1 AND NOT ("id" = ANY($2::text[])) AND NOT ("fromEmail" = ANY($3::text[]))
           UNION ALL
           SELECT * FROM "Messages"
           WHERE "toEmail" = $1 AND "fromEmail" <> $1 AND NOT ("id" = ANY($2::text[])) AND NOT ("fromEmail" = ANY($3::text[]))
         ),
         newest AS (
           SELECT DISTINCT ON ("conversationId") * FROM mine ORDER BY "conversationId", "createdAt" DESC, "id" DESC
         ),
         unread AS (
           SELECT mine."conversationId", count(*)::int AS unread FROM mine
           LEFT JOIN "ConversationMembers" read ON read."id" = mine."conversationId" || '/' || $1
           WHERE mine."toEmail" = $1 AND (read."lastReadAt" IS NULL OR read."lastReadAt" = '' OR mine."createdAt" > read."lastReadAt")
           GROUP BY mine."conversationId"
         )
         SELECT ${COLUMNS}, coalesce(unread.unread, 0) AS unread FROM newest m
         LEFT JOIN unread ON unread."conversationId" = m."conversationId"
         ORDER BY m."createdAt" DESC, m."id" DESC`,
        [memberEmail, leaveOut.ids, leaveOut.senders],
      );
      return rows.rows.map(({ unread, ...cells }) => {
        const lastMessage = messageOf(cells);
        return {
          conversationId: lastMessage.conversationId,
          partnerEmail: lastMessage.fromEmail === memberEmail ? lastMessage.toEmail : lastMessage.fromEmail,
          lastMessage,
          unread,
        };
      });
    },
  };
}
