import type { Place } from "~/domain/places/place-names";
import type { Agent } from "~/domain/workbook/tabs";
import { findPlace } from "../places/places.server";

/**
 * Where an agent works, as places of the place list: the places they serve, else (none
 * listed, or none the list knows: a typo in the workbook is ignored) their own city.
 */
export function agentPlaces(agent: Pick<Agent, "placesServed" | "city" | "state">): Place[] {
  const served = agent.placesServed.map((label) => findPlace(label)).filter((place): place is Place => place !== undefined);
  if (served.length > 0) return served;
  const home = findPlace(agent.city, agent.state);
  return home ? [home] : [];
}
