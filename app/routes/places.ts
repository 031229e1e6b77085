import type { LoaderFunctionArgs } from "@remix-run/node";
import type { PlaceSuggestionsData } from "~/components/place-suggestions";
import { requireMember } from "~/server/auth/session.server";
import { suggestPlaces } from "~/server/places/places.server";

/** Longest text read: no place name is longer. */
const MAX_QUERY_LENGTH = 60;

/** Place suggestions for the place boxes of edit profile, the request forms and the directory (JSON). */
export async function loader({ request, context }: LoaderFunctionArgs) {
  await requireMember(request, context);
  const params = new URL(request.url).searchParams;
  const q = (params.get("q") ?? "").slice(0, MAX_QUERY_LENGTH);
  const body: PlaceSuggestionsData = {
    places: suggestPlaces(q, params.get("state") ?? undefined).map(({ name, state }) => ({ name, state })),
  };
  // The list changes only with a new build: a browser may keep an answer for an hour.
  return Response.json(body, { headers: { "Cache-Control": "private, max-age=3600" } });
}
