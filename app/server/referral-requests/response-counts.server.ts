import type { Services } from "../services.server";
import { countsAsResponse, responseCount } from "./views.server";

type CountServices = Pick<Services, "store" | "writeQueues">;

/**
 * How many responses each request has, as the pages count them (`responseCount`), in one
 * pass over the Responses tab: for checking every request's cell.
 */
function responseCounts(services: Pick<Services, "store">): Map<string, number> {
  const counts = new Map<string, number>();
  for (const response of services.store.responses.all().filter(countsAsResponse(services))) {
    counts.set(response.requestId, (counts.get(response.requestId) ?? 0) + 1);
  }
  return counts;
}

/**
 * Writes the request's count of responses, worked out from the rows as this replica has them,
 * into its `responses` cell, for staff reading the Requests tab. Counted, never incremented,
 * and one write at a time per request in this process. Another instance may write a count
 * from a replica that lacks this one's newest rows; the refresh that brings those rows
 * writes the count again (`recountStaleResponses`), so the cell ends equal to the rows.
 */
export function recountResponses(services: CountServices, requestId: string): Promise<unknown> {
  // An update that changes no cell makes no call.
  return services.writeQueues.serially(`responses:${requestId}`, () =>
    services.store.requests.update(requestId, { responses: responseCount(services, requestId) }),
  );
}

/**
 * Writes the count again wherever a request's cell differs from its rows (another instance
 * wrote it from an older replica, staff typed in it, a response was hidden or its author
 * suspended): nothing when every cell is right.
 */
export async function recountStaleResponses(services: CountServices, signal?: AbortSignal): Promise<void> {
  const counts = responseCounts(services);
  const stale = services.store.requests.all().filter((request) => request.responses !== (counts.get(request.id) ?? 0));
  for (const request of stale) {
    // Stopped: the rest are written by the next run, here or on another instance.
    if (signal?.aborted) break;
    await recountResponses(services, request.id);
  }
}
