/**
 * The agents who serve a request's place, found through a grid index of the places they
 * serve rather than by measuring every agent.
 */
import { createPointIndex, type GeoPoint, type PointIndex } from "../places/geo";
import type { MatchCandidate, NamedPlace } from "./candidate";

/** An agent's own city counts as served within this many miles, whatever radius they chose. */
export const HOME_REACH_MILES = 25;
/** The largest radius an agent can choose (`SERVICE_RADII`): no place further than this is searched. */
const MAX_REACH_MILES = 100;

/** How a candidate comes to serve the request: one of their places, their own city, or only their state (the request's place unknown). */
export type Reach = PlaceReach | { readonly kind: "state"; readonly miles: null };
type PlaceReach = { readonly kind: "serves" | "based"; readonly place: NamedPlace; readonly miles: number };

export type Reached = { readonly candidate: MatchCandidate; readonly reach: Reach };

/** One point the index files a candidate under, and how far around it they serve. */
type Outpost = {
  readonly candidate: MatchCandidate;
  readonly kind: "serves" | "based";
  readonly place: NamedPlace;
  readonly reachMiles: number;
};

/** Every candidate, filed by the points they serve and by state: built once per version of the agents, read by every request. */
export type CandidatePool = {
  readonly outposts: PointIndex<Outpost>;
  readonly byState: ReadonlyMap<string, readonly MatchCandidate[]>;
};

export function createCandidatePool(candidates: readonly MatchCandidate[]): CandidatePool {
  const outposts: Outpost[] = [];
  const byState = new Map<string, MatchCandidate[]>();
  for (const candidate of candidates) {
    for (const place of candidate.places) outposts.push({ candidate, kind: "serves", place, reachMiles: candidate.radiusMiles });
    if (candidate.home) outposts.push({ candidate, kind: "based", place: candidate.home, reachMiles: HOME_REACH_MILES });
    for (const state of statesOf(candidate)) {
      const list = byState.get(state);
      if (list) list.push(candidate);
      else byState.set(state, [candidate]);
    }
  }
  return { outposts: createPointIndex(outposts, (outpost) => [outpost.place.point]), byState };
}

/** The agent's own state and those of the places they serve. */
function statesOf(candidate: MatchCandidate): Set<string> {
  return new Set([candidate.state, ...candidate.places.map((place) => place.state)].filter((state) => state !== ""));
}

/**
 * The candidates whose reach covers `place`, each once at their nearest covering point (a
 * place they serve before their own city at the same distance); with no place, those of `state`.
 */
export function candidatesReaching(pool: CandidatePool, place: GeoPoint | undefined, state: string): Reached[] {
  if (!place) {
    return (pool.byState.get(state) ?? []).map((candidate) => ({ candidate, reach: { kind: "state", miles: null } }));
  }
  const nearest = new Map<MatchCandidate, PlaceReach>();
  for (const { item, miles } of pool.outposts.within(place, MAX_REACH_MILES)) {
    if (miles > item.reachMiles) continue;
    const known = nearest.get(item.candidate);
    if (!known || miles < known.miles || (miles === known.miles && item.kind === "serves")) {
      nearest.set(item.candidate, { kind: item.kind, place: item.place, miles });
    }
  }
  return [...nearest].map(([candidate, reach]) => ({ candidate, reach }));
}
