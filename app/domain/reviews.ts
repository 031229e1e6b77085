/**
 * Double-blind reviews between the parties of a signed referral: when a review may be
 * written, when the two of a referral are published (together), and what a member's
 * published reviews add up to. Pure: the rows come from the Reviews and Referrals tabs.
 */
import type { ReferralStatus } from "./referrals/status";
import type { Review } from "./workbook/tabs";
import { pooledRatio, shrunkRatio, type Tally } from "./shrinkage";

/** Neither party sees the other's review until both have written one, or this long after the first. */
export const BLIND_PERIOD_DAYS = 14;
const DAY_MS = 86_400_000;

export const REVIEW_TEXT_MAX = 1000;
/** The reviewed member's one public reply. */
export const REPLY_MAX = 1000;

/** The page where a party writes their review of a referral and reads the other's once published. */
export function reviewPath(referralId: string): string {
  return `/referrals/${referralId}/review`;
}

/** A signed referral that ended in one of these may be reviewed by each party, once. */
export const REVIEWABLE_STATUSES: readonly ReferralStatus[] = ["fee_received", "lost", "expired"];

export function isReviewable(referral: { status: ReferralStatus; signedAt?: string | undefined }): boolean {
  return referral.signedAt !== undefined && REVIEWABLE_STATUSES.includes(referral.status);
}

/** The end of the blind period a review written at `submittedAt` starts. */
function blindPeriodEnd(submittedAt: string): string {
  return new Date(Date.parse(submittedAt) + BLIND_PERIOD_DAYS * DAY_MS).toISOString();
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
  const blindEnds = blindPeriodEnd(times[0]!);
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
  return shrunkRatio(starsTally(summary), networkMean, PRIOR_REVIEWS);
}

/** The mean of every published overall rating in the network; `fallback` when there is none. */
export function networkMean(summaries: Iterable<ReviewSummary>, fallback = 4): number {
  return pooledRatio([...summaries].map(starsTally), fallback);
}

function starsTally(summary: ReviewSummary): Tally {
  return { sum: summary.total, count: summary.count };
}

/** The aspect beside communication and care of the client, when one applies to how the referral ended. */
export type SideAspect = "feeAsAgreed" | "referralQuality";

/**
 * The receiving side owed the fee, so it is rated on paying it as agreed, but only when a
 * fee was received: a referral lost or expired owed none. The referring side is rated on
 * the referral it sent, however it ended.
 */
export function sideAspect(reviewedSide: "referring" | "receiving", endedAs: ReferralStatus): SideAspect | undefined {
  if (reviewedSide === "referring") return "referralQuality";
  return endedAs === "fee_received" ? "feeAsAgreed" : undefined;
}

export const ASPECT_LABELS = {
  communication: "Communication",
  clientCare: "Care of the client",
  feeAsAgreed: "Fee handled as agreed",
  referralQuality: "Quality of the referral",
} as const;

export type Aspect = keyof typeof ASPECT_LABELS;

const ASPECTS = Object.keys(ASPECT_LABELS) as Aspect[];

/** The aspects a review of one side of a referral that ended so rates, in the order the form and the profile show them. */
export function aspectsFor(reviewedSide: "referring" | "receiving", endedAs: ReferralStatus): Aspect[] {
  const side = sideAspect(reviewedSide, endedAs);
  return side ? ["communication", "clientCare", side] : ["communication", "clientCare"];
}

/** The aspects a written review rated: an aspect that did not apply was never asked, so it is shown as nothing, not as no stars. */
export function ratedAspects(review: Pick<Review, Aspect>): Aspect[] {
  return ASPECTS.filter((aspect) => review[aspect] !== undefined);
}

/** Where a member stands with the reviews of one referral they are a party of. */
export type ReviewStanding = {
  /** Their own review, whatever its status. */
  mine: Review | undefined;
  /** The other party's review of them: only once published, so nothing of it leaves the server before. */
  theirs: Review | undefined;
  /** When the reviews were published: only once they are, since before it the time tells whether and when the other party wrote. */
  publishedAt: string | undefined;
  /** The latest their own review stays hidden: `BLIND_PERIOD_DAYS` after they wrote it, while it is not yet published. */
  mineHiddenUntil: string | undefined;
  published: boolean;
  /** Writing or editing their review: until publication, then never again. */
  canWrite: boolean;
};

/**
 * The double-blind rule for one member: their own review always, the other's only once
 * published and not hidden by staff. Before publication nothing in the standing depends
 * on the other party's review, not even its existence or time: the publication time is
 * given once it has passed, and until then only the member's own review's 14 days. Once
 * the reviews are published, a review not yet written can no longer be: the other
 * party's would already be there to read.
 */
export function reviewStanding(reviewsOfReferral: readonly Review[], memberEmail: string, now: Date): ReviewStanding {
  const publishedAt = publicationTime(reviewsOfReferral);
  const published = publishedAt !== undefined && Date.parse(publishedAt) <= now.getTime();
  const mine = reviewsOfReferral.find((review) => review.reviewerEmail === memberEmail);
  const other = reviewsOfReferral.find((review) => review.reviewedEmail === memberEmail && review.reviewerEmail !== memberEmail);
  return {
    mine,
    theirs: published && other?.status === "visible" ? other : undefined,
    publishedAt: published ? publishedAt : undefined,
    mineHiddenUntil: !published && mine ? blindPeriodEnd(mine.submittedAt) : undefined,
    published,
    canWrite: !published,
  };
}

/** The time the reviews of each referral are published, for a list of reviews drawn from whole referrals. */
export function publicationTimes(reviews: readonly Review[]): Map<string, string> {
  const byReferral = new Map<string, Review[]>();
  for (const review of reviews) byReferral.set(review.referralId, [...(byReferral.get(review.referralId) ?? []), review]);
  const times = new Map<string, string>();
  for (const [referralId, ofReferral] of byReferral) {
    const time = publicationTime(ofReferral);
    if (time !== undefined) times.set(referralId, time);
  }
  return times;
}
