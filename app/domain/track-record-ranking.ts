/**
 * The directory's "Best track record" order: by the review average pulled toward the
 * network's mean (`shrunkAverage`), then by the close rate pulled toward the network's
 * close rate the same way, then by the directory's own order, so ties keep their places.
 */
import { networkMean, shrunkAverage, type ReviewSummary } from "./reviews";
import { pooledRatio, shrunkRatio, type Tally } from "./shrinkage";
import type { Rate } from "./track-record";

/** How many referrals at the network's close rate an agent's own are blended with. */
export const PRIOR_REFERRALS = 3;

export type TrackRecordRank = { stars: number; closeRate: number };

/** The network's share of signed, ended referrals that closed; `fallback` when none has ended. */
export function networkCloseRate(rates: Iterable<Rate>, fallback = 0.5): number {
  return pooledRatio([...rates].map(closingsTally), fallback);
}

function shrunkCloseRate(rate: Rate, networkRate: number): number {
  return shrunkRatio(closingsTally(rate), networkRate, PRIOR_REFERRALS);
}

function closingsTally(rate: Rate): Tally {
  return { sum: rate.part, count: rate.of };
}

/**
 * Each agent's rank, by e-mail, from their all-time close rate and their review summary;
 * an agent with neither sits at the network's means.
 */
export function trackRecordRanks(
  closeRates: ReadonlyMap<string, Rate>,
  summaries: ReadonlyMap<string, ReviewSummary>,
): Map<string, TrackRecordRank> {
  const meanStars = networkMean(summaries.values());
  const meanClose = networkCloseRate(closeRates.values());
  const ranks = new Map<string, TrackRecordRank>();
  for (const [email, closeRate] of closeRates) {
    ranks.set(email, {
      stars: shrunkAverage(summaries.get(email) ?? { count: 0, total: 0 }, meanStars),
      closeRate: shrunkCloseRate(closeRate, meanClose),
    });
  }
  return ranks;
}

/** Better ranks first; equal ranks compare as 0, for the caller's own order to break the tie. */
export function compareRanks(a: TrackRecordRank, b: TrackRecordRank): number {
  return b.stars - a.stars || b.closeRate - a.closeRate;
}
