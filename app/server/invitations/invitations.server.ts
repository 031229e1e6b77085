/**
 * Invitations to respond to a request (docs/decisions/0047): a poster invites best-fit
 * agents, each invited agent is mailed once and sees the invitation on their dashboard, and
 * answers by responding or with "Not a fit". One row per request and agent in the
 * Invitations tab, claimed first, so a double click, a retried form or two instances store one.
 */
import { CLAIM_KEYS } from "~/domain/claim-keys";
import {
  deadlineLabel,
  INVITATION_REFUSALS,
  INVITATIONS_PER_POSTER_PER_DAY,
  INVITATIONS_PER_REQUEST,
  invitationRespondBy,
  sentInLastDay,
} from "~/domain/invitations";
import type { InvitationToAnswer } from "~/domain/invitation-views";
import { locationLabel } from "~/domain/member-profile";
import { isLive } from "~/domain/referral-requests/expiry";
import { relativeTime } from "~/domain/relative-time";
import type { Agent, Invitation, ReferralRequest } from "~/domain/workbook/tabs";
import { publicUrl } from "../accounts/urls.server";
import { invitationMail } from "../mail/invitation-mail.server";
import { replyAddressFor } from "../mail/reply-address.server";
import { asModeratedInvitations, hiddenAuthorsFor } from "../moderation/visibility.server";
import { invitationNotice } from "../push/notices.server";
import type { Services } from "../services.server";
import { rowIdFor } from "../idempotency-keys.server";

type InviteServices = Pick<Services, "store" | "notifier" | "writeQueues" | "sendClaims" | "config">;

export type InvitationResult = { ok: true; count: number } | { ok: false; status: number; message: string };

const refused = (status: number, message: string): InvitationResult => ({ ok: false, status, message });

/** The invitations staff have not hidden, of one request. */
export function invitationsOf(services: Pick<Services, "store">, requestId: string): Invitation[] {
  return asModeratedInvitations(services, services.store.invitations.by("requestId", requestId)).filter(
    (invitation) => invitation.status !== "hidden",
  );
}

/** True once the agent has responded to the request: their invitation is answered. */
export function hasResponded({ store }: Pick<Services, "store">, requestId: string, agentEmail: string): boolean {
  return store.responses.by("requestId", requestId).some((response) => response.fromEmail === agentEmail);
}

/** Answered: the agent responded, or said Not a fit (or staff took the invitation off every page). */
export function isAnswered(services: Pick<Services, "store">, invitation: Invitation): boolean {
  const [current] = asModeratedInvitations(services, [services.store.invitations.get(invitation.id) ?? invitation]);
  return current!.status !== "invited" || hasResponded(services, invitation.requestId, invitation.agentEmail);
}

/** The agents among `emails` the poster may invite: approved members, not the poster, not suspended nor blocked either way. */
function invitableAgents(services: Pick<Services, "store">, poster: Pick<Agent, "email">, emails: readonly string[]): Agent[] {
  const hidden = hiddenAuthorsFor(services, poster);
  return emails.flatMap((email) => {
    const agent = services.store.agents.by("email", email)[0];
    return agent && agent.status === "approved" && agent.email !== poster.email && !hidden.has(agent.email) ? [agent] : [];
  });
}

/**
 * Invites agents to respond to the poster's live request, and queues each one's mail. Only
 * the poster invites; agents already invited are skipped (so a form sent twice changes
 * nothing); the request's and the poster's limits are checked against the tab, so they
 * hold across restarts and instances. One decision at a time per poster in this process.
 * Rejects (nothing more stored) when a row cannot be written.
 */
export function inviteAgents(
  services: InviteServices,
  options: {
    request: ReferralRequest;
    poster: Agent;
    agentEmails: readonly string[];
    now: Date;
    httpRequest?: Request;
    /** The invited agents' own Respond by, for a late invitation (docs/decisions/0083); otherwise the request's. */
    respondBy?: string;
  },
): Promise<InvitationResult> {
  const { request, poster, agentEmails, now, httpRequest, respondBy } = options;
  return services.writeQueues.serially(`invitations:${poster.email}`, async () => {
    if (request.agentEmail !== poster.email) return refused(403, INVITATION_REFUSALS.notPoster);
    if (!isLive(request, now)) return refused(409, INVITATION_REFUSALS.closed);
    const existing = services.store.invitations.by("requestId", request.id);
    const already = new Set(existing.map((invitation) => invitation.agentEmail));
    const wanted = [...new Set(agentEmails)].filter((email) => !already.has(email));
    if (wanted.length === 0) return { ok: true, count: 0 };
    const agents = invitableAgents(services, poster, wanted);
    if (agents.length === 0) return refused(403, INVITATION_REFUSALS.notInvitable);
    if (existing.length + agents.length > INVITATIONS_PER_REQUEST) return refused(429, INVITATION_REFUSALS.requestLimit);
    const sentToday = sentInLastDay(
      services.store.invitations.by("posterEmail", poster.email).map((invitation) => invitation.createdAt),
      now,
    );
    if (sentToday + agents.length > INVITATIONS_PER_POSTER_PER_DAY) return refused(429, INVITATION_REFUSALS.posterLimit);
    const results = await Promise.allSettled(agents.map((agent) => storeInvitation(services, { request, agent, respondBy }, now)));
    const stored = results.flatMap((result) => (result.status === "fulfilled" && result.value ? [result.value] : []));
    // Every stored row is mailed, even when another could not be written: a retry skips the stored ones.
    const link = publicUrl(services.config, `/referral-requests/${request.id}`, httpRequest);
    for (const invitation of stored) mailInvitation(services, { request, poster, invitation, link, now, httpRequest });
    const failed = results.find((result) => result.status === "rejected");
    if (failed) throw failed.reason;
    return { ok: true, count: stored.length };
  });
}

