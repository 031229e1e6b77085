import { MARKET_STATE_NAMES, MARKET_STATES, type MarketState } from "~/domain/enums";

/** A city or town of the place list. */
export type Place = {
  readonly name: string;
  readonly state: MarketState;
  readonly lat: number;
  readonly lon: number;
  /** People living there, when the source counts them. */
  readonly population?: number;
};

/** "Tyler, TX": how places are written in the workbook and shown on pages. */
export const placeLabel = (place: Pick<Place, "name" | "state">) => `${place.name}, ${place.state}`;

/** Short forms people type, written out: "St. Jo" is "Saint Jo", "Ft Worth" is "Fort Worth". */
const SHORT_WORDS: Record<string, string> = { st: "saint", ste: "sainte", ft: "fort", mt: "mount" };

/** Lower case, no accents, no punctuation, short forms written out: the words of a name as compared. */
export function placeWords(text: string): string[] {
  return text
    .normalize("NFD")
    .replace(/\p{M}/gu, "")
    .toLowerCase()
    .replace(/['’`]/g, "")
    .split(/[^a-z0-9]+/)
    .filter((word) => word !== "")
    .map((word) => SHORT_WORDS[word] ?? word);
}

/**
 * The key two spellings of one place share: its words run together, so "Mc Kavett" and
 * "McKavett", "De Kalb" and "DeKalb" meet.
 */
export const placeKey = (text: string) => placeWords(text).join("");

const STATE_ENDINGS: readonly { words: readonly string[]; state: MarketState }[] = MARKET_STATES.flatMap((state) => [
  { words: placeWords(MARKET_STATE_NAMES[state]), state },
  { words: [state.toLowerCase()], state },
]);

/** A typed place split from the state written after it ("Tyler, TX", "Tyler Texas"). */
export type TypedPlace = { readonly words: readonly string[]; readonly state?: MarketState };

export function readTypedPlace(text: string): TypedPlace {
  const words = placeWords(text);
  for (const ending of STATE_ENDINGS) {
    const start = words.length - ending.words.length;
    if (start > 0 && ending.words.every((word, index) => words[start + index] === word)) {
      return { words: words.slice(0, start), state: ending.state };
    }
  }
  return { words };
}
