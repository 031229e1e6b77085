import { describe, expect, it } from "vitest";
import {
  compareScores,
  foldText,
  isBetterMatch,
  nameSortKey,
  pageLinkNumbers,
  pageWindow,
  parsePageNumber,
  searchTokens,
  type WordMatch,
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

const name = (exact = true): WordMatch => ({ field: "name", exact });
const city = (exact = true): WordMatch => ({ field: "city", exact });
const brokerage = (exact = true): WordMatch => ({ field: "brokerage", exact });
const specialty = (exact = true): WordMatch => ({ field: "specialty", exact });

describe("ranking", () => {
  it("prefers the name over city, brokerage and specialty, and a whole word over a prefix", () => {
    expect(isBetterMatch(name(false), city())).toBe(true);
    expect(isBetterMatch(city(), name(false))).toBe(false);
    expect(isBetterMatch(brokerage(), specialty())).toBe(true);
    expect(isBetterMatch(city(), city(false))).toBe(true);
    expect(isBetterMatch(city(false), city())).toBe(false);
    expect(isBetterMatch(specialty(false), undefined)).toBe(true);
  });

  it("puts agents found by name before agents found by city or brokerage", () => {
    const byName = [name(false)];
    const byCity = [city()];
    const byBrokerage = [brokerage()];
    const bySpecialty = [specialty()];
    const sorted = [bySpecialty, byBrokerage, byCity, byName].sort(compareScores);
    expect(sorted).toEqual([byName, byCity, byBrokerage, bySpecialty]);
  });

  it("counts the words found in the name first, then the fields, then whole words", () => {
    expect(compareScores([name(false), specialty()], [city(), city()])).toBeLessThan(0);
    expect(compareScores([name(), city()], [name(), brokerage()])).toBeLessThan(0);
    expect(compareScores([city(), city()], [city(), city(false)])).toBeLessThan(0);
    expect(compareScores([name()], [name()])).toBe(0);
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
