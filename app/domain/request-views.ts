/**
 * What the request pages and the dashboard are sent about requests: plain data worked
 * out on the server (app/server/requests), typed here so components need nothing from
 * the server to render it.
 */
import type { DashboardQuery } from "./referral-requests/list-query";
import type { RequestType } from "./enums";
import type { ReferralRequest } from "./workbook/tabs";

/**
 * A request as a page shows it, with every time-dependent label already worked out: the
 * browser renders the words it was sent, whatever its clock says. No e-mail: pages link
 * to the poster by agent id.
 */
export type RequestView = Pick<
  ReferralRequest,
  | "id"
  | "requestType"
  | "title"
  | "location"
  | "state"
  | "specialty"
  | "priceRange"
  | "listingAddress"
  | "listingMLS"
  | "description"
  | "urgent"
  | "status"
> & {
  clientLabel: string;
  timelineLabel: string;
  contactPreferenceLabel: string;
  agentName: string;
  agentId: string;
  isOwn: boolean;
  responses: number;
  tags: string[];
  postedAgo: string;
  expiryNotice: string | null;
  isNew: boolean;
};

/** The dashboard's tiles: live requests of every member by type, and the approved agents. */
export type DashboardTiles = Record<RequestType, number> & { agents: number };

/** A card of the dashboard's live list: the request with the member's own marks on it. */
export type DashboardRequest = RequestView & { interested: boolean; saved: boolean };

/** The dashboard's Live Agent Requests. */
export type DashboardLive = {
  query: DashboardQuery;
  memberState: string;
  /** Matching requests in all, of which the newest few are sent. */
  total: number;
  requests: DashboardRequest[];
  viewAllHref: string;
  /** When the list was read; the browser asks what is new since then. */
  asOf: string;
};
