import { pageWindow } from "~/domain/directory-search";
import { matchesFilters, REQUEST_PAGE_SIZE, type RequestListQuery } from "~/domain/referral-requests/list-query";
import type { Agent, ReferralRequest } from "~/domain/workbook/tabs";
import type { Services } from "../services.server";
import { notFound } from "../http.server";
import { hiddenAuthorsFor } from "../moderation/visibility.server";
import { requestView } from "./views.server";

/**
 * Active requests not yet past their expiry, of agents staff have not suspended, newest
 * first: the only ones any list, count or mail shows. (Requests staff hid are not active.)
 */
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
  const hiddenAuthors = hiddenAuthorsFor(services, member);
  const isOwn = (request: ReferralRequest) => request.agentEmail === member.email;
  const isOthersShown = (request: ReferralRequest) => !isOwn(request) && !hiddenAuthors.has(request.agentEmail);
  const ownCount = live.reduce((count, request) => count + (isOwn(request) ? 1 : 0), 0);
  const othersCount = live.reduce((count, request) => count + (isOthersShown(request) ? 1 : 0), 0);
  const onTab = query.tab === "mine" ? isOwn : isOthersShown;
  const matching = live.filter((request) => onTab(request) && matchesFilters(request, query));
  const window = pageWindow(matching.length, requestedPage, REQUEST_PAGE_SIZE);
  return {
    counts: { all: othersCount, mine: ownCount },
    total: matching.length,
    page: window.page,
    pageCount: window.pageCount,
    requests: matching.slice(window.start, window.end).map((request) => requestView(services, request, member.email, now)),
  };
}

/** The body of the 404 for a request that does not exist (or is one the member may not see). */
export const REQUEST_NOT_FOUND = "Request not found";

/**
 * A request a member may open: not one staff hid, nor another member's deleted one, nor
 * one by a suspended agent or a member blocked either way.
 */
export function findRequestFor(services: Pick<Services, "store">, id: string, member: Pick<Agent, "email">): ReferralRequest | undefined {
  const request = services.store.requests.get(id);
  if (!request || request.status === "hidden") return undefined;
  if (request.agentEmail === member.email) return request;
  if (request.status === "deleted" || hiddenAuthorsFor(services, member).has(request.agentEmail)) return undefined;
  return request;
}

/** The request, if it exists (404 otherwise) and belongs to the member (403 otherwise). */
export function requireOwnRequest({ store }: Pick<Services, "store">, id: string, member: Pick<Agent, "email">): ReferralRequest {
  const request = store.requests.get(id);
  if (!request || request.status === "deleted" || request.status === "hidden") throw notFound(REQUEST_NOT_FOUND);
  if (request.agentEmail !== member.email) throw new Response("Only the agent who posted this request can change it", { status: 403 });
  return request;
}
