import { averageStars, publishedReviews, reviewSummaries, type ReviewSummary } from "~/domain/reviews";
import { computeTrackRecords, type TrackRecord } from "~/domain/track-record";
import { compareRanks, trackRecordRanks, type TrackRecordRank } from "~/domain/track-record-ranking";
import { replyTimeLabel, type CardFigures } from "~/domain/track-record-text";
import type { TabKey } from "~/domain/workbook/tabs";
import type { ConversationOpening } from "~/domain/track-record";
import { NOT_COUNTED, type MessageAggregate } from "../messages/message-queries.server";
import { asModeratedReviews } from "../moderation/visibility.server";
import type { Store } from "../store/store.server";

/** Every agent's figures, review summary and rank, computed together from one version of the workbook. */
export type TrackRecords = {
  readonly records: ReadonlyMap<string, TrackRecord>;
  readonly reviews: ReadonlyMap<string, ReviewSummary>;
  readonly ranks: ReadonlyMap<string, TrackRecordRank>;
  /**
   * Changes only when something the directory's cards or its "Best track record" order
   * show has changed, so a new message that leaves every card as it was keeps the public
   * pages' cache.
   */
  readonly cardsVersion: number;
};

/** The track records kept between requests: one per process, in `Services`. */
export type TrackRecordCache = {
  /**
   * The figures for the store's current rows, counted again only when a tab they read
   * changed (new messages: at most every `MESSAGES_SETTLE_MS`) or an hour began.
   */
  current(now?: Date): TrackRecords;
};

/** The tabs the figures are counted from (Moderation: staff hide reviews there), and the conversations' openings (counted from Messages), last. */
const SOURCE_TABS = ["agents", "referrals", "referralEvents", "reviews", "moderation"] as const satisfies readonly TabKey[];
const OPENINGS = SOURCE_TABS.length;
/** The last 12 months and the reviews' publication move with the clock: the figures are counted again each hour. */
const HOUR_MS = 3_600_000;
/**
 * New messages change only the reply times, and arrive many a minute: after one, the figures
 * are counted again at most this often (a count of the large network takes about 70 ms).
 */
export const MESSAGES_SETTLE_MS = 10_000;

type Built = { versions: number[]; hour: number; countedAt: number; cards: string; records: TrackRecords };

/** Whether the rows changed since `built` was counted, leaving aside new messages within `MESSAGES_SETTLE_MS`. */
function isCurrent(built: Built, versions: readonly number[], hour: number, now: number): boolean {
  if (built.hour !== hour) return false;
  const changed = versions.flatMap((version, i) => (built.versions[i] !== version ? [i] : []));
  // The openings' first count (from version 0) is taken at once: it is not one new message but all of them.
  const settling = changed[0] === OPENINGS && built.versions[OPENINGS] !== NOT_COUNTED;
  return changed.length === 0 || (changed.length === 1 && settling && now - built.countedAt < MESSAGES_SETTLE_MS);
}

export function createTrackRecordCache(store: Store, openings: MessageAggregate<readonly ConversationOpening[]>): TrackRecordCache {
  let built: Built | undefined;
  let cardsVersion = 0;
  return {
    current(now = new Date()) {
      const versions = [...SOURCE_TABS.map((name) => store[name].version()), openings.version()];
      const hour = Math.floor(now.getTime() / HOUR_MS);
      if (built && isCurrent(built, versions, hour, now.getTime())) return built.records;
      const computed = computeAll(store, openings.current(), now);
      const cards = cardsSignature(computed);
      if (built && built.cards !== cards) cardsVersion += 1;
      built = { versions, hour, countedAt: now.getTime(), cards, records: { ...computed, cardsVersion } };
      return built.records;
    },
  };
}

function computeAll(store: Store, openings: readonly ConversationOpening[], now: Date): Omit<TrackRecords, "cardsVersion"> {
  const records = computeTrackRecords(
    {
      agents: store.agents.all(),
      referrals: store.referrals.all(),
      referralEvents: store.referralEvents.all(),
      openings,
    },
    now,
  );
  const reviews = reviewSummaries(publishedReviews(asModeratedReviews({ store }, store.reviews.all()), now));
  const closeRates = new Map([...records].map(([email, record]) => [email, record.allTime.closeRate]));
  return { records, reviews, ranks: trackRecordRanks(closeRates, reviews) };
}

/** What the cards and the order show, as one string to compare. */
function cardsSignature({ records, reviews, ranks }: Omit<TrackRecords, "cardsVersion">): string {
  return [...records.keys()]
    .map((email) => {
      const summary = reviews.get(email);
      const rank = ranks.get(email);
      return [email, summary?.count, summary?.total, replyTimeLabel(records.get(email)), rank?.stars, rank?.closeRate].join("|");
    })
    .join("\n");
}

/** Better track records first; `tie` orders the agents whose ranks are equal. */
export function byTrackRecord<T extends { agent: { email: string } }>(
  records: TrackRecords,
  tie: (a: T, b: T) => number,
): (a: T, b: T) => number {
  const unranked: TrackRecordRank = { stars: Number.NEGATIVE_INFINITY, closeRate: Number.NEGATIVE_INFINITY };
  const rankOf = (item: T) => records.ranks.get(item.agent.email) ?? unranked;
  return (a, b) => compareRanks(rankOf(a), rankOf(b)) || tie(a, b);
}

export function cardFigures(records: TrackRecords, email: string): CardFigures {
  const summary = records.reviews.get(email);
  const average = summary ? averageStars(summary) : undefined;
  return {
    stars: summary && average !== undefined ? { average, count: summary.count } : null,
    replyTime: replyTimeLabel(records.records.get(email)),
  };
}

/** The profile's Track record card: the agent's figures and stars, looked up in the figures of the current rows. */
export function profileTrackRecord({ trackRecords }: { trackRecords: TrackRecordCache }, email: string) {
  const records = trackRecords.current();
  const record = records.records.get(email);
  return record ? { record, stars: cardFigures(records, email).stars } : null;
}
