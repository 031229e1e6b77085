/**
 * The agents who serve a request's place, found through a grid index of the places they
 * serve rather than by measuring every agent.
 */
import { createPointIndex, type GeoPoint, type PointIndex } from "../places/geo";
import type { MatchCandidate, NamedPlace } from "./candidate";

/** An agent's own city counts as served within this many miles, whatever radius they chose. */
export const HOME_REACH_MILES = 25;

/** How a candidate comes to serve the request: one of their places, their own city, or only their state (the request's place unknown). */
export type Reach = PlaceReach | { readonly kind: "state"; readonly miles: null };
type PlaceReach = { readonly kind: "serves" | "based"; readonly place: NamedPlace; readonly miles: number };

export type Reached = { readonly candidate: MatchCandidate; readonly reach: Reach };
const BY_STATE: Reach = { kind: "state", miles: null };

/** One point the index files a candidate under. */
type Outpost = { readonly candidate: MatchCandidate; readonly kind: "serves" | "based"; readonly place: NamedPlace };

/**
 * Every candidate, filed by state and by the points they serve: one index per reach (their
 * radius, or 25 miles around their own city), so a search within a reach finds only points
 * that reach the place. Built once per version of the agents, read by every request.
 */
export type CandidatePool = {
  readonly outpostsByReach: ReadonlyMap<number, PointIndex<Outpost>>;
  readonly byState: ReadonlyMap<string, readonly MatchCandidate[]>;
};

export function createCandidatePool(candidates: readonly MatchCandidate[]): CandidatePool {
  const outposts = new Map<number, Outpost[]>();
  const byState = new Map<string, MatchCandidate[]>();
  for (const candidate of candidates) {
    for (const place of candidate.places) addTo(outposts, candidate.radiusMiles, { candidate, kind: "serves", place });
    if (candidate.home) addTo(outposts, HOME_REACH_MILES, { candidate, kind: "based", place: candidate.home });
    for (const state of statesOf(candidate)) addTo(byState, state, candidate);
  }
  const outpostsByReach = new Map(
    [...outposts].map(([reach, list]) => [reach, createPointIndex(list, (outpost) => [outpost.place.point])]),
  );
  return { outpostsByReach, byState };
}

function addTo<K, T>(lists: Map<K, T[]>, key: K, item: T): void {
  const list = lists.get(key);
  if (list) list.push(item);
  else lists.set(key, [item]);
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
    return (pool.byState.get(state) ?? []).map((candidate) => ({ candidate, reach: BY_STATE }));
  }
  const nearest = new Map<MatchCandidate, PlaceReach>();
  for (const [reach, outposts] of pool.outpostsByReach) {
    for (const { item, miles } of outposts.within(place, reach)) {
      const known = nearest.get(item.candidate);
      if (!known || miles < known.miles || (miles === known.miles && item.kind === "serves")) {
        nearest.set(item.candidate, { kind: item.kind, place: item.place, miles });
      }
    }
  }
  return [...nearest].map(([candidate, reach]) => ({ candidate, reach }));
}
