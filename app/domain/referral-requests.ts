/**
 * Referral requests (spec §2 "Agent requests", "Post request", "Member dashboard", §3, §4,
 * §5, §9): the forms' schemas with the spec's messages, the tags and badges a card
 * shows, expiry, and how lists are filtered, searched and sorted. Pure: the clock is
 * always passed in.
 */
import { firstInOrder } from "./directory-search";
import { z } from "zod";
import { CONTACT_PREFERENCES, MARKET_STATES, PRICE_RANGES, SPECIALTIES, TIMELINES, type MarketState } from "./enums";
import { multiLine, optionalTextField, requiredTextField } from "./text";
import { REQUEST_TYPE_VALUES, type ReferralRequest, type RequestType } from "./workbook";

// ---------------------------------------------------------------------------
// Constants (§9)

export const REQUEST_LIFETIME_DAYS = 30;
const EXPIRY_WARNING_DAYS = 7;
const NEW_BADGE_HOURS = 24;
export const DASHBOARD_REQUEST_LIMIT = 8;
/** Request cards on one page of the requests page: a page stays small whatever the network's size. */
export const REQUEST_PAGE_SIZE = 20;
export const DASHBOARD_POLL_SECONDS = 30;
/** On window focus the dashboard checks again only when its last check is older than this. */
export const FOCUS_STALE_SECONDS = 10;

const HOUR_MS = 60 * 60 * 1000;
const DAY_MS = 24 * HOUR_MS;

// ---------------------------------------------------------------------------
// Labels

export const REQUEST_TYPE_LABELS: Record<RequestType, string> = { referral: "Referral", listing: "Listing", buyer: "Buyer Rep" };

/** The headings of the post form's type choice and of the dashboard's tiles. */
export const REQUEST_TYPE_TITLES: Record<RequestType, string> = {
  referral: "Referral Requests",
  listing: "Listings - Need Buyers",
  buyer: "Buyer Representation",
};

export const CLIENT_TYPES = [
  { value: "buyer", label: "Buyer" },
  { value: "seller", label: "Seller" },
] as const;
type ClientType = (typeof CLIENT_TYPES)[number]["value"];
const CLIENT_TYPE_VALUES = ["buyer", "seller"] as const satisfies readonly ClientType[];

export const CONTACT_PREFERENCE_OPTIONS = [
  { value: "email", label: "Email" },
  { value: "phone", label: "Phone" },
  { value: "either", label: "Either" },
] as const satisfies ReadonlyArray<{ value: (typeof CONTACT_PREFERENCES)[number]; label: string }>;

const TIMELINE_VALUES = TIMELINES.map((timeline) => timeline.value) as [string, ...string[]];

function requestTypeLabel(type: RequestType): string {
  return REQUEST_TYPE_LABELS[type];
}

/** "Buyer" or "Seller"; blank for a value staff typed that is neither. */
export function clientTypeLabel(clientType: string): string {
  return CLIENT_TYPES.find((option) => option.value === clientType.trim().toLowerCase())?.label ?? "";
}

export function timelineLabel(timeline: string): string {
  return TIMELINES.find((option) => option.value === timeline.trim().toLowerCase())?.label ?? timeline;
}

export function contactPreferenceLabel(preference: string): string {
  return CONTACT_PREFERENCE_OPTIONS.find((option) => option.value === preference.trim().toLowerCase())?.label ?? preference;
}

export function parseRequestType(value: string | null | undefined): RequestType | null {
  const type = value?.trim().toLowerCase();
  return REQUEST_TYPE_VALUES.find((candidate) => candidate === type) ?? null;
}

// ---------------------------------------------------------------------------
// Forms (§5)

const RESPOND_MESSAGE_REQUIRED = "Please enter a message";
const EDIT_FIELDS_REQUIRED = "Please fill in all required fields";
export const POST_FAILED = "Failed to post request. Please try again.";
export const REQUEST_CLOSED = "This request is no longer open for responses.";

const TITLE_MAX = 120;
const DESCRIPTION_MAX = 2000;
const MESSAGE_MAX = 2000;

