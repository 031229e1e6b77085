import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  firstInOrder,
  foldText,
  matchCost,
  nameSortKey,
  resultsCountText,
  pageLinkNumbers,
  pageWindow,
  parsePageNumber,
  searchTokens,
  type SearchField,
} from "../../app/domain/directory-search";

describe("accent and case folding", () => {
  it("drops accents and case", () => {
    expect(foldText("José NÚÑEZ")).toBe("jose nunez");
    expect(foldText("Ångström Çedille")).toBe("angstrom cedille");
    expect(nameSortKey(" Álvarez ")).toBe("alvarez");
  });

  it("splits text into folded words of letters and digits", () => {
    expect(searchTokens("Recreational (RV and Glamping)")).toEqual(["recreational", "rv", "and", "glamping"]);
    expect(searchTokens("First-Time Buyers")).toEqual(["first", "time", "buyers"]);
    expect(searchTokens("  ")).toEqual([]);
    expect(searchTokens("Zoë O'Brien 2")).toEqual(["zoe", "o", "brien", "2"]);
  });
});

type Match = [SearchField, boolean];
const name = (exact = true): Match => ["name", exact];
const city = (exact = true): Match => ["city", exact];
const brokerage = (exact = true): Match => ["brokerage", exact];
const specialty = (exact = true): Match => ["specialty", exact];

/** An agent's rank for a query: the cost of its best match for each query word, summed. */
const rank = (...matches: Match[]) => matches.reduce((sum, [field, exact]) => sum + matchCost(field, exact, matches.length), 0);

describe("ranking", () => {
  it("makes the best match of a word the one in the best field, a whole word before a prefix", () => {
    expect(matchCost("name", false, 1)).toBeLessThan(matchCost("city", true, 1));
    expect(matchCost("city", true, 1)).toBeLessThan(matchCost("city", false, 1));
    expect(matchCost("city", false, 1)).toBeLessThan(matchCost("brokerage", true, 1));
    expect(matchCost("brokerage", false, 3)).toBeLessThan(matchCost("specialty", true, 3));
  });

  it("puts agents found by name before agents found by city, brokerage or specialty", () => {
    const ranked = [rank(specialty()), rank(brokerage()), rank(city()), rank(name(false))].sort((a, b) => a - b);
    expect(ranked).toEqual([rank(name(false)), rank(city()), rank(brokerage()), rank(specialty())]);
  });

  it("counts the words found in the name first, then the fields, then whole words", () => {
    expect(rank(name(false), specialty(false))).toBeLessThan(rank(city(), city()));
    expect(rank(name(false), name(false))).toBeLessThan(rank(name(), specialty()));
    expect(rank(name(), city())).toBeLessThan(rank(name(), brokerage()));
    expect(rank(city(false), city(false))).toBeLessThan(rank(brokerage(), brokerage()));
    expect(rank(city(false), specialty(false), brokerage(false))).toBeLessThan(rank(specialty(), specialty(), specialty()));
    expect(rank(city(), city())).toBeLessThan(rank(city(), city(false)));
    expect(rank(name(), city(false))).toBe(rank(name(false), city()));
  });
});

describe("paging", () => {
  it("reads the page parameter as a whole number from 1", () => {
    expect(parsePageNumber(null)).toBe(1);
    expect(parsePageNumber("3")).toBe(3);
    expect(parsePageNumber("0")).toBe(1);
    expect(parsePageNumber("-2")).toBe(1);
    expect(parsePageNumber("2.5")).toBe(1);
    expect(parsePageNumber("abc")).toBe(1);
    expect(parsePageNumber("99999999999")).toBe(1);
  });

  it("cuts results into pages of 24 and shows the last page for a page past the end", () => {
    expect(pageWindow(0, 1)).toEqual({ page: 1, pageCount: 1, start: 0, end: 0 });
    expect(pageWindow(50, 1)).toEqual({ page: 1, pageCount: 3, start: 0, end: 24 });
    expect(pageWindow(50, 3)).toEqual({ page: 3, pageCount: 3, start: 48, end: 50 });
    expect(pageWindow(50, 9)).toEqual({ page: 3, pageCount: 3, start: 48, end: 50 });
    expect(pageWindow(48, 2)).toEqual({ page: 2, pageCount: 2, start: 24, end: 48 });
  });

  it("links the first, the last and the pages near the current one", () => {
    expect(pageLinkNumbers(1, 1)).toEqual([1]);
    expect(pageLinkNumbers(1, 4)).toEqual([1, 2, 3, 4]);
    expect(pageLinkNumbers(1, 10)).toEqual([1, 2, 3, null, 10]);
    expect(pageLinkNumbers(6, 12)).toEqual([1, null, 4, 5, 6, 7, 8, null, 12]);
    expect(pageLinkNumbers(4, 10)).toEqual([1, 2, 3, 4, 5, 6, null, 10]);
    expect(pageLinkNumbers(10, 10)).toEqual([1, null, 8, 9, 10]);
  });
});

describe("the first matches in order", () => {
  it("are the first items of a full, stable sort, for any list and any count", () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 0, max: 20 }), { maxLength: 300 }), fc.nat(320), (values, count) => {
        const items = values.map((value, position) => ({ value, position }));
        const byValue = (a: (typeof items)[number], b: (typeof items)[number]) => a.value - b.value;
        expect(firstInOrder(items, count, byValue)).toEqual([...items].sort(byValue).slice(0, count));
      }),
    );
  });
});

describe("resultsCountText", () => {
  it("is the product's 'Showing X of Y' on one page", () => {
    expect(resultsCountText({ start: 0, end: 5, matches: 5, total: 94, pageCount: 1 }, "agent")).toBe("Showing 5 of 94 agents");
  });

  it("names the range on screen over several pages", () => {
    expect(resultsCountText({ start: 0, end: 24, matches: 94, total: 94, pageCount: 4 }, "agent")).toBe("Showing 1-24 of 94 agents");
    expect(resultsCountText({ start: 72, end: 94, matches: 94, total: 94, pageCount: 4 }, "verified agent")).toBe(
      "Showing 73-94 of 94 verified agents",
    );
  });
});
