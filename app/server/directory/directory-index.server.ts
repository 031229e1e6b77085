import { AgentIdLookup } from "~/domain/agent-id";
import { foldText, matchCost, nameSortKey, searchTokens, type SearchField } from "~/domain/directory-search";
import { createPointIndex, type PointIndex } from "~/domain/places/geo";
import type { Agent } from "~/domain/workbook/tabs";
import type { Store } from "../store/store.server";
import { agentPlaces } from "./agent-places.server";

/** One approved agent as the directory reads it: its folded fields are computed once per build, not per request. */
export type DirectoryEntry = {
  readonly agent: Agent;
  /** Position in the directory's default order (by name). */
  readonly order: number;
  readonly foldedCity: string;
  readonly foldedSpecialties: readonly string[];
};

type Posting = { readonly entry: DirectoryEntry; readonly field: SearchField };

/**
 * The directory's view of the agents tab, built once per version of the tab: the
 * approved agents by store id, an inverted index of their words for the text search,
 * their distinct cities and specialties for the member directory's substring filters,
 * and every form of their profile id.
 */
export type DirectoryIndex = {
  readonly version: number;
  readonly approved: ReadonlyMap<string, DirectoryEntry>;
  /** Distinct words, sorted, so the words starting with a prefix are one contiguous run. */
  readonly words: readonly string[];
  readonly postings: ReadonlyMap<string, readonly Posting[]>;
  readonly byCity: ReadonlyMap<string, readonly DirectoryEntry[]>;
  readonly bySpecialty: ReadonlyMap<string, readonly DirectoryEntry[]>;
  readonly ids: AgentIdLookup<Agent>;
  /** Agents' ids by the points of the places they serve (their city when they list none), for "near a place". */
  readonly near: PointIndex<string>;
};

/** The directory's index of the store's agents, kept between requests: one per process, in `Services`. */
export type DirectoryIndexCache = {
  /**
   * The index for the store's current agents. After writes that left every searched
   * field as it was (a bio, a photo, a phone number, a password), the changed agents'
   * entries are swapped in place; any other change to the agents tab rebuilds it.
   */
  current(): DirectoryIndex;
};

export function createDirectoryIndexCache(store: Store): DirectoryIndexCache {
  let built: DirectoryIndex | undefined;
  return {
    current() {
      const version = store.agents.version();
      if (built?.version === version) return built;
      const changed = built ? store.agents.changedSince(built.version) : null;
      built =
        (built && changed && swapEntries(built, changed, store, version)) ||
        buildDirectoryIndex(store.agents.by("status", "approved"), version);
      return built;
    },
  };
}

/** The fields the index files an agent under or orders it by: a change to any of them needs a rebuild. */
function sameIndexedFields(a: Agent, b: Agent): boolean {
  return (
    a.fullName === b.fullName &&
    a.email === b.email &&
    a.status === b.status &&
    a.state === b.state &&
    a.city === b.city &&
    a.brokerage === b.brokerage &&
    a.specialties.join("\u0000") === b.specialties.join("\u0000") &&
    a.placesServed.join("\u0000") === b.placesServed.join("\u0000")
  );
}

function replaceIn<T>(list: T[] | undefined, matches: (item: T) => boolean, next: (item: T) => T): void {
  if (!list) return;
  const i = list.findIndex(matches);
  if (i >= 0) list[i] = next(list[i]!);
}

/**
 * The index with the changed agents' entries replaced, or null when a change touched an
 * indexed field or an approval (then it is rebuilt). Changes the index's lists in place:
 * the index is only read synchronously, and the cached one is the only one kept.
 */
function swapEntries(index: DirectoryIndex, ids: readonly string[], store: Store, version: number): DirectoryIndex | null {
  const swaps: { previous: DirectoryEntry; next: DirectoryEntry }[] = [];
  for (const id of ids) {
    const previous = index.approved.get(id);
    const agent = store.agents.get(id);
    const approved = agent?.status === "approved";
    if (!previous && !approved) continue;
    if (!previous || !agent || !sameIndexedFields(previous.agent, agent)) return null;
    swaps.push({ previous, next: { ...previous, agent } });
  }
  const approved = index.approved as Map<string, DirectoryEntry>;
  const postings = index.postings as Map<string, Posting[]>;
  for (const { previous, next } of swaps) {
    approved.set(next.agent.id, next);
    const { agent } = previous;
    const words = new Set([agent.fullName, agent.city, agent.brokerage, ...agent.specialties].flatMap((text) => searchTokens(text)));
    for (const word of words) {
      const list = postings.get(word);
      if (!list) continue;
      for (let i = 0; i < list.length; i += 1) if (list[i]!.entry === previous) list[i] = { entry: next, field: list[i]!.field };
    }
    replaceIn(
      index.byCity.get(previous.foldedCity) as DirectoryEntry[] | undefined,
      (entry) => entry === previous,
      () => next,
    );
    for (const specialty of new Set(previous.foldedSpecialties)) {
      replaceIn(
        index.bySpecialty.get(specialty) as DirectoryEntry[] | undefined,
        (entry) => entry === previous,
        () => next,
      );
    }
    index.ids.replace(previous.agent, next.agent);
  }
  return { ...index, version };
}

