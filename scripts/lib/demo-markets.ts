/**
 * The places demo agents serve: their own city and the larger towns around it, from the
 * place list, with radii spread over the four choices, so the member directory's "near a
 * place" and a request's best-fit list have agents all over Texas and Oklahoma.
 */
import type { MarketState } from "~/domain/enums";
import { createPointIndex } from "~/domain/places/geo";
import { placeLabel, type Place } from "~/domain/places/place-names";
import type { ServiceRadius } from "~/domain/places/service-radius";
import { findPlace, PLACES } from "~/server/places/places.server";

/** Towns this large or larger are the ones an agent nearby would name as served. */
const TOWN_POPULATION = 5_000;
const AROUND_MILES = 35;
/** Every eighth agent lists no places: the directory then uses their city, and the dashboard asks them to add some. */
const WITHOUT_PLACES_EVERY = 8;
const RADII: readonly ServiceRadius[] = [25, 50, 10, 25, 100, 50];

const towns = createPointIndex(
  PLACES.filter((place) => (place.population ?? 0) >= TOWN_POPULATION),
  (place) => [place],
);

export type DemoMarkets = { placesServed: string[]; serviceRadius: ServiceRadius | undefined };

/** The agent at `index` in the demo's list, working from `city`: up to four places, nearest towns first. */
export function demoMarkets(city: string, state: MarketState, index: number): DemoMarkets {
  const home = findPlace(city, state);
  if (!home || index % WITHOUT_PLACES_EVERY === WITHOUT_PLACES_EVERY - 1) return { placesServed: [], serviceRadius: undefined };
  const around = towns
    .within(home, AROUND_MILES)
    .map(({ item }) => item)
    .filter((place: Place) => place !== home)
    .slice(0, 1 + (index % 3));
  return { placesServed: [home, ...around].map(placeLabel), serviceRadius: RADII[index % RADII.length] };
}
