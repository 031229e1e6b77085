import { isPastExpiry } from "~/domain/referral-requests/expiry";
import type { BackgroundJob, Store } from "../store/store.server";
import { refreshJob } from "./registry.server";

/**
 * Marks active requests past their expiry as expired; the rows stay. Lists never
 * show such a request whether or not this has run yet, so it is safe to run late.
 * Resolves to how many were marked.
 */
export async function expireOverdueRequests(store: Pick<Store, "requests">, now: Date, signal?: AbortSignal): Promise<number> {
  const overdue = store.requests.by("status", "active").filter((request) => isPastExpiry(request, now));
  let expired = 0;
  for (const request of overdue) {
    // Stopped: the rest are expired by the next run, here or on another instance.
    if (signal?.aborted) break;
    await store.requests.update(request.id, { status: "expired" });
    expired += 1;
  }
  return expired;
}

/**
 * Expires overdue requests after each of the store's timed refreshes, so a request
 * expires whether or not anyone loads a page, and one run never overlaps the next.
 */
export function expireRequestsAfterRefreshes(store: Pick<Store, "requests" | "addJob">): BackgroundJob {
  return store.addJob({
    ...refreshJob("requestExpiry"),
    async run(_event, signal) {
      await expireOverdueRequests(store, new Date(), signal);
    },
  });
}