function buildDirectoryIndex(approvedAgents: readonly Agent[], version: number): DirectoryIndex {
  const sorted = approvedAgents
    .map((agent) => ({ agent, key: nameSortKey(agent.fullName) }))
    .sort((a, b) => compareText(a.key, b.key) || compareText(a.agent.id, b.agent.id))
    .map(({ agent }) => agent);
  const approved = new Map<string, DirectoryEntry>();
  const postings = new Map<string, Posting[]>();
  const byCity = new Map<string, DirectoryEntry[]>();
  const bySpecialty = new Map<string, DirectoryEntry[]>();

  sorted.forEach((agent, order) => {
    const entry: DirectoryEntry = {
      agent,
      order,
      foldedCity: foldText(agent.city.trim()),
      foldedSpecialties: agent.specialties.map((specialty) => foldText(specialty)),
    };
    approved.set(agent.id, entry);
    addWords(postings, entry, "name", agent.fullName);
    addWords(postings, entry, "city", agent.city);
    addWords(postings, entry, "brokerage", agent.brokerage);
    for (const specialty of agent.specialties) addWords(postings, entry, "specialty", specialty);
    if (entry.foldedCity) push(byCity, entry.foldedCity, entry);
    for (const specialty of new Set(entry.foldedSpecialties)) push(bySpecialty, specialty, entry);
  });

  return {
    version,
    approved,
    words: [...postings.keys()].sort(),
    postings,
    byCity,
    bySpecialty,
    ids: new AgentIdLookup(sorted, (agent) => [agent.id, agent.email]),
    near: createPointIndex(
      sorted.map((agent) => agent.id),
      (id) => agentPlaces(approved.get(id)!.agent),
    ),
  };
}

/** Code-unit order: the keys are folded to plain lower case, where it reads as alphabetical. */
function compareText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

function push<K, V>(map: Map<K, V[]>, key: K, value: V): void {
  const list = map.get(key);
  if (list) list.push(value);
  else map.set(key, [value]);
}

function addWords(postings: Map<string, Posting[]>, entry: DirectoryEntry, field: SearchField, text: string): void {
  for (const word of new Set(searchTokens(text))) push(postings, word, { entry, field });
}

/** The first position in the sorted words at or after `prefix`. */
function firstWordFrom(words: readonly string[], prefix: string): number {
  let low = 0;
  let high = words.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if (words[middle]! < prefix) low = middle + 1;
    else high = middle;
  }
  return low;
}

/** For one query word: each agent with a word starting with it, and the cost of its best match. */
function matchesOfWord(index: DirectoryIndex, queryWord: string, queryWordCount: number): Map<DirectoryEntry, number> {
  const found = new Map<DirectoryEntry, number>();
  for (let i = firstWordFrom(index.words, queryWord); i < index.words.length; i += 1) {
    const word = index.words[i]!;
    if (!word.startsWith(queryWord)) break;
    const exact = word === queryWord;
    for (const { entry, field } of index.postings.get(word) ?? []) {
      const cost = matchCost(field, exact, queryWordCount);
      const best = found.get(entry);
      if (best === undefined || cost < best) found.set(entry, cost);
    }
  }
  return found;
}

/**
 * The agents matching every word of the query, each with its rank (lower first, see
 * `matchCost`). Starts from the rarest word so the intersection stays small.
 */
export function textMatches(index: DirectoryIndex, query: string): Map<DirectoryEntry, number> {
  const queryWords = [...new Set(searchTokens(query))];
  const perWord = queryWords.map((word) => matchesOfWord(index, word, queryWords.length)).sort((a, b) => a.size - b.size);
  const [rarest, ...others] = perWord;
  if (!rarest) return new Map();
  if (others.length === 0) return rarest;
  const ranks = new Map<DirectoryEntry, number>();
  for (const [entry, cost] of rarest) {
    let rank = cost;
    for (const matches of others) {
      const other = matches.get(entry);
      if (other === undefined) {
        rank = Number.NaN;
        break;
      }
      rank += other;
    }
    if (!Number.isNaN(rank)) ranks.set(entry, rank);
  }
  return ranks;
}
