import type { Pool } from "pg";
import { threadWindow, type ConversationSummary, type LeftOut, type ThreadView } from "~/domain/messages";
import type { ConversationOpening } from "~/domain/track-record";
import { parseRow, serialiseRecord } from "~/domain/workbook/rows";
import { CONVERSATION_MEMBERS_TAB, MESSAGES_TAB, type ConversationMember, type Message } from "~/domain/workbook/tabs";

/**
 * The Messages and ConversationMembers tables read by query (docs/decisions/0053, 0055): a
 * thread a page at a time, a member's conversations with their unread counts, a message or
 * a member's row by id, and the aggregates the track records and the ranking count, each
 * one indexed or grouped query, so no instance holds the messages in memory. The answers
 * are the replica's (`summariseConversations`, `threadPage`, `conversationOpenings`,
 * `latestMessageActivity`); the messages no page shows (`leaveOut`) count nowhere a page shows.
 */
export type PostgresMessages = {
  /** Stores a message; a retry of one already stored (the same id) stores nothing. */
  insert(message: Message): Promise<void>;
  /** Page `requestedPage` (1: the newest) of the messages of the thread the member sent or received. */
  thread(conversationId: string, memberEmail: string, requestedPage: number, leaveOut?: LeftOut): Promise<ThreadView>;
  /** The member's conversations, newest activity first, each with its newest message and unread count. */
  summaries(memberEmail: string, leaveOut?: LeftOut): Promise<ConversationSummary[]>;
  message(id: string): Promise<Message | undefined>;
  /** Staff's look at messages (docs/decisions/0081): the newest `limit` where `about` says, every message counted, and how many there are. */
  forStaff(
    about: { email: string } | { conversationId: string } | { messageId: string } | { messageIds: readonly string[] },
    limit: number,
  ): Promise<{ messages: Message[]; total: number }>;
  /** Per day of `createdAt` (`YYYY-MM-DD`), the messages of that day among those added after row `afterRow`, and the last row counted. */
  countPerDaySince(afterRow: number): Promise<{ days: Map<string, number>; lastRow: number }>;
  conversationMember(id: string): Promise<ConversationMember | undefined>;
  /** Each conversation's first message, its recipient and their first message in it since (hidden ones included, as the replica counts them). */
  conversationOpenings(): Promise<ConversationOpening[]>;
  /** Each agent's latest message written or conversation read, by e-mail. */
  latestActivity(): Promise<Map<string, string>>;
};

const NOTHING_LEFT_OUT: LeftOut = { ids: [], senders: [] };

const COLUMNS = MESSAGES_TAB.headers.map((header) => `m."${header}"`).join(", ");
const MEMBER_COLUMNS = CONVERSATION_MEMBERS_TAB.headers.map((header) => `"${header}"`).join(", ");

/** A row as the tab reads it; the app wrote it, so a row that does not read is a fault, not staff's typing. */
function recordOf<T>(tab: Parameters<typeof parseRow>[0], cells: Record<string, string>): T {
  const parsed = parseRow(tab, cells);
  if (parsed.ok !== true)
    throw new Error(`${tab.name} row ${cells.id ?? ""} does not read: ${parsed.ok === false ? parsed.reason : "blank"}`);
  return parsed.record as T;
}

const messageOf = (cells: Record<string, string>) => recordOf<Message>(MESSAGES_TAB, cells);

