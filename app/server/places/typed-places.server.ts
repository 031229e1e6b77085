import { placeLabel } from "~/domain/places/place-names";
import { matchTypedPlace } from "./places.server";

/** What the boxes of a place list came to: the places as stored ("Tyler, TX"), or a message per box. */
export type TypedPlacesCheck = { places: string[]; fieldErrors: Record<string, string[]> };

const notFoundMessage = (text: string) => `We could not find "${text}" in Texas or Oklahoma. Please check the spelling.`;
const guessMessage = (label: string) => `Did you mean ${label}?`;

/** The boxes as posted, blanks kept, so each message lands beside the box it is about. */
function postedBoxes(posted: unknown): string[] {
  const boxes = Array.isArray(posted) ? posted : [posted];
  return boxes.map((box) => (typeof box === "string" ? box.trim() : ""));
}

/**
 * Matches each typed place against the place list: an exact name or a single slip is
 * taken in its listed spelling; anything else gets "Did you mean …?" or "We could not
 * find …" beside its box (`name[index]`, the form's list field). The same place twice is kept once.
 */
export function checkTypedPlaces(name: string, posted: unknown): TypedPlacesCheck {
  const places: string[] = [];
  const fieldErrors: Record<string, string[]> = {};
  postedBoxes(posted).forEach((text, index) => {
    if (text === "") return;
    const match = matchTypedPlace(text);
    if (match.kind === "found") {
      const label = placeLabel(match.place);
      if (!places.includes(label)) places.push(label);
    } else {
      fieldErrors[`${name}[${index}]`] = [match.kind === "guess" ? guessMessage(placeLabel(match.place)) : notFoundMessage(text)];
    }
  });
  return { places, fieldErrors };
}
