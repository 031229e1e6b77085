import {
  DASHBOARD_REQUEST_LIMIT,
  matchesDashboard,
  parseDashboardQuery,
  requestListForDashboard,
  type DashboardQuery,
} from "~/domain/referral-requests/list-query";
import { REQUEST_TYPE_VALUES, type RequestType } from "~/domain/enums";
import type { Agent, ReferralRequest } from "~/domain/workbook/tabs";
import type { DashboardLive, DashboardTiles } from "~/domain/request-views";
import type { Services } from "../services.server";
import type { Store } from "../store/store.server";
import { hiddenAuthorsFor } from "../moderation/visibility.server";
import { interestedAndSavedOf } from "./interested-and-saved.server";
import { liveRequests } from "./queries.server";
import { requestView } from "./views.server";

/** Live requests of every member, by type, and the approved agents: the dashboard's tiles. */
function tileCounts(store: Store, live: readonly ReferralRequest[]): DashboardTiles {
  const byType = Object.fromEntries(REQUEST_TYPE_VALUES.map((type) => [type, 0])) as Record<RequestType, number>;
  for (const request of live) byType[request.requestType] += 1;
  return { ...byType, agents: store.agents.by("status", "approved").length };
}

/** Other members' live requests matching the dashboard's filters and chip, newest first. */
function matchingRequests(
  services: Pick<Services, "store">,
  live: readonly ReferralRequest[],
  member: Pick<Agent, "email" | "state">,
  query: DashboardQuery,
): ReferralRequest[] {
  const hiddenAuthors = hiddenAuthorsFor(services, member);
  return live.filter(
    (request) =>
      request.agentEmail !== member.email && !hiddenAuthors.has(request.agentEmail) && matchesDashboard(request, query, member.state),
  );
}

/**
 * Everything the dashboard's live parts show: the tiles, the filters and chip from
 * the address, the 8 newest matching requests' cards with the member's marks, and the moment the
 * list was read, from which the browser later asks what is new.
 */
export function dashboardData(
  services: Pick<Services, "store" | "liveRequests">,
  member: Agent,
  params: URLSearchParams,
  now: Date,
): { tiles: DashboardTiles; live: DashboardLive } {
  const live = liveRequests(services, now);
  const query = parseDashboardQuery(params);
  const matching = matchingRequests(services, live, member, query);
  const marks = interestedAndSavedOf(services, member.email);
  return {
    tiles: tileCounts(services.store, live),
    live: {
      query,
      memberState: member.state,
      total: matching.length,
      requests: matching.slice(0, DASHBOARD_REQUEST_LIMIT).map((request) => ({
        ...requestView(services, request, member.email, now),
        interested: marks.interested.has(request.id),
        saved: marks.saved.has(request.id),
      })),
      viewAllHref: requestListForDashboard(query, member.state),
      asOf: now.toISOString(),
    },
  };
}

/**
 * How many requests matching the dashboard's filters were posted since `since`. One
 * posted in the very millisecond the list was read counts too: better announced once
 * more than never.
 */
export function newRequestCount(
  services: Pick<Services, "store" | "liveRequests">,
  member: Agent,
  params: URLSearchParams,
  since: Date,
  now: Date,
): number {
  const matching = matchingRequests(services, liveRequests(services, now), member, parseDashboardQuery(params));
  return matching.filter((request) => Date.parse(request.createdAt) >= since.getTime()).length;
}
