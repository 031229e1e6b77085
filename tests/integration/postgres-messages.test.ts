import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { conversationIdFor } from "../../app/domain/conversation";
import { latestMessageActivity } from "../../app/domain/matching/signals";
import { byTime, summariseConversations } from "../../app/domain/messages";
import { conversationOpenings, type ConversationOpening } from "../../app/domain/track-record";
import { serialiseRecord } from "../../app/domain/workbook/rows";
import { WORKBOOK, type Agent, type ConversationMember, type Message } from "../../app/domain/workbook/tabs";
import type { MessageQueries } from "../../app/server/messages/message-queries.server";
import { createPostgresMessageQueries } from "../../app/server/messages/postgres-message-queries.server";
import { memberRowId } from "../../app/server/messages/read-positions.server";
import { loader as rootLoader } from "../../app/root";
import { action as messagesAction, loader as messagesLoader } from "../../app/routes/messages";
import { startMemberSession } from "../../app/server/auth/session.server";
import { createReplicaServices } from "../../app/server/service-lifecycle.server";
import { createTrackRecordCache } from "../../app/server/track-record/track-records.server";
import { connectDatabase, type Database } from "../../app/server/store/postgres/database.server";
import { createPostgresDriver } from "../../app/server/store/postgres/driver.server";
import { createSqliteDriver } from "../../app/server/store/sqlite-driver.server";
import { createStoreOver, type Store } from "../../app/server/store/store.server";
import { migrate, readMigrations } from "../../app/server/store/postgres/migrations.server";
import { createPostgresMessages } from "../../app/server/store/postgres/messages.server";
import { usePostgres } from "../support/postgres";
import { agentRecord } from "../support/records";
import { testContext } from "../support/services";

const quietLog = { info: () => undefined, warn: () => undefined, error: () => undefined };

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

/**
 * 300 messages between the members, some in the same millisecond, and one member writing to
 * themself; then 80 between Ann and Dee, most from Ann, so their thread is more than a page
 * long even without the suspended Dee's.
 */
