import type { AgentIdMatch } from "~/domain/agent-id";
import { firstInOrder, foldText, pageWindow, parsePageNumber, type PageWindow } from "~/domain/directory-search";
import { MARKET_STATES, SPECIALTIES, type MarketState, type Specialty } from "~/domain/enums";
import { DIRECTORY_SORTS, type DirectorySort } from "~/domain/track-record-text";
import type { Agent } from "~/domain/workbook/tabs";
import type { Place } from "~/domain/places/place-names";
import { DEFAULT_SERVICE_RADIUS, SERVICE_RADII, type ServiceRadius } from "~/domain/places/service-radius";
import { matchTypedPlace } from "../places/places.server";
import { unmatchedPlaceMessage } from "../places/typed-places.server";
import type { Services } from "../services.server";
import type { Store } from "../store/store.server";
import { byTrackRecord } from "../track-record/track-records.server";
import { textMatches, type DirectoryEntry, type DirectoryIndex } from "./directory-index.server";

/** Longest search or filter text read from a URL; longer input is cut, not refused. */
const MAX_QUERY_LENGTH = 100;

/** The public directory's filters, as its GET form and shared links carry them. */
export type DirectoryQuery = {
  q: string;
  state: MarketState | null;
  specialty: Specialty | null;
  sort: DirectorySort | null;
  page: number;
};

/**
 * The member directory's filters (docs/product.md#profiles-and-directories): state, case-insensitive substrings of city and
 * specialty, and agents serving near a place (`near`, within `miles`).
 */
export type MemberDirectoryQuery = {
  state: MarketState | null;
  city: string;
  specialty: string;
  near: string;
  miles: ServiceRadius;
  sort: DirectorySort | null;
  page: number;
};

export type DirectoryPage = PageWindow & {
  agents: Agent[];
  /** How many agents match the filters, on all pages. */
  matches: number;
  /** How many approved agents the directory holds. */
  total: number;
};

function textParam(params: URLSearchParams, name: string): string {
  return (params.get(name) ?? "").trim().slice(0, MAX_QUERY_LENGTH);
}

/** A state or specialty from a link: matched ignoring case; an unknown value means no filter. */
function choiceParam<T extends string>(params: URLSearchParams, name: string, options: readonly T[]): T | null {
  const value = textParam(params, name).toLowerCase();
  return options.find((option) => option.toLowerCase() === value) ?? null;
}

export function parseDirectoryQuery(params: URLSearchParams): DirectoryQuery {
  return {
    q: textParam(params, "q"),
    state: choiceParam(params, "state", MARKET_STATES),
    specialty: choiceParam(params, "specialty", SPECIALTIES),
    sort: choiceParam(params, "sort", DIRECTORY_SORTS),
    page: parsePageNumber(params.get("page")),
  };
}

export function parseMemberDirectoryQuery(params: URLSearchParams): MemberDirectoryQuery {
  return {
    state: choiceParam(params, "state", MARKET_STATES),
    city: textParam(params, "city"),
    specialty: textParam(params, "specialty"),
    near: textParam(params, "near"),
    miles: SERVICE_RADII.find((miles) => String(miles) === params.get("miles")) ?? DEFAULT_SERVICE_RADIUS,
    sort: choiceParam(params, "sort", DIRECTORY_SORTS),
    page: parsePageNumber(params.get("page")),
  };
}

/**
 * One filter as the query planner sees it: the agents an index lists for it, and the
 * test an agent from another filter's list must pass. The shortest list is read; the
 * other filters only test its agents, so no request walks every row.
 */
type Filter = { candidates(): readonly DirectoryEntry[]; size(): number; test(entry: DirectoryEntry): boolean };

function entriesOf(index: DirectoryIndex, agents: readonly Agent[]): DirectoryEntry[] {
  const entries: DirectoryEntry[] = [];
  for (const agent of agents) {
    const entry = index.approved.get(agent.id);
    if (entry) entries.push(entry);
  }
  return entries;
}

/** A filter served by one of the store's indexes (state, specialty). */
function storeIndexFilter(index: DirectoryIndex, agents: readonly Agent[], test: (entry: DirectoryEntry) => boolean): Filter {
  return { candidates: () => entriesOf(index, agents), size: () => agents.length, test };
}

/** A substring filter over distinct values (cities, specialties): the matching values' agents are the candidates. */
function distinctValueFilter(
  values: ReadonlyMap<string, readonly DirectoryEntry[]>,
  needle: string,
  test: (entry: DirectoryEntry) => boolean,
): Filter {
  const lists = [...values].filter(([value]) => value.includes(needle)).map(([, entries]) => entries);
  return {
    candidates: () => [...new Set(lists.flat())],
    size: () => lists.reduce((total, list) => total + list.length, 0),
    test,
  };
}

/** Every approved agent passing every filter, in no particular order. */
function applyFilters(index: DirectoryIndex, filters: readonly Filter[]): DirectoryEntry[] {
  const [narrowest] = [...filters].sort((a, b) => a.size() - b.size());
  const candidates = narrowest ? narrowest.candidates() : [...index.approved.values()];
  return candidates.filter((entry) => filters.every((filter) => filter === narrowest || filter.test(entry)));
}

const byOrder = (a: DirectoryEntry, b: DirectoryEntry) => a.order - b.order;