/** The fields a request keeps when edited: every field but its type. */
const requestFields = {
  title: requiredTextField("Title is required", TITLE_MAX, `Please keep the title under ${TITLE_MAX} characters`),
  location: requiredTextField("City/Area is required", 100, "Please keep the city/area under 100 characters"),
  state: z.enum(MARKET_STATES, { error: "Please select a state" }),
  specialty: z.enum(SPECIALTIES, { error: "Please select a specialty" }),
  priceRange: z.enum(PRICE_RANGES, { error: "Please select a price range" }),
  clientType: z.enum(CLIENT_TYPE_VALUES, { error: "Please choose buyer or seller" }).default("buyer"),
  timeline: z.enum(TIMELINE_VALUES, { error: "Please choose a timeline" }).optional(),
  contactPreference: z.enum(CONTACT_PREFERENCES, { error: "Please choose a contact method" }).default("either"),
  listingAddress: optionalTextField(200, "Please keep the address under 200 characters"),
  listingMLS: optionalTextField(30, "Please keep the MLS number under 30 characters"),
  description: multiLine(requiredTextField("Description is required", DESCRIPTION_MAX, `Please keep the description under ${DESCRIPTION_MAX.toLocaleString("en-US")} characters`)),
  urgent: z.boolean().optional(),
};

export const postRequestSchema = z.object({
  requestType: z.enum(REQUEST_TYPE_VALUES, { error: "Please choose a request type" }),
  ...requestFields,
});
export type PostRequestInput = z.infer<typeof postRequestSchema>;

/** Editing keeps the type; a blank title or description gets the spec's one message. */
export const editRequestSchema = z.object({
  ...requestFields,
  title: requiredTextField(EDIT_FIELDS_REQUIRED, TITLE_MAX, `Please keep the title under ${TITLE_MAX} characters`),
  description: multiLine(requiredTextField(EDIT_FIELDS_REQUIRED, DESCRIPTION_MAX, `Please keep the description under ${DESCRIPTION_MAX.toLocaleString("en-US")} characters`)),
});
export type EditRequestInput = z.infer<typeof editRequestSchema>;

export const respondSchema = z.object({
  message: multiLine(requiredTextField(RESPOND_MESSAGE_REQUIRED, MESSAGE_MAX, `Please keep the message under ${MESSAGE_MAX.toLocaleString("en-US")} characters`)),
});

/** The columns a form sets, with the fields that do not apply to the type left blank. */
export function requestFieldsFor(type: RequestType, input: EditRequestInput) {
  return {
    title: input.title,
    location: input.location,
    state: input.state,
    specialty: input.specialty,
    priceRange: input.priceRange,
    clientType: type === "referral" ? input.clientType : "",
    timeline: input.timeline ?? "",
    contactPreference: input.contactPreference,
    listingAddress: type === "listing" ? (input.listingAddress ?? "") : "",
    listingMLS: type === "listing" ? (input.listingMLS ?? "") : "",
    description: input.description,
    urgent: input.urgent ?? false,
  };
}

/** A new request as §4 creates it: active, no responses, expiring 30 days later. */
export function newRequest(options: {
  id: string;
  input: PostRequestInput;
  agent: { email: string; fullName: string };
  now: Date;
}): ReferralRequest {
  const { id, input, agent, now } = options;
  const createdAt = now.toISOString();
  return {
    id,
    requestType: input.requestType,
    ...requestFieldsFor(input.requestType, input),
    agentEmail: agent.email,
    agentName: agent.fullName,
    status: "active",
    responses: 0,
    createdAt,
    updatedAt: undefined,
    expiresAt: expiresAtFor(createdAt),
  };
}

// ---------------------------------------------------------------------------
// Tags, expiry and badges

type TaggedFields = Pick<ReferralRequest, "requestType" | "location" | "state" | "specialty" | "priceRange" | "clientType">;

/** §3: type label, location, state, specialty, price range and, for referrals, Buyer or Seller. */
export function requestTags(request: TaggedFields): string[] {
  const client = request.requestType === "referral" ? clientTypeLabel(request.clientType) : "";
  return [requestTypeLabel(request.requestType), request.location, request.state, request.specialty, request.priceRange, client]
    .map((tag) => tag.trim())
    .filter((tag) => tag !== "");
}