const MESSAGES: Message[] = Array.from({ length: 380 }, (_, i) => {
  const from = i < 300 ? pick(MEMBERS) : i % 4 === 0 ? "dee@example.com" : "ann@example.com";
  const to =
    i === 7
      ? from
      : i < 300
        ? pick(MEMBERS.filter((member) => member !== from))
        : from === "ann@example.com"
          ? "dee@example.com"
          : "ann@example.com";
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
      expect(await messages.summaries(member, LEAVE_OUT)).toEqual(expected);
    }
  });

  it("pages through a thread from the newest, oldest first within a page, every visible message of the member once", async () => {
    const messages = createPostgresMessages(pool);
    const conversationId = `c:ann@example.com:${SUSPENDED}`;
    const thread = MESSAGES.filter((message) => message.conversationId === conversationId && shown(message)).sort(byTime);
    expect(thread.length).toBeGreaterThan(50);
    let read: Message[] = [];
    const first = await messages.thread(conversationId, "ann@example.com", 1, LEAVE_OUT);
    for (let page = 1; page <= first.pageCount; page += 1) {
      const view = await messages.thread(conversationId, "ann@example.com", page, LEAVE_OUT);
      expect(view.messages.length).toBeLessThanOrEqual(50);
      expect(view.page).toBe(page);
      read = [...view.messages, ...read];
    }
    expect(first.pageCount).toBe(Math.ceil(thread.length / 50));
    expect(first.total).toBe(thread.length);
    expect(read).toEqual(thread);
    // A page past the last is the last, as on the replica.
    expect((await messages.thread(conversationId, "ann@example.com", first.pageCount + 3, LEAVE_OUT)).page).toBe(first.pageCount);
    // Not a member of the thread: nothing of it.
    expect((await messages.thread(conversationId, "bob@example.com", 1, LEAVE_OUT)).total).toBe(0);
  });

  describe("the messages' reads, over the replica and by query, on the same rows", () => {
    /** The agents: ids as the app makes them, so conversation ids are real ones; Dee is suspended. */
    const AGENTS = ["ann", "bob", "cy", "dee"].map((name, i) =>
      agentRecord({
        id: `${name.toUpperCase()}-${i}`,
        email: `${name}@example.com`,
        fullName: name,
        status: name === "dee" ? "suspended" : "approved",
      }),
    );
    const [ann, bob, cy, dee] = AGENTS as [Agent, Agent, Agent, Agent];
    const random = numbers(55);
    const choose = <T>(items: readonly T[]) => items[Math.floor(random() * items.length)]!;
    const START = Date.UTC(2026, 10, 2);

    /**
     * 400 messages between the agents, many in the same millisecond (ids of both cases, so the
     * order of ties is the ids' code units); more than a page between Ann and Bob; and rows
     * filed under another pair's conversation id, which count for neither member's pages.
     */
    const ROWS: Message[] = Array.from({ length: 400 }, (_, i) => {
      const from = i >= 300 ? (i % 3 === 0 ? bob : ann) : choose(AGENTS);
      const to = i >= 300 ? (from === ann ? bob : ann) : choose(AGENTS.filter((agent) => agent !== from));
      const misfiled = i % 97 === 5;
      return {
        id: `${i % 2 === 0 ? "m" : "M"}-${String(Math.floor(random() * 1e6)).padStart(6, "0")}-${i}`,
        conversationId: misfiled ? conversationIdFor(cy.id, dee.id) : conversationIdFor(from.id, to.id),
        fromEmail: misfiled ? ann.email : from.email,
        toEmail: misfiled ? bob.email : to.email,
        text: `row ${i}`,
        createdAt: new Date(START + Math.floor(random() * 90) * 60_000).toISOString(),
      };
    });
    const conversations = [...new Set(ROWS.map((row) => row.conversationId))];
    /** Read positions: up to some time, blank, or none; and one mail stamp. */
    const POSITIONS: ConversationMember[] = conversations.flatMap((conversationId, i) =>
      AGENTS.filter((_, j) => (i + j) % 3 !== 1).map((agent, j) => ({
        id: memberRowId(conversationId, agent.email),
        conversationId,
        agentEmail: agent.email,
        lastReadAt: j % 3 === 0 ? undefined : new Date(START + (i * 13 + j * 31) * 60_000).toISOString(),
        lastNotifiedAt: j % 2 === 0 ? new Date(START + i * 60_000).toISOString() : undefined,
      })),
    );

    let store: Store;
    let database: Database;
    let replica: MessageQueries;
    let byQuery: MessageQueries;
    beforeAll(async () => {
      const file = path.join(mkdtempSync(path.join(tmpdir(), "message-reads-")), "store.sqlite");
      store = createStoreOver(createSqliteDriver(file), null, { refreshSeconds: 0, log: quietLog });
      await store.refresh();
      for (const agent of AGENTS) await store.agents.insert(agent);
      const hidden = ROWS.filter((_, i) => i % 31 === 3);
      for (const message of hidden) {
        await store.reports.insert({
          id: `report-${message.id}`,
          kind: "message",
          itemId: message.id,
          link: "",
          reporterEmail: message.toEmail,
          reportedEmail: message.fromEmail,
          reason: "spam",
          note: "",
          createdAt: message.createdAt,
          status: "closed",
          staffNote: "",
          itemStatus: "hidden",
        });
      }
      for (const message of ROWS) await store.messages.insert(message);
      for (const position of POSITIONS) await store.conversationMembers.insert(position);
      replica = createReplicaServices(store).messageQueries;

      database = connectDatabase(await postgres.server().createDatabase(), quietLog);
      await migrate(database.pool, await readMigrations());
      const driver = createPostgresDriver(database);
      await driver.appendRows(
        WORKBOOK.messages,
        ROWS.map((row) => serialiseRecord(WORKBOOK.messages, row)),
      );
      await driver.appendRows(
        WORKBOOK.conversationMembers,
        POSITIONS.map((row) => serialiseRecord(WORKBOOK.conversationMembers, row)),
      );
      byQuery = createPostgresMessageQueries(database, store, quietLog);
    });
    afterAll(async () => {
      await store.stop();
      await database.close();
    });

    it("give each member the same conversation list and unread counts, leaving out hidden, suspended and misfiled rows", async () => {
      for (const agent of AGENTS) {
        const expected = await replica.summaries(agent);
        expect(await byQuery.summaries(agent)).toEqual(expected);
        const shown = expected.map((summary) => summary.lastMessage.id);
        expect(shown.some((id) => ROWS.find((row) => row.id === id)!.fromEmail === dee.email)).toBe(false);
        expect(expected.some((summary) => summary.conversationId === conversationIdFor(cy.id, dee.id) && agent === ann)).toBe(false);
      }
      expect((await replica.summaries(ann)).some((summary) => summary.unread > 0)).toBe(true);
    });

    it("give the same thread pages, totals, first message and read position to each of its members", async () => {
      const pairs = AGENTS.flatMap((a, i) => AGENTS.slice(i + 1).map((b) => [a, b] as const));
      for (const [a, b] of pairs) {
        const conversationId = conversationIdFor(a.id, b.id);
        for (const member of [a, b, cy]) {
          const first = await replica.thread(member, conversationId, 1);
          for (let page = 1; page <= first.pageCount + 1; page += 1) {
            expect(await byQuery.thread(member, conversationId, page)).toEqual(await replica.thread(member, conversationId, page));
          }
        }
      }
      const long = await byQuery.thread(ann, conversationIdFor(ann.id, bob.id), 1);
      expect(long.pageCount).toBeGreaterThan(1);
      expect(long.readUpTo).toBeDefined();
    });

    it("find a message by id, hidden or not, and a member's mail stamp", async () => {
      for (const row of [ROWS[3]!, ROWS[120]!, ROWS[5]!]) expect(await byQuery.message(row.id)).toEqual(await replica.message(row.id));
      expect(await byQuery.message(ROWS[3]!.id)).toEqual(ROWS[3]);
      expect(await byQuery.message("no-such-message")).toBeUndefined();
      for (const position of POSITIONS.slice(0, 12)) {
        const expected = await replica.lastNotifiedAt(position.conversationId, position.agentEmail);
        expect(await byQuery.lastNotifiedAt(position.conversationId, position.agentEmail)).toBe(expected);
      }
      expect(await byQuery.lastNotifiedAt("no-conversation", ann.email)).toBeUndefined();
    });

    it("count the same conversation openings and latest activity, ties decided by row order", async () => {
      const queries = createPostgresMessages(database.pool);
      const openings = conversationOpenings(ROWS);
      expect(openings.some((opening) => opening.replyAt !== undefined)).toBe(true);
      const byAt = (a: ConversationOpening, b: ConversationOpening) => `${a.at}${a.to}`.localeCompare(`${b.at}${b.to}`);
      expect((await queries.conversationOpenings()).sort(byAt)).toEqual([...openings].sort(byAt));
      expect(await queries.latestActivity()).toEqual(latestMessageActivity(ROWS, POSITIONS));

      // Two conversations whose first messages share a millisecond: the first row added opens it.
      const tie = "2026-10-01T00:00:00.000Z";
      const tied: Message[] = [
        { id: "z-tie-1", conversationId: "tie", fromEmail: cy.email, toEmail: bob.email, text: "", createdAt: tie },
        { id: "a-tie-2", conversationId: "tie", fromEmail: bob.email, toEmail: cy.email, text: "", createdAt: tie },
      ];
      await createPostgresDriver(database).appendRows(
        WORKBOOK.messages,
        tied.map((row) => serialiseRecord(WORKBOOK.messages, row)),
      );
      const opening = (await queries.conversationOpenings()).filter((row) => row.at === tie);
      expect(opening).toEqual(conversationOpenings(tied));
      expect(opening).toEqual([{ at: tie, to: bob.email, replyAt: tie }]);
    });

    it("are counted in the background by query, and answer the replica's figures once counted, which the caches take at once", async () => {
      const fresh = createPostgresMessageQueries(database, store, quietLog);
      const trackRecords = createTrackRecordCache(store, fresh.openings);
      expect(trackRecords.current().records.get(ann.email)!.allTime.conversations).toBe(0);
      expect(fresh.latestActivity.version()).toBe(0);
      await vi.waitFor(() => expect([fresh.openings.version(), fresh.latestActivity.version()]).toEqual([1, 1]));
      const rows = (await database.pool.query<Record<string, string>>(`SELECT * FROM "Messages"`)).rows;
      expect(fresh.latestActivity.current()).toEqual(
        latestMessageActivity(
          rows.map((row) => ({ fromEmail: row.fromEmail!, createdAt: row.createdAt! })),
          POSITIONS,
        ),
      );
      // Ann's figures, as the replica counts them (the rows added since in the database are Bob's and Cy's).
      const counted = trackRecords.current().records.get(ann.email)!;
      expect(counted.allTime.conversations).toBeGreaterThan(0);
      expect(counted).toEqual(createReplicaServices(store).trackRecords.current().records.get(ann.email));
    });

    it("move a read position only forward, keeping the later time, as the replica does", async () => {
      const conversationId = conversationIdFor(ann.id, cy.id);
      for (const reads of [replica, byQuery]) {
        expect(await reads.markRead(conversationId, cy.email, "2026-12-01T00:00:00.000Z")).toBe(true);
        expect(await reads.markRead(conversationId, cy.email, "2026-11-30T00:00:00.000Z")).toBe(false);
        await reads.stampNotified(conversationId, cy.email, new Date("2026-12-02T00:00:00.000Z"));
        expect(await reads.lastNotifiedAt(conversationId, cy.email)).toBe("2026-12-02T00:00:00.000Z");
      }
      expect(await byQuery.summaries(cy)).toEqual(await replica.summaries(cy));
      const stored = await createPostgresMessages(database.pool).conversationMember(memberRowId(conversationId, cy.email));
      expect(stored?.lastReadAt).toBe("2026-12-01T00:00:00.000Z");
    });
  });

  it("serve the messages page, the header's count and the mail stamp from the database when DATABASE_URL is set", async () => {
    const context = testContext({}, { DATABASE_URL: await postgres.server().createDatabase() });
    const { services } = context;
    try {
      await services.store.refresh();
      const [ann, bob] = ["ann", "bob"].map((name) => agentRecord({ email: `${name}@example.com`, fullName: name }));
      for (const agent of [ann!, bob!]) await services.store.agents.insert(agent);
      const cookie = async (agent: Agent) =>
        (
          (await startMemberSession(new Request("http://localhost/member-login"), context, agent, "/")).headers.get("Set-Cookie") ?? ""
        ).split(";")[0]!;
      const request = async (path: string, agent: Agent, body?: Record<string, string>) =>
        new Request(`http://localhost${path}`, {
          headers: { Cookie: await cookie(agent) },
          ...(body ? { method: "POST", body: new URLSearchParams(body) } : {}),
        });
      const conversationId = conversationIdFor(ann!.id, bob!.id);
      const sent = (await messagesAction({
        request: await request(`/messages?to=${bob!.id}`, ann!, { intent: "send", text: "Hello Bob" }),
        context,
        params: {},
      })) as Response;
      expect(sent.headers.get("Location")).toBe(`/messages?conversation=${encodeURIComponent(conversationId)}`);
      const header = async () => (await rootLoader({ request: await request("/", bob!), context, params: {} })).unreadMessages;
      expect(await header()).toBe(1);

      const opened = (await messagesLoader({
        request: await request(`/messages?conversation=${conversationId}`, bob!),
        context,
        params: {},
      })) as unknown as {
        data: { unreadMessages: number; open: { messages: { text: string }[] } };
      };
      expect(opened.data.open.messages.map((message) => message.text)).toEqual(["Hello Bob"]);
      expect(opened.data.unreadMessages).toBe(0);
      expect(await header()).toBe(0);
      const row = async () =>
        (
          await services.database!.pool.query<ConversationMember>(`SELECT * FROM "ConversationMembers" WHERE "id" = $1`, [
            memberRowId(conversationId, bob!.email),
          ])
        ).rows[0];
      expect((await row())?.lastReadAt).not.toBe("");
      // The notification went out and its time is stamped in the database.
      await vi.waitFor(async () => expect((await row())?.lastNotifiedAt).not.toBe(""));
    } finally {
      await services.store.stop();
    }
  });
});