/** The thread's messages the member may read: theirs, and not left out ($1 the conversation, $2 the member, $3 and $4 left out). */
const THREAD_OF_MEMBER = `m."conversationId" = $1 AND $2 IN (m."fromEmail", m."toEmail")
  AND NOT (m."id" = ANY($3::text[])) AND NOT (m."fromEmail" = ANY($4::text[]))`;

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

    async thread(conversationId, memberEmail, requestedPage, leaveOut = NOTHING_LEFT_OUT) {
      const params = [conversationId, memberEmail, leaveOut.ids, leaveOut.senders];
      const counted = await pool.query<{ total: number; readUpTo: string | null }>(
        `SELECT count(*)::int AS total, max(m."createdAt") FILTER (WHERE m."toEmail" = $2) AS "readUpTo"
         FROM "Messages" m WHERE ${THREAD_OF_MEMBER}`,
        params,
      );
      const { total, readUpTo } = counted.rows[0] ?? { total: 0, readUpTo: null };
      const window = threadWindow(total, requestedPage);
      // Through the thread's index, newest first: page 1 is the newest messages.
      const [page, oldest] = await Promise.all([
        pool.query<Record<string, string>>(
          `SELECT ${COLUMNS} FROM "Messages" m WHERE ${THREAD_OF_MEMBER}
           ORDER BY m."createdAt" DESC, m."id" DESC OFFSET $5 LIMIT $6`,
          [...params, window.start, window.end - window.start],
        ),
        pool.query<Record<string, string>>(
          `SELECT ${COLUMNS} FROM "Messages" m WHERE ${THREAD_OF_MEMBER} ORDER BY m."createdAt", m."id" LIMIT 1`,
          params,
        ),
      ]);
      return {
        messages: page.rows.map(messageOf).reverse(),
        page: window.page,
        pageCount: window.pageCount,
        total,
        oldest: oldest.rows[0] && messageOf(oldest.rows[0]),
        readUpTo: readUpTo ?? undefined,
      };
    },

    async summaries(memberEmail, leaveOut = NOTHING_LEFT_OUT) {
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

    async message(id) {
      const rows = await pool.query<Record<string, string>>(`SELECT ${COLUMNS} FROM "Messages" m WHERE m."id" = $1`, [id]);
      return rows.rows[0] && messageOf(rows.rows[0]);
    },

    async forStaff(about, limit) {
      const [where, key]: [string, unknown] =
        "email" in about
          ? [`(m."fromEmail" = $1 OR m."toEmail" = $1)`, about.email]
          : "conversationId" in about
            ? [`m."conversationId" = $1`, about.conversationId]
            : "messageIds" in about
              ? [`m."id" = ANY($1::text[])`, about.messageIds]
              : [`m."conversationId" = (SELECT "conversationId" FROM "Messages" WHERE "id" = $1)`, about.messageId];
      const rows = await pool.query<Record<string, string> & { total: number }>(
        `SELECT ${COLUMNS}, count(*) OVER ()::int AS total FROM "Messages" m WHERE ${where}
         ORDER BY m."createdAt" DESC, m."id" DESC LIMIT $2`,
        [key, limit],
      );
      return { messages: rows.rows.map(({ total: _, ...cells }) => messageOf(cells)), total: rows.rows[0]?.total ?? 0 };
    },

    async countPerDaySince(afterRow) {
      // Through the rowNumber's index: after the first count, only the rows added since are read.
      const rows = await pool.query<{ day: string; count: number; lastRow: string }>(
        `SELECT left("createdAt", 10) AS day, count(*)::int AS count, max("rowNumber")::text AS "lastRow"
         FROM "Messages" WHERE "rowNumber" > $1 GROUP BY 1`,
        [afterRow],
      );
      const days = new Map(rows.rows.map((row) => [row.day, row.count]));
      const lastRow = rows.rows.reduce((last, row) => Math.max(last, Number(row.lastRow)), afterRow);
      return { days, lastRow };
    },

    async conversationMember(id) {
      const rows = await pool.query<Record<string, string>>(`SELECT ${MEMBER_COLUMNS} FROM "ConversationMembers" WHERE "id" = $1`, [id]);
      return rows.rows[0] && recordOf<ConversationMember>(CONVERSATION_MEMBERS_TAB, rows.rows[0]);
    },

    async conversationOpenings() {
      // Of messages in the same millisecond, the first added is the first, as the replica reads its rows in order.
      const rows = await pool.query<{ at: string; to: string; replyAt: string | null }>(
        `WITH firsts AS (
           SELECT DISTINCT ON ("conversationId") "conversationId", "createdAt" AS at, "toEmail" AS "to"
           FROM "Messages" ORDER BY "conversationId", "createdAt", "rowNumber"
         )
         SELECT f.at, f."to", (
           SELECT min(m."createdAt") FROM "Messages" m
           WHERE m."conversationId" = f."conversationId" AND m."fromEmail" = f."to" AND m."createdAt" >= f.at
         ) AS "replyAt"
         FROM firsts f`,
      );
      return rows.rows.map(({ at, to, replyAt }) => ({ at, to, replyAt: replyAt ?? undefined }));
    },

    async latestActivity() {
      const rows = await pool.query<{ email: string; at: string }>(
        `SELECT email, max(at) AS at FROM (
           SELECT "fromEmail" AS email, max("createdAt") AS at FROM "Messages" WHERE "fromEmail" <> '' AND "createdAt" <> '' GROUP BY "fromEmail"
           UNION ALL
           SELECT "agentEmail", max("lastReadAt") FROM "ConversationMembers" WHERE "agentEmail" <> '' AND "lastReadAt" <> '' GROUP BY "agentEmail"
         ) latest GROUP BY email`,
      );
      return new Map(rows.rows.map(({ email, at }) => [email, at]));
    },
  };
}
