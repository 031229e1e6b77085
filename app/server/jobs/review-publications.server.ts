/**
 * Tells each member of a review of them just published, by mail and push, after each timed
 * store refresh: publication is a time (docs/decisions/0044), not a request, so a pass finds
 * it. Each review is told once across instances (claimed `review-published:<review id>`),
 * and only within PUBLISHED_NOTICE_DAYS of its publication (docs/decisions/0070).
 */
import { CLAIM_KEYS } from "~/domain/claim-keys";
import { publicationTimes, publishedReviews, reviewPath } from "~/domain/reviews";
import type { Review } from "~/domain/workbook/tabs";
import { publicUrl } from "../accounts/urls.server";
import type { Config } from "../config.server";
import { reviewPublishedMail } from "../mail/review-mail.server";
import { asModeratedReviews, hiddenAuthorsFor } from "../moderation/visibility.server";
import type { Notifier } from "../notifier/notifier.server";
import { reviewPublishedNotice } from "../push/notices.server";
import type { BackgroundJob, Store } from "../store/store.server";
import { refreshJob } from "./registry.server";

/** A publication older than this is never told: on the first deploy, the reviews published before it stay quiet. */
const PUBLISHED_NOTICE_DAYS = 2;
const DAY_MS = 86_400_000;

type Deps = {
  store: Store;
  notifier: Pick<Notifier, "enqueue">;
  config: Pick<Config, "appUrl" | "port">;
};

/** The published reviews whose publication is recent enough to be told. */
function recentlyPublished(store: Store, now: Date): Review[] {
  const reviews = asModeratedReviews({ store }, store.reviews.all());
  const times = publicationTimes(reviews);
  const since = now.getTime() - PUBLISHED_NOTICE_DAYS * DAY_MS;
  return publishedReviews(reviews, now).filter((review) => Date.parse(times.get(review.referralId) ?? "") >= since);
}

/** One pass: resolves to how many notices it queued; the claim in the notifier decides which go. */
export function notifyPublishedReviews(deps: Deps, now: Date, signal?: AbortSignal): number {
  let queued = 0;
  for (const review of recentlyPublished(deps.store, now)) {
    if (signal?.aborted) return queued;
    const once = CLAIM_KEYS["review-published"].key(review.id);
    // Decided from the replica first, so a pass after every refresh costs no claim call.
    if (deps.store.sendClaims.by("key", once).length > 0) continue;
    const referral = deps.store.referrals.get(review.referralId);
    const agent = deps.store.agents.by("email", review.reviewedEmail)[0];
    // The same checks as an invitation's: an approved member, the reviewer neither blocked either way nor suspended.
    if (!referral || !agent || agent.status !== "approved" || hiddenAuthorsFor(deps, agent).has(review.reviewerEmail)) continue;
    const reviewerName = review.reviewerEmail === referral.referringEmail ? referral.referringName : referral.receivingName;
    deps.notifier.enqueue(
      {
        mail: reviewPublishedMail({ referral, review, reviewerName, link: publicUrl(deps.config, reviewPath(referral.id)) }),
        about: `the publication of review ${review.id} to ${agent.email}`,
        member: { recipient: agent, kind: "reviews", reason: "you were a party to this referral" },
        // Unread until the member opens the review's page (notifier.visited).
        push: { notice: reviewPublishedNotice({ review, reviewerName }), urgency: "normal" },
      },
      { once, now },
    );
    queued += 1;
  }
  return queued;
}

/** Runs the pass after each of the store's timed refreshes; `clock` is replaced in tests. */
export function notifyPublishedReviewsAfterRefreshes(deps: Deps, clock: () => Date = () => new Date()): BackgroundJob {
  return deps.store.addJob({
    ...refreshJob("reviewPublications"),
    run(_event, signal) {
      notifyPublishedReviews(deps, clock(), signal);
      return Promise.resolve();
    },
  });
}
