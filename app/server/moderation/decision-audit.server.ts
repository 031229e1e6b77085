import type { ModeratedKind } from "~/domain/moderation";
import type { ModerationRow } from "~/domain/workbook/tabs";
import { refreshJob } from "../jobs/registry.server";
import type { MessageQueries } from "../messages/message-queries.server";
import type { BackgroundJob, Store } from "../store/store.server";

/** A Moderation row whose id names no item of its kind: it hides or shows nothing until staff correct it. */
export type UnmatchedDecision = { id: string; kind: ModeratedKind; itemId: string };

export type DecisionAudit = BackgroundJob & {
  /** The Moderation rows that matched nothing at the last check, for /healthz and the staff mail. */
  unmatched(): readonly UnmatchedDecision[];
  /** Looks every Moderation row's item up again (run after each refresh). */
  check(): Promise<void>;
};

/**
 * Finds the Moderation rows whose item does not exist (a mistyped or half-copied id), after
 * each refresh, wherever the item is stored: the replica, or the database for messages. A
 * message found once is not looked up again, since messages are never removed.
 */
export function auditStaffDecisions({
  store,
  messageQueries,
  log = console,
}: {
  store: Store;
  messageQueries: Pick<MessageQueries, "message">;
  log?: Pick<Console, "error">;
}): DecisionAudit {
  let unmatched: readonly UnmatchedDecision[] = [];
  const messagesFound = new Set<string>();

  async function exists(row: ModerationRow): Promise<boolean> {
    switch (row.kind) {
      case "message":
        if (messagesFound.has(row.itemId)) return true;
        if (!(await messageQueries.message(row.itemId))) return false;
        messagesFound.add(row.itemId);
        return true;
      case "response":
        return store.responses.get(row.itemId) !== undefined;
      case "review":
      case "reply":
        return store.reviews.get(row.itemId) !== undefined;
      case "invitation":
        return store.invitations.get(row.itemId) !== undefined;
    }
  }

  async function check(): Promise<void> {
    const found: UnmatchedDecision[] = [];
    try {
      for (const row of store.moderation.all()) {
        if (!(await exists(row))) found.push({ id: row.id, kind: row.kind, itemId: row.itemId });
      }
    } catch (error) {
      // The database out of reach: keep the last answer until it is back.
      log.error("Moderation: could not look up the items the Moderation tab names:", error);
      return;
    }
    unmatched = found;
  }

  const job = store.addJob({ ...refreshJob("decisionAudit"), run: check });
  return { stop: job.stop, unmatched: () => unmatched, check };
}

/** How /healthz and the staff mail name an unmatched row. */
export function unmatchedDecisionProblem(row: UnmatchedDecision): { where: string; what: string } {
  return {
    where: `Moderation row ${row.id}`,
    what: `no ${row.kind === "reply" ? "review (for its reply)" : row.kind} has the id ${row.itemId}, so it hides or shows nothing: check the itemId`,
  };
}
