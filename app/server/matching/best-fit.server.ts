import type { BestFitSuggestion } from "~/domain/matching/suggestion";
import type { ReferralRequest } from "~/domain/workbook/tabs";
import { hiddenAuthorsFor } from "../moderation/visibility.server";
import type { Services } from "../services.server";

export type BestFitOptions = {
  /** At most this many (five on the request page). */
  readonly limit: number;
  /** Agents already invited or offered: the "next five" leave them out. */
  readonly excludeEmails: ReadonlySet<string>;
};

/** The agents best placed to take the request, best first, with the reasons shown to its poster. */
export function bestFitAgents(services: Pick<Services, "store">, request: ReferralRequest, options: BestFitOptions): BestFitSuggestion[] {
  const hidden = hiddenAuthorsFor(services, { email: request.agentEmail });
  return services.store.agents
    .by("status", "approved")
    .filter(
      (agent) =>
        agent.email !== request.agentEmail &&
        !hidden.has(agent.email) &&
        !options.excludeEmails.has(agent.email) &&
        agent.state === request.state &&
        (request.specialty === "" || agent.specialties.includes(request.specialty)),
    )
    .slice(0, options.limit)
    .map((agent) => ({
      agentId: agent.id,
      email: agent.email,
      fullName: agent.fullName,
      brokerage: agent.brokerage,
      city: agent.city,
      state: agent.state,
      photoUrl: agent.photoUrl,
      distanceMiles: null,
      reasons: [`${agent.city}, ${agent.state}`, ...(request.specialty ? [request.specialty] : [])],
    }));
}
