import type { PlaceMatch } from "~/domain/places/gazetteer";
import { placeLabel } from "~/domain/places/place-names";
import { matchTypedPlace } from "./places.server";

/** What the boxes of a place list came to: the places as stored ("Tyler, TX"), or a message per box. */
export type TypedPlacesCheck = { places: string[]; fieldErrors: Record<string, string[]> };

/** What to tell someone whose typed place is not on the list: "Did you mean Tyler, TX?", or that nothing is like it. */
export function unmatchedPlaceMessage(text: string, match: Exclude<PlaceMatch, { kind: "found" }>): string {
  return match.kind === "guess"
    ? `Did you mean ${placeLabel(match.place)}?`
    : `We could not find "${text}" in Texas or Oklahoma. Please check the spelling.`;
}

/**
 * The filled boxes as posted, in order. The form comes back with blanks left out (as its
 * kept input holds only texts), so a message's index is counted among the filled boxes.
 */
function filledBoxes(posted: unknown): string[] {
  const boxes = Array.isArray(posted) ? posted : [posted];
  return boxes.filter((box): box is string => typeof box === "string" && box.trim() !== "").map((box) => box.trim());
}

/**
 * Matches each typed place against the place list: an exact name or a single slip is
 * taken in its listed spelling; anything else gets "Did you mean …?" or "We could not
 * find …" beside its box (`name[index]`, the form's list field, counted among the filled boxes). The same place twice is kept once.
 */
export function checkTypedPlaces(name: string, posted: unknown): TypedPlacesCheck {
  const places: string[] = [];
  const fieldErrors: Record<string, string[]> = {};
  filledBoxes(posted).forEach((text, index) => {
    const match = matchTypedPlace(text);
    if (match.kind === "found") {
      const label = placeLabel(match.place);
      if (!places.includes(label)) places.push(label);
    } else {
      fieldErrors[`${name}[${index}]`] = [unmatchedPlaceMessage(text, match)];
    }
  });
  return { places, fieldErrors };
}
