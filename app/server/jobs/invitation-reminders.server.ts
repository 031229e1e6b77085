/**
 * The one reminder before a request's Respond by, after each store refresh: to each invited
 * agent who has neither responded nor answered Not a fit, when two hours (or the last quarter
 * of a shorter window) remain (docs/decisions/0047). Claimed once per invitation across
 * instances and stamped in its `remindedAt`; the member's invitations mail setting applies.
 */
import { CLAIM_KEYS } from "~/domain/claim-keys";
import { invitationRespondBy, isReminderDue } from "~/domain/invitations";
import { isLive } from "~/domain/referral-requests/expiry";
import type { Invitation } from "~/domain/workbook/tabs";
import { publicUrl } from "../accounts/urls.server";
import type { Config } from "../config.server";
import { hasResponded, isAnswered } from "../invitations/invitations.server";
import { invitationReminderMail } from "../mail/invitation-mail.server";
import { asModeratedInvitations, hiddenAuthorsFor } from "../moderation/visibility.server";
import type { Notifier } from "../notifier/notifier.server";
import { respondByNotice } from "../push/notices.server";
import type { SendClaims } from "../send-claims.server";
import type { BackgroundJob, Store } from "../store/store.server";
import { refreshJob } from "./registry.server";

type Deps = {
  store: Store;
  notifier: Pick<Notifier, "enqueue">;
  config: Pick<Config, "appUrl" | "port">;
  claims: Pick<SendClaims, "sendOnce">;
};

/** The invitation's request and agent when its reminder is due now; undefined otherwise. */
function dueReminder(deps: Deps, invitation: Invitation, now: Date) {
  if (invitation.status !== "invited" || invitation.remindedAt !== undefined) return undefined;
  const request = deps.store.requests.get(invitation.requestId);
  const respondBy = request ? invitationRespondBy(invitation, request) : undefined;
  if (!request || respondBy === undefined || !isLive(request, now) || !isReminderDue(invitation.createdAt, respondBy, now))
    return undefined;
  const agent = deps.store.agents.by("email", invitation.agentEmail)[0];
  if (!agent || agent.status !== "approved" || hiddenAuthorsFor(deps, agent).has(request.agentEmail)) return undefined;
  if (hasResponded(deps, request.id, agent.email)) return undefined;
  return { request, respondBy, agent };
}

/** One pass over the open invitations: resolves to how many reminders this instance claimed and queued. */
export async function remindInvitedAgents(deps: Deps, now: Date, signal?: AbortSignal): Promise<number> {
  let reminded = 0;
  for (const invitation of asModeratedInvitations(deps, deps.store.invitations.all())) {
    // Stopped: the rest wait for the next run, here or on another instance.
    if (signal?.aborted) break;
    const due = dueReminder(deps, invitation, now);
    if (!due) continue;
    const { request, respondBy, agent } = due;
    const outcome = await deps.claims.sendOnce(CLAIM_KEYS["invitation-reminder"].key(invitation.id), now, async () => {
      await deps.store.invitations.update(invitation.id, { remindedAt: now.toISOString() });
      deps.notifier.enqueue({
        mail: invitationReminderMail({
          request,
          respondBy,
          posterName: request.agentName.trim() || "A member",
          agent,
          link: publicUrl(deps.config, `/referral-requests/${request.id}`),
        }),
        about: `the reminder of invitation ${invitation.id} to respond to request ${request.id}`,
        member: { recipient: agent, kind: "invitations", reason: "you were invited to respond to this request and have not answered yet" },
        push: { notice: respondByNotice({ request, respondBy }), urgency: "high", stillUnread: async () => !isAnswered(deps, invitation) },
      });
    });
    if (outcome === "sent") reminded += 1;
  }
  return reminded;
}

/** Runs the pass after each of the store's timed refreshes; `clock` is replaced in tests. */
export function remindInvitedAgentsAfterRefreshes(deps: Deps, clock: () => Date = () => new Date()): BackgroundJob {
  return deps.store.addJob({
    ...refreshJob("invitationReminders"),
    async run(_event, signal) {
      await remindInvitedAgents(deps, clock(), signal);
    },
  });
}
