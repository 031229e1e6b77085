/**
 * The place list (decision 0045), written by `npm run places:build`. Only server modules
 * import it, so its 90 kB stay out of the browser's scripts; pages ask `/places?q=` instead.
 * It is constant data compiled into the server build, not process state.
 */
import { type MarketState } from "~/domain/enums";
import { createGazetteer } from "~/domain/places/gazetteer";
import { type Place } from "~/domain/places/place-names";
import rows from "./tx-ok-places.json" with { type: "json" };

type PlaceRow = [name: string, state: MarketState, lat: number, lon: number, population?: number];

export const PLACES: readonly Place[] = (rows as PlaceRow[]).map(([name, state, lat, lon, population]) => ({
  name,
  state,
  lat,
  lon,
  ...(population === undefined ? {} : { population }),
}));

export const { findPlace, suggestPlaces, matchTypedPlace, resolveRequestPlace } = createGazetteer(PLACES);
