/**
 * Double-blind reviews between the parties of a signed referral: when a review may be
 * written, when the two of a referral are published (together), and what a member's
 * published reviews add up to. Pure: the rows come from the Reviews and Referrals tabs.
 */
import type { ReferralStatus } from "./referrals/status";
import type { Review } from "./workbook/tabs";

/** Neither party sees the other's review until both have written one, or this long after the first. */
export const BLIND_PERIOD_DAYS = 14;
const DAY_MS = 86_400_000;

export const REVIEW_TEXT_MAX = 1000;

/** A signed referral that ended in one of these may be reviewed by each party, once. */
export const REVIEWABLE_STATUSES: readonly ReferralStatus[] = ["fee_received", "lost", "expired"];

export function isReviewable(referral: { status: ReferralStatus; signedAt?: string | undefined }): boolean {
  return referral.signedAt !== undefined && REVIEWABLE_STATUSES.includes(referral.status);
}

/**
 * When the reviews of one referral are published: as soon as both parties have written
 * theirs, else `BLIND_PERIOD_DAYS` after the first. Undefined while none is written.
 * Both are published at that one moment, and neither can be edited after it.
 */
export function publicationTime(reviewsOfReferral: readonly Pick<Review, "reviewerEmail" | "submittedAt">[]): string | undefined {
  const byReviewer = new Map<string, string>();
  for (const review of reviewsOfReferral) {
    const earlier = byReviewer.get(review.reviewerEmail);
    if (earlier === undefined || review.submittedAt < earlier) byReviewer.set(review.reviewerEmail, review.submittedAt);
  }
  const times = [...byReviewer.values()].sort();
  if (times.length === 0) return undefined;
  const blindEnds = new Date(Date.parse(times[0]!) + BLIND_PERIOD_DAYS * DAY_MS).toISOString();
  if (times.length === 1) return blindEnds;
  return times[1]! < blindEnds ? times[1]! : blindEnds;
}

export function isPublished(reviewsOfReferral: readonly Pick<Review, "reviewerEmail" | "submittedAt">[], now: Date): boolean {
  const published = publicationTime(reviewsOfReferral);
  return published !== undefined && Date.parse(published) <= now.getTime();
}

/** The reviews the public may read: published, and not hidden by staff. */
export function publishedReviews(reviews: readonly Review[], now: Date): Review[] {
  const byReferral = new Map<string, Review[]>();
  for (const review of reviews) byReferral.set(review.referralId, [...(byReferral.get(review.referralId) ?? []), review]);
  return [...byReferral.values()]
    .filter((ofReferral) => isPublished(ofReferral, now))
    .flat()
    .filter((review) => review.status === "visible" && review.overall !== undefined);
}

export type ReviewSummary = { count: number; total: number };

/** Each reviewed member's published overall stars: how many reviews and their sum. */
export function reviewSummaries(published: readonly Review[]): Map<string, ReviewSummary> {
  const summaries = new Map<string, ReviewSummary>();
  for (const review of published) {
    if (review.overall === undefined) continue;
    const summary = summaries.get(review.reviewedEmail) ?? { count: 0, total: 0 };
    summaries.set(review.reviewedEmail, { count: summary.count + 1, total: summary.total + review.overall });
  }
  return summaries;
}

export function averageStars(summary: ReviewSummary): number | undefined {
  return summary.count === 0 ? undefined : summary.total / summary.count;
}

/**
 * How many reviews at the network's mean a member's average is blended with: a member with
 * one 5-star review ranks near the mean, one with twenty 4.8s near 4.8.
 */
export const PRIOR_REVIEWS = 5;

/** The average pulled toward the network's mean by `PRIOR_REVIEWS` imagined reviews (a Bayesian average). */
export function shrunkAverage(summary: ReviewSummary, networkMean: number): number {
  return (summary.total + PRIOR_REVIEWS * networkMean) / (summary.count + PRIOR_REVIEWS);
}

/** The mean of every published overall rating in the network; `fallback` when there is none. */
export function networkMean(summaries: Iterable<ReviewSummary>, fallback = 4): number {
  let count = 0;
  let total = 0;
  for (const summary of summaries) {
    count += summary.count;
    total += summary.total;
  }
  return count === 0 ? fallback : total / count;
}
