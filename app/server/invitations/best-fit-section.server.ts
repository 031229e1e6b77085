import { isPastDeadline, offerSize } from "~/domain/invitations";
import { photoSource } from "~/domain/member-profile";
import { isLive } from "~/domain/referral-requests/expiry";
import { agentIdFromEmail } from "~/domain/agent-id";
import type { BestFitSectionView, InvitedStanding } from "~/domain/invitation-views";
import type { ReferralRequest } from "~/domain/workbook/tabs";
import { bestFitAgents } from "../matching/best-fit.server";
import { hiddenAuthorsFor } from "../moderation/visibility.server";
import type { Services } from "../services.server";
import { invitationsOf } from "./invitations.server";

type SectionServices = Parameters<typeof bestFitAgents>[0] & Pick<Services, "store">;

/**
 * The poster's "Best-fit agents" on their request page: the agents they invited with where
 * each stands, and the best-fit agents they may invite now. The first five are offered at
 * once; once the Respond by time passed with no response, the next five (less those invited
 * since), leaving out everyone invited before; never past the request's limit.
 */
export function bestFitSection(services: SectionServices, request: ReferralRequest, now: Date): BestFitSectionView {
  const { store } = services;
  const rows = store.invitations.by("requestId", request.id);
  const responders = new Set(store.responses.by("requestId", request.id).map((response) => response.fromEmail));
  const hidden = hiddenAuthorsFor(services, { email: request.agentEmail });
  const invited = invitationsOf(services, request.id).flatMap((invitation) => {
    const agent = store.agents.by("email", invitation.agentEmail)[0];
    if (!agent || hidden.has(agent.email)) return [];
    const standing: InvitedStanding = responders.has(agent.email) ? "responded" : invitation.status === "declined" ? "declined" : "invited";
    return [
      {
        agentId: agent.id,
        profileId: agentIdFromEmail(agent.email),
        fullName: agent.fullName,
        brokerage: agent.brokerage,
        city: agent.city,
        state: agent.state,
        photoUrl: photoSource(agent.photoUrl),
        standing,
        reason: invitation.status === "declined" ? invitation.reason : "",
      },
    ];
  });
  const nextRound = isPastDeadline(request.respondBy, now) && responders.size === 0 && rows.length > 0;
  const sinceDeadline = rows.filter((row) => Date.parse(row.createdAt) >= Date.parse(request.respondBy ?? "")).length;
  const size = isLive(request, now) ? offerSize(rows.length, nextRound ? sinceDeadline : undefined) : 0;
  const suggestions =
    size > 0
      ? bestFitAgents(services, request, { limit: size, excludeEmails: new Set(rows.map((row) => row.agentEmail)), now }).map(
          ({ email, photoUrl, ...suggestion }) => ({ ...suggestion, profileId: agentIdFromEmail(email), photoUrl: photoSource(photoUrl) }),
        )
      : [];
  return {
    invited,
    suggestions,
    nextRound: nextRound && suggestions.length > 0,
    live: isLive(request, now),
  };
}
