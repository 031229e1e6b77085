import type { Agent } from "~/domain/workbook/tabs";
import { serialiseRecord } from "~/domain/workbook/rows";
import { CONVERSATION_MEMBERS_TAB, WORKBOOK, type ConversationMember } from "~/domain/workbook/tabs";
import { CHATTY_SETTLE_MS } from "../matching/candidate-index.server";
import { isDatabaseUnreachable, type Database } from "../store/postgres/database.server";
import { createPostgresDriver } from "../store/postgres/driver.server";
import { createPostgresMessages } from "../store/postgres/messages.server";
import { StoreUnavailableError, type Store } from "../store/store.server";
import { MESSAGES_SETTLE_MS } from "../track-record/track-records.server";
import { leftOut, NOT_COUNTED, ownConversations, type MessageAggregate, type MessageQueries } from "./message-queries.server";
import { memberRowId } from "./read-positions.server";

/**
 * The messages read by query on PostgreSQL (docs/decisions/0055): nothing of the Messages
 * and ConversationMembers tables is held in memory but the aggregates' last count. A read
 * position is written at once, as an insert that keeps the later time: a row costs the
 * database little, where a sheet's write was worth saving.
 */
export function createPostgresMessageQueries(database: Database, store: Store, log: Pick<Console, "error"> = console): MessageQueries {
  const queries = createPostgresMessages(database.pool);
  // Its inserts merge a member's row with the one stored, keeping the later times, and tell the other instances.
  const writer = createPostgresDriver(database);

  function saveMemberRow(row: Pick<ConversationMember, "conversationId" | "agentEmail"> & Partial<ConversationMember>): Promise<void> {
    const record = { lastReadAt: undefined, lastNotifiedAt: undefined, ...row, id: memberRowId(row.conversationId, row.agentEmail) };
    return writer.appendRows(WORKBOOK.conversationMembers, [serialiseRecord(CONVERSATION_MEMBERS_TAB, record)]);
  }

  /** The messages counted per day so far, and the last row counted: each count reads only the rows added since. */
  const counted = { days: new Map<string, number>(), lastRow: 0 };

  return {
    forStaff: (about, limit) => whileReachable(() => queries.forStaff(about, limit)),
    perDay: (since) =>
      whileReachable(async () => {
        const added = await queries.countPerDaySince(counted.lastRow);
        for (const [day, count] of added.days) counted.days.set(day, (counted.days.get(day) ?? 0) + count);
        counted.lastRow = added.lastRow;
        return new Map([...counted.days].filter(([day]) => day >= since));
      }),
    summaries: (member: Pick<Agent, "id" | "email">) =>
      whileReachable(async () => ownConversations(await queries.summaries(member.email, leftOut({ store })), member)),
    thread: (member, conversationId, requestedPage) =>
      whileReachable(() => queries.thread(conversationId, member.email, requestedPage, leftOut({ store }))),
    message: (id) => whileReachable(() => queries.message(id)),
    lastNotifiedAt: (conversationId, agentEmail) =>
      whileReachable(async () => (await queries.conversationMember(memberRowId(conversationId, agentEmail)))?.lastNotifiedAt),
    markRead: (conversationId, agentEmail, upTo) =>
      whileReachable(async () => {
        // Opening a thread already read costs no write.
        const current = (await queries.conversationMember(memberRowId(conversationId, agentEmail)))?.lastReadAt;
        if (current !== undefined && current >= upTo) return false;
        await saveMemberRow({ conversationId, agentEmail, lastReadAt: upTo });
        return true;
      }),
    stampNotified: (conversationId, agentEmail, at) =>
      whileReachable(() => saveMemberRow({ conversationId, agentEmail, lastNotifiedAt: at.toISOString() })),
    openings: countedAggregate(database, ["Messages"], MESSAGES_SETTLE_MS, [], () => queries.conversationOpenings(), log),
    latestActivity: countedAggregate(
      database,
      ["Messages", "ConversationMembers"],
      CHATTY_SETTLE_MS,
      new Map<string, string>(),
      () => queries.latestActivity(),
      log,
    ),
  };
}

/** The database's answer; a connection it could not make or lost is StoreUnavailableError, which the pages say in words. */
async function whileReachable<T>(read: () => Promise<T>): Promise<T> {
  try {
    return await read();
  } catch (error) {
    throw isDatabaseUnreachable(error) ? new StoreUnavailableError({ cause: error }) : error;
  }
}

/**
 * A figure counted by the database, kept in memory between counts: counted again when asked
 * after a change to the tables it reads, at most once per `settleMs` (the schedule the caches
 * reading it had over the replica). Until the first count ends it answers `empty`; a failed
 * count is logged and tried again after `settleMs`.
 */
function countedAggregate<T>(
  database: Pick<Database, "onTableChanges">,
  tables: readonly string[],
  settleMs: number,
  empty: T,
  count: () => Promise<T>,
  log: Pick<Console, "error">,
): MessageAggregate<T> {
  let value = empty;
  let version = NOT_COUNTED;
  let changed = true;
  let countedAt = Number.NEGATIVE_INFINITY;
  let counting = false;
  database.onTableChanges((changes) => {
    // No table: the listener reconnected, and any table may have changed meanwhile.
    if (changes.table === null || tables.includes(changes.table)) changed = true;
  });

  function countIfDue(): void {
    if (!changed || counting || Date.now() - countedAt < settleMs) return;
    changed = false;
    counting = true;
    countedAt = Date.now();
    count()
      .then((counted) => {
        value = counted;
        version += 1;
      })
      .catch((error: unknown) => {
        changed = true;
        log.error(`Messages: counting ${tables.join(" and ")} failed; counted again later`, error);
      })
      .finally(() => {
        counting = false;
      });
  }

  return {
    version() {
      countIfDue();
      return version;
    },
    current() {
      countIfDue();
      return value;
    },
  };
}