export function expiresAtFor(createdAtIso: string): string {
  return new Date(Date.parse(createdAtIso) + REQUEST_LIFETIME_DAYS * DAY_MS).toISOString();
}

type Timed = Pick<ReferralRequest, "createdAt" | "expiresAt">;

/** A row staff added without an expiry lives 30 days from its creation, like any other. */
function expiryOf(request: Timed): number {
  return Date.parse(request.expiresAt ?? expiresAtFor(request.createdAt));
}

export function isPastExpiry(request: Timed, now: Date): boolean {
  return now.getTime() >= expiryOf(request);
}

/** Listed and open for responses: active and not yet expired. */
export function isLive(request: Timed & Pick<ReferralRequest, "status">, now: Date): boolean {
  return request.status === "active" && !isPastExpiry(request, now);
}

/** Whole days left, rounded up: a request with 30 hours left has 2 days. */
export function daysUntilExpiry(request: Timed, now: Date): number {
  return Math.ceil((expiryOf(request) - now.getTime()) / DAY_MS);
}

/** "Expires in N days" once 7 or fewer remain; null before that and once expired. */
export function expiryNotice(request: Timed, now: Date): string | null {
  if (isPastExpiry(request, now)) return null;
  const days = daysUntilExpiry(request, now);
  if (days > EXPIRY_WARNING_DAYS) return null;
  return `Expires in ${days} ${days === 1 ? "day" : "days"}`;
}

/** The NEW badge: posted under 24 hours ago. */
export function isNewRequest(request: Pick<ReferralRequest, "createdAt">, now: Date): boolean {
  const age = now.getTime() - Date.parse(request.createdAt);
  return age >= 0 ? age < NEW_BADGE_HOURS * HOUR_MS : true;
}

export function responseCountLabel(count: number): string {
  return `${count} ${count === 1 ? "response" : "responses"}`;
}

// ---------------------------------------------------------------------------
// Filters, search and sort

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

type Filterable = Pick<ReferralRequest, "requestType" | "title" | "description" | "location" | "state" | "specialty" | "priceRange" | "clientType">;

function sameText(a: string, b: string): boolean {
  return a.trim().toLowerCase() === b.trim().toLowerCase();
}

/** §5: the search matches title, description and location, ignoring case. */
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
  return (a: ReferralRequest, b: ReferralRequest) =>
    pick(a).localeCompare(pick(b), "en", { sensitivity: "base" }) || byNewest(a, b);
}

/**
 * Newest first by default; by location or specialty A to Z, newest first within a tie.
 * With `count`, only the first `count` in that order: a page's worth, without sorting the rest.
 */
export function sortRequests(requests: readonly ReferralRequest[], sort: RequestSort, count = requests.length): ReferralRequest[] {
  const compare = sort === "location" ? byText((r) => `${r.location.trim()}, ${r.state}`) : sort === "specialty" ? byText((r) => r.specialty.trim()) : byNewest;
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
    sort: pick(params.get("sort"), REQUEST_SORTS.map((sort) => sort.value)) ?? "newest",
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

// ---------------------------------------------------------------------------
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
  return { type, state, specialty, q, chip: pick(params.get("chip"), DASHBOARD_CHIPS.map((chip) => chip.value)) ?? "all" };
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

export function matchesDashboard(request: Filterable & Pick<ReferralRequest, "urgent">, query: DashboardQuery, memberState: string): boolean {
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

// ---------------------------------------------------------------------------
// Outcome notices (§8), carried in the address a form redirects to

const REQUEST_NOTICES = {
  posted: "Referral request posted successfully!",
  responded: "Response sent successfully!",
  updated: "Request updated successfully!",
  deleted: "Request deleted successfully!",
} as const;
type RequestNotice = keyof typeof REQUEST_NOTICES;

export function noticeFrom(params: URLSearchParams): string | null {
  const notice = params.get("notice");
  return notice !== null && Object.hasOwn(REQUEST_NOTICES, notice) ? REQUEST_NOTICES[notice as RequestNotice] : null;
}
