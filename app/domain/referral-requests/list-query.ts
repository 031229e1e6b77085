/**
 * The referral request lists (docs/product.md#referral-requests): the
 * requests page's and the dashboard's state read from their addresses, and how lists are
 * filtered, searched and sorted.
 */
import { firstInOrder } from "../directory-search";
import { MARKET_STATES, PRICE_RANGES, REQUEST_TYPE_VALUES, SPECIALTIES, type MarketState, type RequestType } from "../enums";
import type { ReferralRequest } from "../workbook/tabs";
import { CLIENT_TYPE_VALUES, type ClientType } from "./labels";

export const DASHBOARD_REQUEST_LIMIT = 8;
/** Request cards on one page of the requests page: a page stays small whatever the network's size. */
export const REQUEST_PAGE_SIZE = 20;
export const DASHBOARD_POLL_SECONDS = 30;
/** On window focus the dashboard checks again only when its last check is older than this. */
export const FOCUS_STALE_SECONDS = 10;

/** The filters both lists share; absent means any. */
export type RequestFilters = {
  type?: RequestType;
  state?: MarketState;
  specialty?: string;
  priceRange?: string;
  clientType?: ClientType;
  /** Free text, matched case-insensitively in the title, description and location. */
  q?: string;
};

type Filterable = Pick<
  ReferralRequest,
  "requestType" | "title" | "description" | "location" | "state" | "specialty" | "priceRange" | "clientType"
>;

function sameText(a: string, b: string): boolean {
  return a.trim().toLowerCase() === b.trim().toLowerCase();
}

/** The search matches title, description and location, ignoring case. */
function matchesSearch(request: Filterable, q: string | undefined): boolean {
  const needle = q?.trim().toLowerCase();
  if (!needle) return true;
  return [request.title, request.description, request.location].some((text) => text.toLowerCase().includes(needle));
}

export function matchesFilters(request: Filterable, filters: RequestFilters): boolean {
  return (
    (filters.type === undefined || request.requestType === filters.type) &&
    (filters.state === undefined || sameText(request.state, filters.state)) &&
    (filters.specialty === undefined || sameText(request.specialty, filters.specialty)) &&
    (filters.priceRange === undefined || sameText(request.priceRange, filters.priceRange)) &&
    (filters.clientType === undefined || (request.requestType === "referral" && sameText(request.clientType, filters.clientType))) &&
    matchesSearch(request, filters.q)
  );
}

export const REQUEST_SORTS = [
  { value: "newest", label: "Newest First" },
  { value: "location", label: "Location" },
  { value: "specialty", label: "Specialty" },
] as const;
export type RequestSort = (typeof REQUEST_SORTS)[number]["value"];

const byNewest = (a: Pick<ReferralRequest, "createdAt">, b: Pick<ReferralRequest, "createdAt">) =>
  Date.parse(b.createdAt) - Date.parse(a.createdAt);

function byText(pick: (request: ReferralRequest) => string) {
  return (a: ReferralRequest, b: ReferralRequest) => pick(a).localeCompare(pick(b), "en", { sensitivity: "base" }) || byNewest(a, b);
}

/**
 * Newest first by default; by location or specialty A to Z, newest first within a tie.
 * With `count`, only the first `count` in that order: a page's worth, without sorting the rest.
 */
export function sortRequests(requests: readonly ReferralRequest[], sort: RequestSort, count = requests.length): ReferralRequest[] {
  const compare =
    sort === "location"
      ? byText((r) => `${r.location.trim()}, ${r.state}`)
      : sort === "specialty"
        ? byText((r) => r.specialty.trim())
        : byNewest;
  return firstInOrder(requests, count, compare);
}

/** Query parameter values are taken only when they are one of the known options. */
function pick<const T extends string>(value: string | null, options: readonly T[]): T | undefined {
  const wanted = value?.trim().toLowerCase();
  if (!wanted) return undefined;
  return options.find((option) => option.toLowerCase() === wanted);
}

function searchText(value: string | null): string | undefined {
  const text = value?.trim().slice(0, 200);
  return text ? text : undefined;
}

