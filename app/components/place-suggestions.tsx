import { useFetcher } from "@remix-run/react";
import { useEffect, useRef } from "react";

/** A suggested place: its name and its state's code. */
export type SuggestedPlace = { name: string; state: string };
/** What `/places?q=` answers: places whose names start with the text, largest first, then close spellings. */
export type PlaceSuggestionsData = { places: SuggestedPlace[] };

/** "Tyler, TX", as a place box takes it. */
export const placeWithState = (place: SuggestedPlace) => `${place.name}, ${place.state}`;

/** Fewer letters than this ask nothing: "T" would list every town from Tyler to Tulsa. */
const MIN_LETTERS = 2;
const TYPING_PAUSE_MS = 150;

/**
 * Suggestions for place boxes, in a `<datalist>` the boxes name in their `list` attribute:
 * the browser's own list, which works with the keyboard, a screen reader and a phone's
 * keyboard alike. Without JavaScript the list stays empty and the server matches what was typed.
 */
export function usePlaceSuggestions(listId: string, optionText: (place: SuggestedPlace) => string = placeWithState) {
  const fetcher = useFetcher<PlaceSuggestionsData>();
  const timer = useRef<ReturnType<typeof setTimeout>>(undefined);
  const { load } = fetcher;
  useEffect(() => () => clearTimeout(timer.current), []);

  function suggest(text: string, state?: string) {
    clearTimeout(timer.current);
    const q = text.trim();
    if (q.length < MIN_LETTERS) return;
    const params = new URLSearchParams({ q, ...(state ? { state } : {}) });
    timer.current = setTimeout(() => void load(`/places?${params}`), TYPING_PAUSE_MS);
  }

  const datalist = (
    <datalist id={listId}>
      {[...new Set((fetcher.data?.places ?? []).map(optionText))].map((text) => (
        <option key={text} value={text} />
      ))}
    </datalist>
  );
  return { suggest, datalist };
}
