import type { PlaceMatch } from "~/domain/places/gazetteer";
import { didYouMean, readSuggestion, USE_SUGGESTION } from "~/domain/places/suggestion";
import { placeLabel } from "~/domain/places/place-names";
import { matchTypedPlace } from "./places.server";

/** What the boxes of a place list came to: the places as stored ("Tyler, TX"), or a message per box. */
export type TypedPlacesCheck = { places: string[]; fieldErrors: Record<string, string[]> };

/** What to tell someone whose typed place is not on the list: "Did you mean Tyler, TX?", or that nothing is like it. */
export function unmatchedPlaceMessage(text: string, match: Exclude<PlaceMatch, { kind: "found" }>): string {
  return match.kind === "guess"
    ? didYouMean(placeLabel(match.place))
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

/** A form's fields as sent: a post's FormData or a search's URLSearchParams. */
type SentFields = Pick<FormData, "getAll" | "delete" | "append"> | Pick<URLSearchParams, "getAll" | "delete" | "append">;

/**
 * Puts the place of a clicked "Use ..." button (`useSuggestion`) in the box it names and
 * takes the button's value out, every other input left as sent: `placesServed[2]` is the
 * third filled box of the list (as `checkTypedPlaces` counts them), `near` the one box of
 * that name. A box that no longer holds the text the place was suggested for keeps what
 * was typed since: Enter in a form sends its first button, which may be this one.
 * Answers whether a suggestion was used.
 */
export function applyPlaceSuggestion(fields: SentFields): boolean {
  const chosen = readSuggestion(fields.getAll(USE_SUGGESTION)[0]);
  fields.delete(USE_SUGGESTION);
  if (!chosen) return false;
  const listed = /^(.+)\[(\d+)\]$/.exec(chosen.fieldName);
  const name = listed ? listed[1]! : chosen.fieldName;
  const wanted = listed ? Number(listed[2]) : 0;
  const values = fields.getAll(name).map((value) => (typeof value === "string" ? value : ""));
  let filled = -1;
  let used = false;
  const replaced = values.map((value) => {
    if (value.trim() === "") return value;
    filled += 1;
    if (filled !== wanted || value.trim() !== chosen.typed.trim()) return value;
    used = true;
    return chosen.place;
  });
  fields.delete(name);
  for (const value of replaced) fields.append(name, value);
  return used;
}
