/**
 * How the directory's text search reads words and ranks agents (docs/product.md#profiles-and-directories): accents and
 * case are ignored, every word of the query must match the start of a word the agent
 * is known by, and agents found by their name come before those found by their city,
 * brokerage or specialties.
 */
import { countOf } from "./count-labels";

/** Lower-case without accents: "José Núñez" → "jose nunez". */
export function foldText(text: string): string {
  return text
    .normalize("NFD")
    .replace(/\p{M}+/gu, "")
    .toLowerCase();
}

/** The words of a text, folded: letters and digits, everything else separates ("Farm and Ranch" → farm, and, ranch). */
export function searchTokens(text: string): string[] {
  return foldText(text).match(/[\p{L}\p{N}]+/gu) ?? [];
}

/** Where a word was found, best first. */
export type SearchField = "name" | "city" | "brokerage" | "specialty";

const FIELD_RANK: Record<SearchField, number> = { name: 0, city: 1, brokerage: 2, specialty: 3 };
const WORST_FIELD_RANK = FIELD_RANK.specialty;

/**
 * What one query word's match costs an agent's rank; an agent's rank for a query is
 * the sum over the query's words of its cheapest match, and lower ranks come first.
 * The costs are weighted so the sum orders agents by, in turn: more query words found
 * in the name; better fields overall (city, then brokerage, then specialty); more
 * whole-word matches than word starts. The cheapest match of a word is thus the one
 * in the best field, a whole word before a prefix.
 */
export function matchCost(field: SearchField, exact: boolean, queryWordCount: number): number {
  const exactWeight = 1;
  const fieldWeight = queryWordCount + 1;
  const outsideNameWeight = (queryWordCount * WORST_FIELD_RANK + 1) * fieldWeight;
  return (field === "name" ? 0 : outsideNameWeight) + FIELD_RANK[field] * fieldWeight + (exact ? 0 : exactWeight);
}

/** Reads a sort key for names: folded, so "Álvarez" sorts with "Alvarez". */
export function nameSortKey(fullName: string): string {
  return foldText(fullName.trim());
}

// ---------------------------------------------------------------------------
// Paging

const DIRECTORY_PAGE_SIZE = 24;

/** The `page` query parameter: a whole number from 1; anything else is the first page. */
export function parsePageNumber(value: string | null): number {
  if (value === null || !/^\d{1,6}$/.test(value.trim())) return 1;
  return Math.max(1, Number.parseInt(value, 10));
}

export type PageWindow = {
  page: number;
  pageCount: number;
  /** Index of the first result on the page, and one past the last. */
  start: number;
  end: number;
};

/** The page to show of `total` results; a page past the end shows the last one. */
export function pageWindow(total: number, requestedPage: number, pageSize = DIRECTORY_PAGE_SIZE): PageWindow {
  const pageCount = Math.max(1, Math.ceil(total / pageSize));
  const page = Math.min(Math.max(1, requestedPage), pageCount);
  const start = (page - 1) * pageSize;
  return { page, pageCount, start, end: Math.min(total, start + pageSize) };
}

/**
 * The first `count` items in `compare` order, sorted, without sorting them all: a page
 * near the start of many matches costs one pass over the matches, not a sort of them.
 */
export function firstInOrder<T>(items: readonly T[], count: number, compare: (a: T, b: T) => number): T[] {
  if (count <= 0) return [];
  // Past a quarter of the items, keeping a sorted head costs more than sorting everything.
  if (count * 4 >= items.length) return [...items].sort(compare).slice(0, count);
  const head: T[] = [];
  for (const item of items) {
    if (head.length === count && compare(item, head[count - 1]!) >= 0) continue;
    let low = 0;
    let high = head.length;
    while (low < high) {
      const middle = (low + high) >>> 1;
      if (compare(head[middle]!, item) <= 0) low = middle + 1;
      else high = middle;
    }
    head.splice(low, 0, item);
    if (head.length > count) head.pop();
  }
  return head;
}

/**
 * The directory's count line (docs/product.md#profiles-and-directories). On a single page it is
 * "Showing X of Y"; over several pages it names the range on screen, since
 * "Showing 94 of 94" above 24 cards would not be true of what is shown.
 */
export function resultsCountText(
  results: { start: number; end: number; matches: number; total: number; pageCount: number },
  noun: string,
): string {
  if (results.pageCount <= 1) return `Showing ${results.matches} of ${countOf(results.total, noun)}`;
  return `Showing ${results.start + 1}-${results.end} of ${countOf(results.matches, noun)}`;
}

/** The page numbers to link: the first, the last and two either side of the current one; null marks a gap. */
export function pageLinkNumbers(page: number, pageCount: number): (number | null)[] {
  const shown = [...new Set([1, page - 2, page - 1, page, page + 1, page + 2, pageCount])]
    .filter((n) => n >= 1 && n <= pageCount)
    .sort((a, b) => a - b);
  return shown.flatMap((n, i) => {
    const previous = shown[i - 1];
    if (previous === undefined || n === previous + 1) return [n];
    // A gap of exactly one page is shown as that page rather than an ellipsis.
    return n === previous + 2 ? [previous + 1, n] : [null, n];
  });
}
