import type { ConversationSummary } from "~/domain/messages";
import type { ConversationMember, Message } from "~/domain/workbook/tabs";

/**
 * The rows a member's summaries were worked out from: the replica replaces an index bucket
 * whenever a row in it changes. Staff's moderation rows decide which messages show: the
 * Moderation tab's decisions, the reports that hide one and the suspended agents, whose
 * messages to others are hidden.
 */
export type SummarySources = {
  sent: readonly Message[];
  received: readonly Message[];
  reads: readonly ConversationMember[];
  staffDecisions: readonly unknown[];
  hiddenReports: readonly unknown[];
  suspended: readonly unknown[];
};
type CachedSummaries = SummarySources & { memberId: string; waitingReads: number; summaries: ConversationSummary[] };

/** Members whose summaries are kept; the least recently used beyond this are dropped. */
export const SUMMARY_CACHE_MEMBERS = 5_000;

/** Each member's conversation summaries, kept between requests: one per process, in `Services`. */
export type SummaryCache = Map<string, CachedSummaries>;

export function createSummaryCache(): SummaryCache {
  return new Map();
}
