import { useEffect, useRef, useState } from "react";

/** A suggested place: its name and its state's code. */
export type SuggestedPlace = { name: string; state: string };
/** What `/places?q=` answers: places whose names start with the text, largest first, then close spellings. */
export type PlaceSuggestionsData = { places: SuggestedPlace[] };

/** "Tyler, TX", as a place box takes it. */
const placeWithState = (place: SuggestedPlace) => `${place.name}, ${place.state}`;

/** Fewer letters than this ask nothing: "T" would list every town from Tyler to Tulsa. */
const MIN_LETTERS = 2;
const TYPING_PAUSE_MS = 150;

/**
 * Suggestions for place boxes, in a `<datalist>` the boxes name in their `list` attribute:
 * the browser's own list, which works with the keyboard, a screen reader and a phone's
 * keyboard alike. Without JavaScript the list stays empty and the server matches what was typed.
 *
 * Asked with a plain `fetch`, not a Remix fetcher: a fetcher's failed load (a weak connection,
 * a load cut short by the form being sent) would replace the whole page with its error
 * screen, and suggestions are only a help. A failed or outdated answer is dropped.
 */
export function usePlaceSuggestions(listId: string, optionText: (place: SuggestedPlace) => string = placeWithState) {
  const [places, setPlaces] = useState<SuggestedPlace[]>([]);
  const timer = useRef<ReturnType<typeof setTimeout>>(undefined);
  const asking = useRef<AbortController>(undefined);
  useEffect(
    () => () => {
      clearTimeout(timer.current);
      asking.current?.abort();
    },
    [],
  );

  function suggest(text: string, state?: string) {
    clearTimeout(timer.current);
    const q = text.trim();
    if (q.length < MIN_LETTERS) return;
    const params = new URLSearchParams({ q, ...(state ? { state } : {}) });
    timer.current = setTimeout(() => void ask(`/places?${params}`), TYPING_PAUSE_MS);
  }

  async function ask(url: string) {
    asking.current?.abort();
    const controller = new AbortController();
    asking.current = controller;
    try {
      const response = await fetch(url, { signal: controller.signal, headers: { Accept: "application/json" } });
      if (!response.ok) return;
      const data = (await response.json()) as PlaceSuggestionsData;
      if (!controller.signal.aborted) setPlaces(data.places);
    } catch {
      // Offline, cut short or not JSON: the box works without suggestions.
    }
  }

  const datalist = (
    <datalist id={listId}>
      {[...new Set(places.map(optionText))].map((text) => (
        <option key={text} value={text} />
      ))}
    </datalist>
  );
  return { suggest, datalist };
}
