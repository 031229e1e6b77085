import { isLive, matchesFilters, sortRequests, type RequestListQuery } from "~/domain/referral-requests";
import type { Agent, ReferralRequest } from "~/domain/workbook";
import type { Store } from "../store/store.server";
import { requestView } from "./views.server";

/** Active requests not yet past their expiry: the only ones any list shows. */
export function liveRequests(store: Pick<Store, "requests">, now: Date): ReferralRequest[] {
  return store.requests.by("status", "active").filter((request) => isLive(request, now));
}

/**
 * The requests page: All Requests are other members' live requests, My Requests the
 * member's own; both counts ignore the filters, the list applies them.
 */
export function requestListPage(store: Pick<Store, "requests" | "responses">, member: Pick<Agent, "email">, query: RequestListQuery, now: Date) {
  const live = liveRequests(store, now);
  const own = live.filter((request) => request.agentEmail === member.email);
  const others = live.filter((request) => request.agentEmail !== member.email);
  const shown = sortRequests((query.tab === "mine" ? own : others).filter((request) => matchesFilters(request, query)), query.sort);
  return {
    counts: { all: others.length, mine: own.length },
    requests: shown.map((request) => requestView(store, request, member.email, now)),
  };
}

/** A request a member may open: any but another member's deleted one. */
export function findRequestFor(store: Pick<Store, "requests">, id: string, member: Pick<Agent, "email">): ReferralRequest | undefined {
  const request = store.requests.get(id);
  if (!request) return undefined;
  if (request.status === "deleted" && request.agentEmail !== member.email) return undefined;
  return request;
}

export function notFound(): Response {
  return new Response("Request not found", { status: 404 });
}

/** The request, if it exists (404 otherwise) and belongs to the member (403 otherwise). */
export function requireOwnRequest(store: Pick<Store, "requests">, id: string, member: Pick<Agent, "email">): ReferralRequest {
  const request = store.requests.get(id);
  if (!request || request.status === "deleted") throw notFound();
  if (request.agentEmail !== member.email) throw new Response("Only the agent who posted this request can change it", { status: 403 });
  return request;
}
