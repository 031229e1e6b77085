/**
 * Figures few cases cannot carry far: a member's own figure blended with imagined cases at
 * the network's figure (a Bayesian average). The Best track record order ranks review stars
 * and close rates this way, so one 5-star review or one closed referral does not top the list.
 */

/** Cases and what they add up to: stars over reviews, closings over ended referrals. */
export type Tally = { sum: number; count: number };

/** The network's figure: every member's cases pooled; `fallback` when there are none. */
export function pooledRatio(tallies: Iterable<Tally>, fallback: number): number {
  let sum = 0;
  let count = 0;
  for (const tally of tallies) {
    sum += tally.sum;
    count += tally.count;
  }
  return count === 0 ? fallback : sum / count;
}

/** A member's figure pulled toward `prior` by `weight` imagined cases at it. */
export function shrunkRatio(tally: Tally, prior: number, weight: number): number {
  return (tally.sum + weight * prior) / (tally.count + weight);
}
