import { describe, expect, it } from "vitest";
import { didYouMean, readSuggestion, suggestedPlace, suggestionValue } from "../../app/domain/places/suggestion";
import { applyPlaceSuggestion } from "../../app/server/places/typed-places.server";

const use = (fieldName: string, typed: string, place: string) => suggestionValue({ fieldName, typed, place });

describe("Did you mean ...? as one click", () => {
  it("reads the place a message suggests, and nothing from any other message", () => {
    expect(suggestedPlace(didYouMean("Alpine, TX"))).toBe("Alpine, TX");
    expect(suggestedPlace('We could not find "Xyz" in Texas or Oklahoma. Please check the spelling.')).toBeUndefined();
    expect(suggestedPlace(undefined)).toBeUndefined();
  });

  it("reads back the button's value, and refuses one it did not make", () => {
    expect(readSuggestion(use("near", "Alpien", "Alpine, TX"))).toEqual({ fieldName: "near", typed: "Alpien", place: "Alpine, TX" });
    for (const raw of [undefined, "", "Alpine, TX", "[1,2,3]", '["near","x",""]', "{"]) expect(readSuggestion(raw)).toBeUndefined();
  });

  it("puts the place in the filled box it names, the other boxes and fields as sent", () => {
    const form = new FormData();
    form.append("fullName", "Ann Archer");
    for (const place of ["Tyler, TX", "", "Alpien", "Atlantis"]) form.append("placesServed", place);
    form.append("useSuggestion", use("placesServed[1]", "Alpien", "Alpine, TX"));
    expect(applyPlaceSuggestion(form)).toBe(true);
    expect(form.getAll("placesServed")).toEqual(["Tyler, TX", "", "Alpine, TX", "Atlantis"]);
    expect(form.get("fullName")).toBe("Ann Archer");
    expect(form.has("useSuggestion")).toBe(false);
  });

  it("replaces a search's one box, the other filters kept", () => {
    const search = new URLSearchParams({ near: "Alpien", miles: "50", useSuggestion: use("near", "Alpien", "Alpine, TX") });
    expect(applyPlaceSuggestion(search)).toBe(true);
    expect(Object.fromEntries(search)).toEqual({ near: "Alpine, TX", miles: "50" });
  });

  it("keeps what was typed since the suggestion was made: Enter in the box sends the form's first button", () => {
    const search = new URLSearchParams({ near: "Marfa", useSuggestion: use("near", "Alpien", "Alpine, TX") });
    expect(applyPlaceSuggestion(search)).toBe(false);
    expect(Object.fromEntries(search)).toEqual({ near: "Marfa" });
    expect(applyPlaceSuggestion(new URLSearchParams({ near: "Tyler" }))).toBe(false);
  });
});
