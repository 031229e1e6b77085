import { pageWindow } from "~/domain/directory-search";
import { matchesFilters, REQUEST_PAGE_SIZE, type RequestListQuery } from "~/domain/referral-requests/list-query";
import type { Agent, ReferralRequest } from "~/domain/workbook/tabs";
import type { Services } from "../services.server";
import { notFound } from "../http.server";
import { requestView } from "./views.server";

/** Active requests not yet past their expiry, newest first: the only ones any list shows. */
export function liveRequests({ liveRequests }: Pick<Services, "liveRequests">, now: Date): readonly ReferralRequest[] {
  return liveRequests.inOrder("newest", now);
}

/**
 * One page of the requests page: All Requests are other members' live requests, My
 * Requests the member's own; both counts ignore the filters, the list applies them.
 * Only the requested page is turned into views, so the page weighs the same however
 * many requests are live.
 */
export function requestListPage(
  services: Pick<Services, "store" | "liveRequests">,
  member: Pick<Agent, "email">,
  query: RequestListQuery,
  requestedPage: number,
  now: Date,
) {
  const live = services.liveRequests.inOrder(query.sort, now);
  const isOwn = (request: ReferralRequest) => request.agentEmail === member.email;
  const ownCount = live.reduce((count, request) => count + (isOwn(request) ? 1 : 0), 0);
  const onTab = query.tab === "mine" ? isOwn : (request: ReferralRequest) => !isOwn(request);
  const matching = live.filter((request) => onTab(request) && matchesFilters(request, query));
  const window = pageWindow(matching.length, requestedPage, REQUEST_PAGE_SIZE);
  return {
    counts: { all: live.length - ownCount, mine: ownCount },
    total: matching.length,
    page: window.page,
    pageCount: window.pageCount,
    requests: matching.slice(window.start, window.end).map((request) => requestView(services, request, member.email, now)),
  };
}

/** The body of the 404 for a request that does not exist (or is another member's deleted one). */
export const REQUEST_NOT_FOUND = "Request not found";

/** A request a member may open: any but another member's deleted one. */
export function findRequestFor({ store }: Pick<Services, "store">, id: string, member: Pick<Agent, "email">): ReferralRequest | undefined {
  const request = store.requests.get(id);
  if (!request) return undefined;
  if (request.status === "deleted" && request.agentEmail !== member.email) return undefined;
  return request;
}

/** The request, if it exists (404 otherwise) and belongs to the member (403 otherwise). */
export function requireOwnRequest({ store }: Pick<Services, "store">, id: string, member: Pick<Agent, "email">): ReferralRequest {
  const request = store.requests.get(id);
  if (!request || request.status === "deleted") throw notFound(REQUEST_NOT_FOUND);
  if (request.agentEmail !== member.email) throw new Response("Only the agent who posted this request can change it", { status: 403 });
  return request;
}
