import { isPastExpiry } from "~/domain/referral-requests/expiry";
import type { BackgroundJob } from "../services.server";
import type { Store } from "../store/store.server";

/**
 * Marks active requests past their expiry as expired; the rows stay. Lists never
 * show such a request whether or not this has run yet, so it is safe to run late.
 * Resolves to how many were marked.
 */
export async function expireOverdueRequests(store: Pick<Store, "requests">, now: Date): Promise<number> {
  const overdue = store.requests.by("status", "active").filter((request) => isPastExpiry(request, now));
  for (const request of overdue) await store.requests.update(request.id, { status: "expired" });
  return overdue.length;
}

/**
 * Expires overdue requests after each of the store's timed refreshes, so a request
 * expires whether or not anyone loads a page, and one run never overlaps the next.
 */
export function expireRequestsAfterRefreshes(store: Pick<Store, "requests" | "addRefreshJob">): BackgroundJob {
  const stop = store.addRefreshJob(() => expireOverdueRequests(store, new Date()));
  return { stop };
}
