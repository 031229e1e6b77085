import { expiryOf, isLive } from "~/domain/referral-requests/expiry";
import { sortRequests, type RequestSort } from "~/domain/referral-requests/list-query";
import type { ReferralRequest } from "~/domain/workbook/tabs";
import { suspendedEmails } from "../moderation/visibility.server";
import type { Store } from "../store/store.server";

/**
 * The live requests in each list order, worked out once per version of the Requests tab
 * rather than on every page: every member's requests page and dashboard filter the same
 * list, so sorting it and reading every expiry is shared work. A list stays good until the
 * tab changes or the first of its requests expires.
 */
export type LiveRequests = {
  /** Every live request in `sort` order (newest first for "newest"). */
  inOrder(sort: RequestSort, now: Date): readonly ReferralRequest[];
};

type Snapshot = {
  version: string;
  /** The clock the list was read at and the first expiry after it: outside that span the list may be wrong. */
  readAt: number;
  goodUntil: number;
  live: readonly ReferralRequest[];
  orders: Map<RequestSort, readonly ReferralRequest[]>;
};

export function createLiveRequests(store: Pick<Store, "requests" | "agents">): LiveRequests {
  let snapshot: Snapshot | undefined;

  function current(now: Date): Snapshot {
    const version = `${store.requests.version()}/${store.agents.version()}`;
    const time = now.getTime();
    if (snapshot && snapshot.version === version && time >= snapshot.readAt && time < snapshot.goodUntil) return snapshot;
    const suspended = suspendedEmails({ store });
    const live = store.requests.by("status", "active").filter((request) => isLive(request, now) && !suspended.has(request.agentEmail));
    const goodUntil = live.reduce((first, request) => Math.min(first, expiryOf(request)), Number.POSITIVE_INFINITY);
    snapshot = { version, readAt: time, goodUntil, live, orders: new Map() };
    return snapshot;
  }

  return {
    inOrder(sort, now) {
      const { live, orders } = current(now);
      let ordered = orders.get(sort);
      if (!ordered) {
        ordered = sortRequests(live, sort);
        orders.set(sort, ordered);
      }
      return ordered;
    },
  };
}
