import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { byTime, summariseConversations } from "../../app/domain/messages";
import type { Message } from "../../app/domain/workbook/tabs";
import { migrate, readMigrations } from "../../app/server/store/postgres/migrations.server";
import { createPostgresMessages, type ThreadCursor } from "../../app/server/store/postgres/messages.server";
import { usePostgres } from "../support/postgres";

/** The same messages every run: a small linear congruential generator. */
function numbers(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state * 1_103_515_245 + 12_345) % 2 ** 31;
    return state / 2 ** 31;
  };
}

const MEMBERS = ["ann@example.com", "bob@example.com", "cy@example.com", "dee@example.com"];
const next = numbers(28);
const pick = <T>(items: readonly T[]) => items[Math.floor(next() * items.length)]!;

/** 300 messages between the members, some in the same millisecond, and one member writing to themself. */
const MESSAGES: Message[] = Array.from({ length: 300 }, (_, i) => {
  const from = pick(MEMBERS);
  const to = i === 7 ? from : pick(MEMBERS.filter((member) => member !== from));
  const pair = [from, to].sort();
  return {
    id: `m-${String(Math.floor(next() * 1e6)).padStart(6, "0")}-${i}`,
    conversationId: `c:${pair[0]}:${pair[1]}`,
    fromEmail: from,
    toEmail: to,
    text: `message ${i}`,
    createdAt: new Date(Date.UTC(2026, 10, 1) + Math.floor(next() * 120) * 60_000).toISOString(),
  };
});
/** Messages staff hid, and a suspended member whose messages no page shows. */
const HIDDEN = MESSAGES.filter((_, i) => i % 23 === 0).map((message) => message.id);
const SUSPENDED = "dee@example.com";
const LEAVE_OUT = { ids: HIDDEN, senders: [SUSPENDED] };
const shown = (message: Message) => !HIDDEN.includes(message.id) && message.fromEmail !== SUSPENDED;
/** Read positions: a member read a conversation up to some time, or not at all. */
const READS = [...new Set(MESSAGES.map((message) => message.conversationId))].flatMap((conversationId, i) =>
  MEMBERS.filter((_, j) => (i + j) % 3 !== 0).map((email, j) => ({
    id: `${conversationId}/${email}`,
    conversationId,
    agentEmail: email,
    lastReadAt: j % 4 === 0 ? "" : new Date(Date.UTC(2026, 10, 1) + (i * 17 + j * 29) * 60_000).toISOString(),
  })),
);

describe("messages read by query on PostgreSQL", () => {
  const postgres = usePostgres();
  let pool: pg.Pool;
  beforeAll(async () => {
    pool = new pg.Pool({ connectionString: await postgres.server().createDatabase() });
    await migrate(pool, await readMigrations());
    const messages = createPostgresMessages(pool);
    for (const message of MESSAGES) await messages.insert(message);
    for (const read of READS)
      await pool.query(`INSERT INTO "ConversationMembers" ("id", "conversationId", "agentEmail", "lastReadAt") VALUES ($1, $2, $3, $4)`, [
        read.id,
        read.conversationId,
        read.agentEmail,
        read.lastReadAt,
      ]);
  });
  afterAll(async () => {
    await pool.end();
  });

  it("stores a message sent again (the same id) once", async () => {
    await createPostgresMessages(pool).insert(MESSAGES[0]!);
    const count = await pool.query<{ n: number }>(`SELECT count(*)::int AS n FROM "Messages" WHERE "id" = $1`, [MESSAGES[0]!.id]);
    expect(count.rows[0]!.n).toBe(1);
  });

  it("gives each member the conversation list and unread counts the replica works out, leaving out hidden messages and a suspended member's", async () => {
    const messages = createPostgresMessages(pool);
    const visible = MESSAGES.filter(shown);
    for (const member of MEMBERS) {
      const lastReadAt = (conversationId: string) =>
        READS.find((read) => read.id === `${conversationId}/${member}`)?.lastReadAt || undefined;
      const expected = summariseConversations(visible, member, lastReadAt);
      expect(expected.some((summary) => summary.unread > 0)).toBe(true);
      expect(await messages.summaries(member, { leaveOut: LEAVE_OUT })).toEqual(expected);
    }
  });

  it("pages through a thread from the newest, oldest first within a page, every visible message once", async () => {
    const messages = createPostgresMessages(pool);
    const conversationId = `c:ann@example.com:${SUSPENDED}`;
    const thread = MESSAGES.filter((message) => message.conversationId === conversationId && shown(message)).sort(byTime);
    expect(thread.length).toBeGreaterThan(14);
    let read: Message[] = [];
    let before: ThreadCursor | undefined;
    let pages = 0;
    do {
      const page = await messages.threadPage(conversationId, { limit: 7, leaveOut: LEAVE_OUT, ...(before ? { before } : {}) });
      expect(page.messages.length).toBeLessThanOrEqual(7);
      read = [...page.messages, ...read];
      before = page.older;
      pages += 1;
    } while (before);
    expect(pages).toBe(Math.ceil(thread.length / 7));
    expect(read).toEqual(thread);
  });
});
