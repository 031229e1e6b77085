import { CLAIM_KEYS } from "~/domain/claim-keys";
import { lateInvitationRespondBy } from "~/domain/invitations";
import { isLive } from "~/domain/referral-requests/expiry";
import type { Agent } from "~/domain/workbook/tabs";
import { publicUrl } from "../accounts/urls.server";
import { inviteAgents } from "../invitations/invitations.server";
import type { Services } from "../services.server";
import { outreachJoinedMail } from "./outreach-mail.server";

type ApprovalServices = Pick<Services, "store" | "notifier" | "writeQueues" | "sendClaims" | "config">;

/**
 * When staff approve an agent who registered through a request's invitation
 * (docs/decisions/0083): they are invited to that request as a member would be, and its
 * poster is told. Claimed once per invitation across instances; the invitation to the request
 * is itself one row per request and agent. Nothing happens when the request no longer takes
 * responses or the poster is gone.
 */
export async function inviteApprovedToTheirRequest(services: ApprovalServices, agent: Agent, now: Date): Promise<void> {
  const row = services.store.outreach.by("agentId", agent.id).find((each) => each.requestId);
  const request = row?.requestId ? services.store.requests.get(row.requestId) : undefined;
  const poster = request ? services.store.agents.by("email", request.agentEmail)[0] : undefined;
  if (!row || !request || !poster || !isLive(request, now) || agent.status !== "approved") return;
  const key = CLAIM_KEYS["outreach-approved"].key(row.id);
  if (!(await services.sendClaims.claim([key], now)).has(key)) return;
  const invited = await inviteAgents(services, {
    request,
    poster,
    agentEmails: [agent.email],
    now,
    respondBy: lateInvitationRespondBy(request.respondBy, now),
  });
  if (!invited.ok) {
    console.error(`Outreach: agent ${agent.id} could not be invited to request ${request.id}: ${invited.message}`);
    return;
  }
  services.notifier.enqueue(
    {
      mail: outreachJoinedMail({
        poster,
        agentName: agent.fullName,
        requestTitle: request.title,
        link: publicUrl(services.config, `/referral-requests/${request.id}`),
      }),
      about: `the notice to ${poster.email} that agent ${agent.id} joined through request ${request.id}`,
    },
    { claimed: [key], now },
  );
}
