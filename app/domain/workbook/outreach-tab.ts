/**
 * Invitations to join the network: one row per person a member invited, listed in the
 * workbook (`tabs.ts`) like every other tab. It stays in the sheet on every deployment: the
 * limits on inviting keep it small. What became of an invitation is derived from these
 * columns and the invitee's agent row (`outreachOutcome` in app/domain/outreach.ts), never typed.
 */
import { email, optionalText, optionalTime, reference, requiredText, stateCode, text, time } from "./columns";
import { defineTab } from "./define-tab";

export const OUTREACH_TAB = defineTab({
  name: "Outreach",
  appendOnly: false,
  columns: {
    id: requiredText(),
    /** The member who typed the address: their agent id. */
    inviterId: reference(),
    name: text(),
    email: email({ required: true }),
    /** Typed by the member, or confirmed from TREC's data when they refer a request to this agent. */
    licenseNumber: optionalText(),
    licenseState: stateCode(),
    /** The member's own line, quoted in the mail. */
    note: optionalText(),
    /** The request the member asked this agent to take, when they invited them from its page. */
    requestId: optionalText(),
    createdAt: time(),
    /** When the invitation's link was first opened. */
    openedAt: optionalTime(),
    /** When the member's one reminder went (its link is valid 30 days from then). */
    remindedAt: optionalTime(),
    /** The agent who registered through the link. */
    agentId: optionalText(),
  },
  indexes: {
    email: (row) => row.email,
    inviterId: (row) => row.inviterId,
    agentId: (row) => row.agentId,
  },
});
