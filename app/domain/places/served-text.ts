import { DEFAULT_SERVICE_RADIUS, type ServiceRadius } from "./service-radius";

/** "Tyler, Longview and Lindale": a list in words. */
function inWords(items: readonly string[]): string {
  return items.length <= 1 ? (items[0] ?? "") : `${items.slice(0, -1).join(", ")} and ${items.at(-1)}`;
}

/**
 * What an agent serves, in a line: "Serves Tyler, Longview and Lindale, TX · within 25 mi".
 * Places are grouped by their state in the order listed; one written without a state (typed
 * so in the workbook) is shown as written. Undefined when the agent lists no places.
 */
export function servedPlacesText(placesServed: readonly string[], radius: ServiceRadius | undefined): string | undefined {
  if (placesServed.length === 0) return undefined;
  const groups = new Map<string, string[]>();
  for (const place of placesServed) {
    const split = /^(.*\S),\s*([A-Z]{2})$/.exec(place);
    const [state, name] = split ? [split[2]!, split[1]!] : ["", place];
    groups.set(state, [...(groups.get(state) ?? []), name]);
  }
  const parts = [...groups].map(([state, names]) => (state ? `${inWords(names)}, ${state}` : inWords(names)));
  return `Serves ${inWords(parts)} · within ${radius ?? DEFAULT_SERVICE_RADIUS} mi`;
}

/** How far an agent serves from a place, on a directory card: "12 mi from Tyler", or "Serves Tyler" when they serve it. */
export function distanceLabel(miles: number, placeName: string): string {
  return miles < 1 ? `Serves ${placeName}` : `${Math.round(miles)} mi from ${placeName}`;
}