/** The requested page of the matches in `compare` order: only the matches up to that page's end are put in order. */
function pageOf(
  index: DirectoryIndex,
  entries: readonly DirectoryEntry[],
  compare: (a: DirectoryEntry, b: DirectoryEntry) => number,
  requestedPage: number,
): DirectoryPage {
  const window = pageWindow(entries.length, requestedPage);
  return {
    ...window,
    agents: firstInOrder(entries, window.end, compare)
      .slice(window.start)
      .map((entry) => entry.agent),
    matches: entries.length,
    total: index.approved.size,
  };
}

function stateFilter(index: DirectoryIndex, store: Store, state: MarketState): Filter {
  return storeIndexFilter(index, store.agents.by("state", state), (entry) => entry.agent.state === state);
}

/** The directory reads the replica, the index kept of its approved agents and, to sort by them, the track records. */
type DirectoryServices = Pick<Services, "store" | "directory" | "trackRecords">;

/** The order asked for, else the page's own. */
function sortedBy(services: DirectoryServices, sort: DirectorySort | null, own: (a: DirectoryEntry, b: DirectoryEntry) => number) {
  return sort === "track-record" ? byTrackRecord(services.trackRecords.current(), own) : own;
}

/** The public directory (docs/product.md#profiles-and-directories): text search ranked by where it matched, state and specialty filters. */
export function searchDirectory(services: DirectoryServices, query: DirectoryQuery): DirectoryPage {
  const { store, directory } = services;
  const index = directory.current();
  const filters: Filter[] = [];
  if (query.state) filters.push(stateFilter(index, store, query.state));
  const { specialty } = query;
  if (specialty) {
    filters.push(storeIndexFilter(index, store.agents.by("specialty", specialty), (entry) => entry.agent.specialties.includes(specialty)));
  }
  if (!query.q) return pageOf(index, applyFilters(index, filters), sortedBy(services, query.sort, byOrder), query.page);

  const ranks = textMatches(index, query.q);
  const found: Filter = { candidates: () => [...ranks.keys()], size: () => ranks.size, test: (entry) => ranks.has(entry) };
  const rankOf = (entry: DirectoryEntry) => ranks.get(entry) ?? Number.POSITIVE_INFINITY;
  const byMatch = (a: DirectoryEntry, b: DirectoryEntry) => rankOf(a) - rankOf(b) || a.order - b.order;
  return pageOf(index, applyFilters(index, [...filters, found]), sortedBy(services, query.sort, byMatch), query.page);
}

/**
 * The "near a place" filter: the place found (exact or a single slip) and each nearby
 * agent's distance, or the message for a place the list does not hold (the filter is then left out).
 */
export type NearPlace = { found: true; place: Place; miles: ReadonlyMap<string, number> } | { found: false; message: string };

export type MemberDirectoryPage = DirectoryPage & { near: NearPlace | null };

function nearPlaceFilter(index: DirectoryIndex, miles: ReadonlyMap<string, number>): Filter {
  return {
    candidates: () => [...miles.keys()].map((id) => index.approved.get(id)!),
    size: () => miles.size,
    test: (entry) => miles.has(entry.agent.id),
  };
}

function nearPlace(index: DirectoryIndex, query: MemberDirectoryQuery): NearPlace | null {
  if (!query.near) return null;
  const match = matchTypedPlace(query.near);
  if (match.kind !== "found") return { found: false, message: unmatchedPlaceMessage(query.near, match) };
  const nearby = index.near.within(match.place, query.miles).filter(({ item }) => index.approved.has(item));
  return { found: true, place: match.place, miles: new Map(nearby.map(({ item, miles }) => [item, miles])) };
}

/** The member directory (docs/product.md#profiles-and-directories): state, city and specialty substrings, by name; near a place, nearest first. */
export function filterMemberDirectory(services: DirectoryServices, query: MemberDirectoryQuery): MemberDirectoryPage {
  const { store, directory } = services;
  const index = directory.current();
  const filters: Filter[] = [];
  const near = nearPlace(index, query);
  if (near?.found) filters.push(nearPlaceFilter(index, near.miles));
  if (query.state) filters.push(stateFilter(index, store, query.state));
  const city = foldText(query.city);
  if (city) filters.push(distinctValueFilter(index.byCity, city, (entry) => entry.foldedCity.includes(city)));
  const specialty = foldText(query.specialty);
  if (specialty) {
    filters.push(distinctValueFilter(index.bySpecialty, specialty, (entry) => entry.foldedSpecialties.some((s) => s.includes(specialty))));
  }
  const own = near?.found ? byDistance(near.miles) : byOrder;
  return { ...pageOf(index, applyFilters(index, filters), sortedBy(services, query.sort, own), query.page), near };
}

function byDistance(miles: ReadonlyMap<string, number>) {
  const distance = (entry: DirectoryEntry) => miles.get(entry.agent.id) ?? Number.POSITIVE_INFINITY;
  return (a: DirectoryEntry, b: DirectoryEntry) => distance(a) - distance(b) || byOrder(a, b);
}

/**
 * The approved agent a profile or message address names, by any id form docs/product.md#agent-ids
 * accepts or the store's record id (what the public directory links with, so its
 * pages carry no e-mail). Null when no approved agent has that id.
 */
export function findDirectoryAgent({ directory }: Pick<Services, "directory">, requestedId: string): AgentIdMatch<Agent> | null {
  return directory.current().ids.find(requestedId);
}