function readFilters(params: URLSearchParams): RequestFilters {
  return {
    type: pick(params.get("type"), REQUEST_TYPE_VALUES),
    state: pick(params.get("state"), MARKET_STATES),
    specialty: pick(params.get("specialty"), SPECIALTIES),
    priceRange: pick(params.get("priceRange"), PRICE_RANGES),
    clientType: pick(params.get("clientType"), CLIENT_TYPE_VALUES),
    q: searchText(params.get("q")),
  };
}

const REQUEST_TABS = ["all", "mine"] as const;
export type RequestTab = (typeof REQUEST_TABS)[number];

/** The requests page's state, all of it in the address (GET forms). */
export type RequestListQuery = RequestFilters & { tab: RequestTab; sort: RequestSort };

export function parseRequestListQuery(params: URLSearchParams): RequestListQuery {
  return {
    tab: pick(params.get("tab"), REQUEST_TABS) ?? "all",
    sort:
      pick(
        params.get("sort"),
        REQUEST_SORTS.map((sort) => sort.value),
      ) ?? "newest",
    ...readFilters(params),
  };
}

/** The query string of a list state, leaving defaults out so addresses stay short. */
export function requestListSearch(query: Partial<RequestListQuery>): string {
  const params = new URLSearchParams();
  if (query.tab && query.tab !== "all") params.set("tab", query.tab);
  for (const name of ["type", "state", "specialty", "priceRange", "clientType", "q"] as const) {
    const value = query[name];
    if (value) params.set(name, value);
  }
  if (query.sort && query.sort !== "newest") params.set("sort", query.sort);
  const search = params.toString();
  return search ? `?${search}` : "";
}

export function hasActiveFilters(filters: RequestFilters): boolean {
  return Boolean(filters.type || filters.state || filters.specialty || filters.priceRange || filters.clientType || filters.q);
}

// The dashboard's live list

export const DASHBOARD_CHIPS = [
  { value: "all", label: "All Live" },
  { value: "referrals", label: "Referrals" },
  { value: "buyers", label: "Need Buyers" },
  { value: "market", label: "My Market" },
  { value: "urgent", label: "Urgent" },
] as const;
export type DashboardChip = (typeof DASHBOARD_CHIPS)[number]["value"];

/** The dashboard's filters (type, state, specialty, search) and quick chip, from its address. */
export type DashboardQuery = Pick<RequestFilters, "type" | "state" | "specialty" | "q"> & { chip: DashboardChip };

export function parseDashboardQuery(params: URLSearchParams): DashboardQuery {
  const { type, state, specialty, q } = readFilters(params);
  return {
    type,
    state,
    specialty,
    q,
    chip:
      pick(
        params.get("chip"),
        DASHBOARD_CHIPS.map((chip) => chip.value),
      ) ?? "all",
  };
}

export function dashboardSearch(query: Partial<DashboardQuery>): string {
  const params = new URLSearchParams();
  for (const name of ["type", "state", "specialty", "q"] as const) {
    const value = query[name];
    if (value) params.set(name, value);
  }
  if (query.chip && query.chip !== "all") params.set("chip", query.chip);
  const search = params.toString();
  return search ? `?${search}` : "";
}

/** Need Buyers are listings; My Market is the member's own state. */
export function matchesChip(request: Filterable & Pick<ReferralRequest, "urgent">, chip: DashboardChip, memberState: string): boolean {
  switch (chip) {
    case "all":
      return true;
    case "referrals":
      return request.requestType === "referral";
    case "buyers":
      return request.requestType === "listing";
    case "market":
      return memberState.trim() !== "" && sameText(request.state, memberState);
    case "urgent":
      return request.urgent;
  }
}

export function matchesDashboard(
  request: Filterable & Pick<ReferralRequest, "urgent">,
  query: DashboardQuery,
  memberState: string,
): boolean {
  return matchesFilters(request, query) && matchesChip(request, query.chip, memberState);
}

/**
 * The requests page's address showing what the dashboard shows, as far as its filters
 * reach (it has no urgent filter): for "View All N Live Requests".
 */
export function requestListForDashboard(query: DashboardQuery, memberState: string): string {
  const list: Partial<RequestListQuery> = { type: query.type, state: query.state, specialty: query.specialty, q: query.q };
  if (query.chip === "referrals") list.type = "referral";
  if (query.chip === "buyers") list.type = "listing";
  if (query.chip === "market") list.state = pick(memberState, MARKET_STATES);
  return `/referral-requests${requestListSearch(list)}`;
}
