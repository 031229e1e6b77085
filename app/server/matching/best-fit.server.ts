import type { MatchRequest } from "~/domain/matching/candidate";
import { rankCandidates, type RankedCandidate } from "~/domain/matching/rank";
import type { BestFitSuggestion } from "~/domain/matching/suggestion";
import type { ReferralRequest } from "~/domain/workbook/tabs";
import { blockedBetween } from "../moderation/visibility.server";
import { resolveRequestPlace } from "../places/places.server";
import type { Services } from "../services.server";

export type BestFitOptions = {
  /** At most this many (five on the request page). */
  readonly limit: number;
  /** Agents already invited or offered: the "next five" leave them out. */
  readonly excludeEmails: ReadonlySet<string>;
  /** The clock the 90 days of activity are counted back from; now unless a test or a job gives one. */
  readonly now?: Date;
};

/**
 * The agents best placed to take the request, best first, with the reasons shown to its
 * poster: the ranking of app/domain/matching over the index `Services.bestFit` keeps
 * (docs/decisions/0046).
 */
export function bestFitAgents(
  services: Pick<Services, "store" | "bestFit">,
  request: ReferralRequest,
  options: BestFitOptions,
): BestFitSuggestion[] {
  const now = options.now ?? new Date();
  const { pool, signals } = services.bestFit.current(now);
  const ranked = rankCandidates(pool, signals, matchRequest(request), {
    limit: options.limit,
    blocked: blockedBetween(services, request.agentEmail),
    excluded: options.excludeEmails,
    now,
  });
  return ranked.map((each) => suggestion(services, each));
}

function matchRequest(request: ReferralRequest): MatchRequest {
  const place = resolveRequestPlace(request.location, request.state);
  return {
    place: place && { lat: place.lat, lon: place.lon },
    state: request.state,
    specialty: request.specialty,
    priceRange: request.priceRange,
    posterEmail: request.agentEmail,
  };
}

/** The suggestion as the request page shows it. */
function suggestion({ store }: Pick<Services, "store">, { candidate, reach, reasons }: RankedCandidate): BestFitSuggestion {
  // The index was brought up to the agents tab's version in this same call: the row is there.
  const agent = store.agents.by("email", candidate.email)[0]!;
  return {
    agentId: agent.id,
    email: agent.email,
    fullName: agent.fullName,
    brokerage: agent.brokerage,
    city: agent.city,
    state: agent.state,
    photoUrl: agent.photoUrl,
    distanceMiles: reach.miles === null ? null : Math.round(reach.miles),
    reasons,
  };
}
