/**
 * Invites the parties of every ended referral to review each other, after each timed store
 * refresh: a referral staff set to fee received, lost or expired in the sheet, or that the
 * referral job expired, is found here; a member's own step invites at once from the referral
 * page. Each party is invited once (the claim in `inviteReviewers`).
 */
import { isReviewable, REVIEWABLE_STATUSES } from "~/domain/reviews";
import { inviteReviewers, type InvitationDeps } from "../reviews/invitations.server";
import type { BackgroundJob, Store } from "../store/store.server";
import { refreshJob } from "./registry.server";

type Deps = InvitationDeps & { store: InvitationDeps["store"] & Pick<Store, "referrals" | "addJob"> };

/** One pass over the ended referrals: resolves to how many invitations it queued. */
export function inviteToReviewEndedReferrals(deps: Deps, now: Date, signal?: AbortSignal): number {
  let queued = 0;
  for (const status of REVIEWABLE_STATUSES)
    for (const referral of deps.store.referrals.by("status", status)) {
      if (signal?.aborted) return queued;
      if (isReviewable(referral)) queued += inviteReviewers(deps, referral, now);
    }
  return queued;
}

/** Runs the pass after each of the store's timed refreshes; `clock` is replaced in tests. */
export function inviteReviewersAfterRefreshes(deps: Deps, clock: () => Date = () => new Date()): BackgroundJob {
  return deps.store.addJob({
    ...refreshJob("reviewInvitations"),
    run(_event, signal) {
      inviteToReviewEndedReferrals(deps, clock(), signal);
      return Promise.resolve();
    },
  });
}
