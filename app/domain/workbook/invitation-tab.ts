/**
 * Invitations to respond: one row per request and invited agent. Listed in the workbook
 * (`tabs.ts`) like every other tab.
 */
import { choice, email, optionalText, optionalTime, reference, requiredText, time } from "./columns";
import { defineTab } from "./define-tab";

/** "declined" is the invited agent's "Not a fit"; "hidden" is set by staff to take an invitation off every page. */
export const INVITATION_STATUSES = ["invited", "declined", "hidden"] as const;

export const INVITATIONS_TAB = defineTab({
  name: "Invitations",
  appendOnly: false,
  columns: {
    id: requiredText(),
    requestId: reference(),
    posterEmail: email({ required: true }),
    agentEmail: email({ required: true }),
    status: choice(INVITATION_STATUSES, "invited"),
    /** The invited agent's optional reason for "Not a fit", shown to the poster. */
    reason: optionalText(),
    createdAt: time(),
    answeredAt: optionalTime(),
    /** When the one reminder before the request's "Respond by" was claimed for sending. */
    remindedAt: optionalTime(),
    /**
     * The invited agent's own Respond by, set only when they were invited late: an agent
     * who joined through the request's outreach (docs/decisions/0083). Blank: the request's.
     */
    respondBy: optionalTime(),
  },
  indexes: {
    requestId: (invitation) => invitation.requestId,
    agentEmail: (invitation) => invitation.agentEmail,
    posterEmail: (invitation) => invitation.posterEmail,
  },
});
