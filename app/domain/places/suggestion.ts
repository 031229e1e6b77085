/**
 * "Did you mean Alpine, TX?" as one click: the message beside a place box that is not on
 * the list, and the submit button under it that puts the suggestion in the box and sends
 * the form again, with or without JavaScript. The button posts `useSuggestion`: the box's
 * field name, the text it was suggested for and the place; the page's action or loader
 * puts the place in that box, leaving every other input as it was sent.
 */

export const USE_SUGGESTION = "useSuggestion";

const ASKED = /^Did you mean (.+)\?$/;

export function didYouMean(label: string): string {
  return `Did you mean ${label}?`;
}

/** The place a field's message suggests, when it is a "Did you mean ...?". */
export function suggestedPlace(message: string | undefined): string | undefined {
  return message?.match(ASKED)?.[1];
}

/** A suggestion to put in a box, made for the text the box held. */
export type PlaceSuggestion = { fieldName: string; typed: string; place: string };

/** The button's value: which box takes which place, and the text it was suggested for. */
export function suggestionValue(suggestion: PlaceSuggestion): string {
  return JSON.stringify([suggestion.fieldName, suggestion.typed, suggestion.place]);
}

/** The suggestion a `useSuggestion` value names; undefined when there is none or it is not one. */
export function readSuggestion(raw: unknown): PlaceSuggestion | undefined {
  if (typeof raw !== "string") return undefined;
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch {
    return undefined;
  }
  if (!Array.isArray(parsed) || parsed.length !== 3 || !parsed.every((part) => typeof part === "string")) return undefined;
  const [fieldName, typed, place] = parsed as [string, string, string];
  return fieldName === "" || place.trim() === "" ? undefined : { fieldName, typed, place: place.trim() };
}
