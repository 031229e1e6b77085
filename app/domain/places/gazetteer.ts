import { MARKET_STATES, type MarketState } from "~/domain/enums";
import { placeKey, placeWords, readTypedPlace, type Place } from "~/domain/places/place-names";
import { spellingDistance } from "~/domain/places/spelling";

/** What a typed place came to: the place, a guess to offer ("Did you mean Tyler, TX?"), or nothing like it. */
export type PlaceMatch =
  { readonly kind: "found"; readonly place: Place } | { readonly kind: "guess"; readonly place: Place } | { readonly kind: "unknown" };

/** Looks places up by what people type. Built once from the place list. */
export type Gazetteer = {
  /** The place written exactly (up to case, accents, punctuation and short forms), the larger if both states have it. */
  findPlace(text: string, state?: string): Place | undefined;
  /** Places whose names start with the text, largest first, then names spelled close to it. */
  suggestPlaces(text: string, state?: string, limit?: number): Place[];
  /** A place typed into a form: exact, or a single slip of one letter, is found; anything else is a guess or unknown. */
  matchTypedPlace(text: string, state?: string): PlaceMatch;
  /** The place a request names in its city or area ("Tyler", "Tyler area", "north of Tyler"), in its state. */
  resolveRequestPlace(location: string, state: string): Place | undefined;
};

export const DEFAULT_SUGGESTIONS = 8;

/** Words that say where around a place, never which place: "north of Tyler" is Tyler, "Center" alone is the town. */
const AREA_WORDS = new Set(
  placeWords(
    "north south east west northeast northwest southeast southwest central downtown area near around outside metro greater county city of the and in lake",
  ),
);
/** The most words a place's name has in a request's free text ("Fort Worth", "Lake Dallas", "Saint Jo"). */
const LONGEST_NAME_WORDS = 4;

type Entry = { readonly place: Place; readonly key: string };

/** Larger places first; equal ones in name order, so every list comes out the same. */
const byPopulation = (a: Entry, b: Entry) =>
  (b.place.population ?? 0) - (a.place.population ?? 0) ||
  a.place.name.localeCompare(b.place.name, "en") ||
  a.place.state.localeCompare(b.place.state);

const asMarketState = (state: string | undefined): MarketState | undefined => MARKET_STATES.find((each) => each === state?.toUpperCase());

/** Slips allowed in a name: none in the shortest, one up to six letters, two in longer names. */
const allowedSlips = (key: string) => (key.length < 4 ? 0 : key.length <= 6 ? 1 : 2);

export function createGazetteer(places: readonly Place[]): Gazetteer {
  const entries = places.map((place) => ({ place, key: placeKey(place.name) })).sort(byPopulation);
  const byKey = new Map<string, Entry[]>();
  for (const entry of entries) byKey.set(entry.key, [...(byKey.get(entry.key) ?? []), entry]);

  const inState = (state: MarketState | undefined) => (entry: Entry) => state === undefined || entry.place.state === state;

  function exact(key: string, state: MarketState | undefined): Place | undefined {
    return byKey.get(key)?.find(inState(state))?.place;
  }

  /** Names within the allowed slips, closest first, then largest. */
  function closeSpellings(key: string, state: MarketState | undefined): { entry: Entry; slips: number }[] {
    const allowed = allowedSlips(key);
    if (allowed === 0) return [];
    return entries
      .filter(inState(state))
      .map((entry) => ({ entry, slips: spellingDistance(key, entry.key, allowed) }))
      .filter(({ slips }) => slips <= allowed)
      .sort((a, b) => a.slips - b.slips || byPopulation(a.entry, b.entry));
  }

  function typed(text: string, state: string | undefined) {
    const { words, state: writtenState } = readTypedPlace(text);
    return { key: words.join(""), state: writtenState ?? asMarketState(state) };
  }

  function suggestPlaces(text: string, state?: string, limit = DEFAULT_SUGGESTIONS): Place[] {
    const { key, state: wanted } = typed(text, state);
    if (key === "") return [];
    const starting = entries.filter((entry) => inState(wanted)(entry) && entry.key.startsWith(key)).slice(0, limit);
    const close = starting.length < limit ? closeSpellings(key, wanted).map(({ entry }) => entry) : [];
    return [...new Set([...starting, ...close])].slice(0, limit).map((entry) => entry.place);
  }

  function findPlace(text: string, state?: string): Place | undefined {
    const { key, state: wanted } = typed(text, state);
    return key === "" ? undefined : exact(key, wanted);
  }

  function matchTypedPlace(text: string, state?: string): PlaceMatch {
    const found = findPlace(text, state);
    if (found) return { kind: "found", place: found };
    const { key, state: wanted } = typed(text, state);
    const close = closeSpellings(key, wanted);
    const [nearest, next] = close;
    if (nearest && nearest.slips === 1 && (!next || next.slips > 1)) return { kind: "found", place: nearest.entry.place };
    const [guess] = suggestPlaces(text, state, 1);
    return guess ? { kind: "guess", place: guess } : { kind: "unknown" };
  }

  /** The longest run of words that names a place wins; among runs as long, the largest place. */
  function resolveRequestPlace(location: string, state: string): Place | undefined {
    const wanted = asMarketState(state);
    if (!wanted) return undefined;
    const whole = findPlace(location, wanted);
    if (whole) return whole;
    const { words } = readTypedPlace(location);
    for (let size = Math.min(LONGEST_NAME_WORDS, words.length); size >= 1; size--) {
      const named: Place[] = [];
      for (let start = 0; start + size <= words.length; start++) {
        const run = words.slice(start, start + size);
        if (run.every((word) => AREA_WORDS.has(word))) continue;
        const place = exact(run.join(""), wanted);
        if (place) named.push(place);
      }
      const largest = named.sort((a, b) => (b.population ?? 0) - (a.population ?? 0))[0];
      if (largest) return largest;
    }
    return undefined;
  }

  return { findPlace, suggestPlaces, matchTypedPlace, resolveRequestPlace };
}