/**
 * The row, once its claim is won; undefined when another instance invited the same agent at
 * the same moment. Its id is made from the request and the agent, so after a write that
 * failed (or whose answer was lost) the next try wins the same claim and finds or adds the row.
 */
async function storeInvitation(
  services: InviteServices,
  invited: { request: ReferralRequest; agent: Agent; respondBy: string | undefined },
  now: Date,
): Promise<Invitation | undefined> {
  const { request, agent, respondBy } = invited;
  const key = CLAIM_KEYS.invitation.key(request.id, agent.email);
  const id = rowIdFor(request.id, { key: agent.email, retry: false });
  const triedBefore = services.store.sendClaims.by("key", key).length > 0;
  if (!(await services.sendClaims.claimAs(key, id, now))) return undefined;
  return services.store.invitations.insertOnce(
    {
      id,
      requestId: request.id,
      posterEmail: request.agentEmail,
      agentEmail: agent.email,
      status: "invited",
      reason: "",
      createdAt: now.toISOString(),
      answeredAt: undefined,
      remindedAt: undefined,
      respondBy,
    },
    { lookInStore: triedBefore },
  );
}

function mailInvitation(
  services: InviteServices,
  options: { request: ReferralRequest; poster: Agent; invitation: Invitation; link: string; now: Date; httpRequest?: Request },
): void {
  const { poster, invitation, link, now, httpRequest } = options;
  const agent = services.store.agents.by("email", invitation.agentEmail)[0];
  if (!agent) return;
  // The mail and the push tell this agent their own deadline.
  const request = { ...options.request, respondBy: invitationRespondBy(invitation, options.request) };
  services.notifier.enqueue(
    {
      mail: invitationMail({
        request,
        posterName: poster.fullName,
        agent,
        link,
        replyAddress: replyAddressFor(services.config, agent, poster, now),
      }),
      about: `the invitation ${invitation.id} to respond to request ${request.id}`,
      member: {
        recipient: agent,
        kind: "invitations",
        reason: "a member invited you to respond to their request and you have invitation mails on",
        request: httpRequest,
      },
      push: {
        notice: invitationNotice({ posterName: poster.fullName, request }),
        urgency: "high",
        stillUnread: async () => !isAnswered(services, invitation),
      },
    },
    { once: CLAIM_KEYS["invitation-mail"].key(invitation.id), now },
  );
}

/**
 * The invited agent's "Not a fit", with their optional reason for the poster. Answering
 * again changes the reason. Refused when the agent was not invited (or staff hid the invitation).
 */
export async function declineInvitation(
  services: Pick<Services, "store" | "writeQueues">,
  options: { requestId: string; agent: Pick<Agent, "email">; reason: string | undefined; now: Date },
): Promise<InvitationResult> {
  const { requestId, agent, reason, now } = options;
  return services.writeQueues.serially(`invitation-answer:${requestId}/${agent.email}`, async () => {
    const invitation = invitationsOf(services, requestId).find((each) => each.agentEmail === agent.email);
    if (!invitation) return refused(404, INVITATION_REFUSALS.notInvited);
    await services.store.invitations.update(invitation.id, {
      status: "declined",
      reason: reason ?? "",
      answeredAt: invitation.answeredAt ?? now.toISOString(),
    });
    return { ok: true, count: 1 };
  });
}

/** The Respond by a member reads on the request's page: their own invitation's when it has one, otherwise the request's. */
export function respondByFor(
  services: Pick<Services, "store">,
  request: ReferralRequest,
  member: Pick<Agent, "email">,
): string | undefined {
  const invitation = services.store.invitations.by("agentEmail", member.email).find((each) => each.requestId === request.id);
  return invitationRespondBy(invitation ?? {}, request);
}

/**
 * The dashboard's "Invited to respond": the member's open invitations, newest first. An
 * invitation closes once they responded or answered Not a fit, and when the request stops
 * taking responses; those of suspended or blocked posters are not shown.
 */
export function invitationsToAnswer(services: Pick<Services, "store">, member: Pick<Agent, "email">, now: Date): InvitationToAnswer[] {
  const hidden = hiddenAuthorsFor(services, member);
  return asModeratedInvitations(services, services.store.invitations.by("agentEmail", member.email))
    .flatMap((invitation) => {
      const request = services.store.requests.get(invitation.requestId);
      if (invitation.status !== "invited" || !request || !isLive(request, now) || hidden.has(request.agentEmail)) return [];
      if (hasResponded(services, request.id, member.email)) return [];
      return [{ invitation, request }];
    })
    .sort((a, b) => Date.parse(b.invitation.createdAt) - Date.parse(a.invitation.createdAt))
    .map(({ invitation, request }) => {
      const respondBy = invitationRespondBy(invitation, request);
      return {
        requestId: request.id,
        title: request.title,
        posterName: request.agentName.trim() || "A member",
        location: locationLabel(request.location, request.state),
        respondBy: respondBy ? deadlineLabel(respondBy) : null,
        invitedAgo: relativeTime(invitation.createdAt, now),
      };
    });
}
