import { isPastExpiry } from "~/domain/referral-requests";
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

const running = new WeakMap<object, Promise<number>>();

/**
 * Starts `expireOverdueRequests` without making a page wait for it; at most one run
 * per store at a time, so busy pages do not write the same rows twice.
 */
export function expireOverdueInBackground(store: Pick<Store, "requests">, now: Date, log: Pick<Console, "error"> = console): void {
  if (running.has(store)) return;
  const run = expireOverdueRequests(store, now)
    .catch((error: unknown) => {
      log.error("Could not mark expired requests:", error);
      return 0;
    })
    .finally(() => running.delete(store));
  running.set(store, run);
}
