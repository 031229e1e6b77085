import { describe, expect, it } from "vitest";
import { createGazetteer } from "~/domain/places/gazetteer";
import { placeKey, placeLabel, readTypedPlace } from "~/domain/places/place-names";
import { spellingDistance } from "~/domain/places/spelling";
import { findPlace, matchTypedPlace, PLACES, resolveRequestPlace, suggestPlaces } from "~/server/places/places.server";

const labels = (places: readonly { name: string; state: "TX" | "OK" }[]) => places.map(placeLabel);

describe("the place list", () => {
  it("holds small towns of both states with their points, each name once per state", () => {
    for (const [name, state] of [
      ["Lindale", "TX"],
      ["Big Lake", "TX"],
      ["Mount Enterprise", "TX"],
      ["Okemah", "OK"],
      ["Moore", "OK"],
      ["McAlester", "OK"],
    ] as const) {
      const place = findPlace(name, state);
      expect(place, `${name}, ${state}`).toBeDefined();
      expect(place!.lat).toBeGreaterThan(25.8);
      expect(place!.lat).toBeLessThan(37.1);
    }
    expect(PLACES.length).toBeGreaterThan(2_000);
    const keys = PLACES.map((place) => `${place.state}:${placeKey(place.name)}`);
    expect(new Set(keys).size).toBe(keys.length);
    expect(PLACES.every((place) => place.state === "TX" || place.state === "OK")).toBe(true);
  });

  it("leaves out company mailboxes that have a ZIP code of their own", () => {
    expect(findPlace("Shell Oil Box 150", "OK")).toBeUndefined();
    expect(findPlace("Texas Dept Of Correction", "TX")).toBeUndefined();
  });
});

describe("typed place names", () => {
  it("are compared without case, accents, punctuation or short forms", () => {
    expect(placeKey("St. Jo")).toBe(placeKey("Saint Jo"));
    expect(placeKey("Ft Worth")).toBe(placeKey("fort worth"));
    expect(placeKey("Mt. Pleasant")).toBe(placeKey("Mount Pleasant"));
    expect(placeKey("Mc Kinney")).toBe(placeKey("McKinney"));
    expect(placeKey("Refugio")).toBe(placeKey("Refúgio"));
    expect(placeKey("Lindale")).not.toBe(placeKey("Linden"));
  });

  it("read a state written after them, by code or by name", () => {
    expect(readTypedPlace("Tyler, TX")).toEqual({ words: ["tyler"], state: "TX" });
    expect(readTypedPlace("tyler texas")).toEqual({ words: ["tyler"], state: "TX" });
    expect(readTypedPlace("Broken Bow OK")).toEqual({ words: ["broken", "bow"], state: "OK" });
    expect(readTypedPlace("Okemah, Oklahoma")).toEqual({ words: ["okemah"], state: "OK" });
    expect(readTypedPlace("Texas City")).toEqual({ words: ["texas", "city"] });
  });

  it("count slips of one letter, up to a bound", () => {
    expect(spellingDistance("tyler", "tyler", 2)).toBe(0);
    expect(spellingDistance("tylr", "tyler", 2)).toBe(1);
    expect(spellingDistance("tlyer", "tyler", 2)).toBe(1);
    expect(spellingDistance("longveiw", "longview", 2)).toBe(1);
    expect(spellingDistance("austin", "tyler", 2)).toBe(3);
  });
});

describe("finding a place", () => {
  it("finds it exactly, with or without the state, short forms written out", () => {
    expect(placeLabel(findPlace("tyler")!)).toBe("Tyler, TX");
    expect(placeLabel(findPlace("Ft. Worth, Texas")!)).toBe("Fort Worth, TX");
    expect(placeLabel(findPlace("St Jo", "TX")!)).toBe("Saint Jo, TX");
    expect(findPlace("Tyler", "OK")).toBeUndefined();
    expect(findPlace("Tyle")).toBeUndefined();
    expect(findPlace("   ")).toBeUndefined();
  });

  it("takes the state written in the text over the one given", () => {
    expect(placeLabel(findPlace("Okemah, OK", "TX")!)).toBe("Okemah, OK");
  });
});

describe("suggestions", () => {
  it("start with the places whose names begin with the text, largest first", () => {
    const suggested = suggestPlaces("Ty", "TX", 3);
    expect(labels(suggested)[0]).toBe("Tyler, TX");
    expect(suggested).toHaveLength(3);
    expect(labels(suggestPlaces("lind", undefined, 8))).toContain("Lindale, TX");
    expect(labels(suggestPlaces("okem"))[0]).toBe("Okemah, OK");
  });

  it("go on with names spelled close to the text", () => {
    expect(labels(suggestPlaces("Tylor", "TX", 5))).toContain("Tyler, TX");
    expect(labels(suggestPlaces("Longveiw"))).toContain("Longview, TX");
    expect(suggestPlaces("Xqzzy")).toEqual([]);
    expect(suggestPlaces("")).toEqual([]);
  });

  it("stay within the state asked for", () => {
    expect(suggestPlaces("Ok", "OK").every((place) => place.state === "OK")).toBe(true);
  });
});

describe("a place typed into a form", () => {
  it("is found when exact or one slip from a single place", () => {
    expect(matchTypedPlace("Lindale, TX")).toMatchObject({ kind: "found", place: { name: "Lindale" } });
    expect(matchTypedPlace("Okemha")).toMatchObject({ kind: "found", place: { name: "Okemah", state: "OK" } });
  });

  it("is a guess when several places are as close, or it only begins a name", () => {
    const tyl = matchTypedPlace("Tyl");
    expect(tyl).toMatchObject({ kind: "guess", place: { name: "Tyler", state: "TX" } });
  });

  it("is unknown when nothing comes close", () => {
    expect(matchTypedPlace("Atlantis City")).toEqual({ kind: "unknown" });
  });
});

describe("a request's place", () => {
  it("is its city, or the place named in its free text, in its state", () => {
    expect(placeLabel(resolveRequestPlace("Tyler", "TX")!)).toBe("Tyler, TX");
    expect(placeLabel(resolveRequestPlace("Tyler area", "TX")!)).toBe("Tyler, TX");
    expect(placeLabel(resolveRequestPlace("north of Tyler", "TX")!)).toBe("Tyler, TX");
    expect(placeLabel(resolveRequestPlace("East Tyler / Lindale", "TX")!)).toBe("Tyler, TX");
    expect(placeLabel(resolveRequestPlace("near Lake Dallas", "TX")!)).toBe("Lake Dallas, TX");
    expect(placeLabel(resolveRequestPlace("Ft Worth west side", "TX")!)).toBe("Fort Worth, TX");
  });

  it("is unknown when no place is named, or only in another state: such requests are matched by state", () => {
    expect(resolveRequestPlace("the lake house", "TX")).toBeUndefined();
    expect(resolveRequestPlace("Tyler", "OK")).toBeUndefined();
    expect(resolveRequestPlace("Tyler", "LA")).toBeUndefined();
    expect(resolveRequestPlace("", "TX")).toBeUndefined();
  });

  it("is the same from a small list built by hand", () => {
    const gazetteer = createGazetteer([
      { name: "Tyler", state: "TX", lat: 32.35, lon: -95.3, population: 100 },
      { name: "Tyler", state: "OK", lat: 35.0, lon: -97.0 },
    ]);
    expect(gazetteer.findPlace("tyler")?.state).toBe("TX");
    expect(gazetteer.resolveRequestPlace("south Tyler", "OK")?.state).toBe("OK");
  });
});
