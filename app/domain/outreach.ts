/**
 * Invitations to join the network (docs/decisions/0082): the limits, the one-a-month rule per
 * address, what became of an invitation, and what the pages say. Pure and free of zod, since
 * components import it; the form's schema is in outreach-forms.ts.
 */
import type { Agent, OutreachRow } from "./workbook/tabs";

/** Colleagues one form may invite at once. */
export const COLLEAGUES_PER_FORM = 10;
/** Invitations one member may send in any 24 hours, and in any 30 days. */
export const OUTREACH_PER_MEMBER_PER_DAY = 20;
export const OUTREACH_PER_MEMBER_PER_MONTH = 100;
/** One invitation reaches an address at most this often, whoever sends it. */
export const OUTREACH_ADDRESS_DAYS = 30;
/** How long an invitation's registration link works, from the invitation or its reminder. */
export const OUTREACH_LINK_DAYS = 30;
/** The member's one reminder may go this long after the invitation. */
const OUTREACH_REMINDER_AFTER_DAYS = 7;

const DAY_MS = 24 * 60 * 60 * 1000;

export const OUTREACH_MESSAGES = {
  nameRequired: "Name is required",
  nameTooLong: "Please keep the name under 100 characters",
  licenseTooLong: "Please keep the license number under 50 characters",
  noteTooLong: "Please keep your note under 500 characters",
  noColleague: "Please enter at least one colleague's name and email.",
  tooManyColleagues: `You can invite up to ${COLLEAGUES_PER_FORM} colleagues at a time.`,
  duplicate: "This email address is listed twice.",
  ownAddress: "This is your own email address.",
  suppressed: "We can't invite this address.",
  recentlyInvited: "This agent was invited in the last 30 days. One invitation a month reaches each address.",
  overDailyLimit: `You can send up to ${OUTREACH_PER_MEMBER_PER_DAY} invitations a day. Please try again tomorrow.`,
  overMonthlyLimit: `You can send up to ${OUTREACH_PER_MEMBER_PER_MONTH} invitations in 30 days. Please try again later.`,
  notSaved: "Your invitations could not be sent. Please try again.",
  unavailable: "Invitations are not available on this site yet. Please try again later.",
  linkInvalid: "This invitation link is not valid or has expired. You can still join below.",
  licenseNotFound: "We could not find this license in TREC's records. Please check the number.",
  referNotOwn: "Only the request's poster can invite an agent to it.",
  reminderNotDue: "A reminder can be sent once, 7 days after the invitation, while they have not registered.",
} as const;

/** "They are already here": the address belongs to an agent of the network. */
export function alreadyMemberMessage(name: string): string {
  return `They are already here: ${name.trim() || "this agent"} is a member of the network. No invitation was sent.`;
}

/** What became of an invitation, as the member's list and the staff guide name it. */
export type OutreachOutcome = "sent" | "opened" | "registered" | "approved" | "expired";

export const OUTREACH_OUTCOME_LABELS: Record<OutreachOutcome, string> = {
  sent: "Sent",
  opened: "Opened the link",
  registered: "Registered",
  approved: "Approved",
  expired: "Expired",
};

/** When the invitation's newest link stops working: 30 days after the invitation, or after its reminder. */
function outreachLinkExpiresAt(row: Pick<OutreachRow, "createdAt" | "remindedAt">): number {
  return Date.parse(row.remindedAt ?? row.createdAt) + OUTREACH_LINK_DAYS * DAY_MS;
}

/** Derived, never typed: approved or registered by the agent who came through it, else expired, opened or sent. */
export function outreachOutcome(
  row: Pick<OutreachRow, "createdAt" | "remindedAt" | "openedAt" | "agentId">,
  registered: Pick<Agent, "status"> | undefined,
  now: Date,
): OutreachOutcome {
  if (row.agentId && registered) return registered.status === "approved" ? "approved" : "registered";
  if (outreachLinkExpiresAt(row) <= now.getTime()) return "expired";
  return row.openedAt ? "opened" : "sent";
}

/** Whether the member may send the invitation's one reminder now. */
export function reminderAllowed(row: Pick<OutreachRow, "createdAt" | "remindedAt" | "agentId">, now: Date): boolean {
  return !row.remindedAt && !row.agentId && Date.parse(row.createdAt) + OUTREACH_REMINDER_AFTER_DAYS * DAY_MS <= now.getTime();
}

/** Whether an invitation (or its reminder) reached the address within the last 30 days, whoever sent it. */
export function invitedRecently(rows: readonly Pick<OutreachRow, "createdAt" | "remindedAt">[], now: Date): boolean {
  const since = now.getTime() - OUTREACH_ADDRESS_DAYS * DAY_MS;
  return rows.some((row) => Date.parse(row.remindedAt ?? row.createdAt) > since);
}

/** The member's refusal for sending `adding` more invitations now, given the times of those they sent; undefined when allowed. */
export function overMemberLimit(sentAt: readonly string[], adding: number, now: Date): string | undefined {
  const within = (days: number) => sentAt.filter((at) => Date.parse(at) > now.getTime() - days * DAY_MS).length;
  if (within(1) + adding > OUTREACH_PER_MEMBER_PER_DAY) return OUTREACH_MESSAGES.overDailyLimit;
  if (within(30) + adding > OUTREACH_PER_MEMBER_PER_MONTH) return OUTREACH_MESSAGES.overMonthlyLimit;
  return undefined;
}

/** The refusal of a license TREC does not list as active: its status is the reason. */
export function inactiveLicenseMessage(status: string): string {
  return `TREC lists this license as ${status.toLowerCase()}. Only an agent with an active license can be invited.`;
}

/** What the staff's weekly mail counts of growth from inside: the invitations of the 7 days before `now` and what became of them. */
export type WeeklyGrowth = { sent: number; registered: number; approved: number };

export function weeklyGrowth(
  rows: readonly Pick<OutreachRow, "createdAt">[],
  agents: readonly Pick<Agent, "createdAt" | "invitedBy" | "status">[],
  now: Date,
): WeeklyGrowth {
  const since = new Date(now.getTime() - 7 * DAY_MS).toISOString();
  const until = now.toISOString();
  const inWeek = (time: string) => time >= since && time < until;
  const joined = agents.filter((agent) => Boolean(agent.invitedBy) && inWeek(agent.createdAt));
  return {
    sent: rows.filter((row) => inWeek(row.createdAt)).length,
    registered: joined.length,
    approved: joined.filter((agent) => agent.status === "approved").length,
  };
}
