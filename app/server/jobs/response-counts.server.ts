import type { Services } from "../services.server";
import type { BackgroundJob } from "../store/store.server";
import { recountStaleResponses } from "../referral-requests/response-counts.server";
import { refreshJob } from "./registry.server";

/**
 * Keeps each request's `responses` cell equal to its rows: after every refresh that brought
 * responses, requests, reports or agents (another instance's responses, a cell written from an
 * older replica, a response hidden, an author suspended), and after each timed refresh. With
 * several instances each writes the count its replica shows, and once their refreshes have
 * read the same rows they all write the same number; a cell that already agrees costs nothing.
 */
export function recountResponsesAfterRefreshes(
  services: Pick<Services, "store" | "writeQueues">,
  { log = console }: { log?: Pick<Console, "error"> } = {},
): BackgroundJob {
  return services.store.addJob({
    ...refreshJob("responseCounts"),
    async run(_event, signal) {
      // A count that cannot be stored is written at the next run: the pages count the rows themselves.
      await recountStaleResponses(services, signal).catch((error: unknown) =>
        log.error("Requests: could not write the count of responses; trying again after the next refresh.", error),
      );
    },
  });
}
