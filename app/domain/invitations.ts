/**
 * Invitations to respond to a request, and the request's "Respond by" (docs/decisions/0047):
 * the limits, the deadline's arithmetic, when the one reminder falls due, how many best-fit
 * agents the poster is offered, and what the pages say. Pure and free of zod, since components
 * import it; the forms' schemas are in invitation-forms.ts.
 */
import { centralTimeSoon } from "./central-time";

/** One round of best-fit agents offered to a poster: five, and five again each time a deadline passes unanswered. */
const ROUND_SIZE = 5;
/** Invitations one request may send: three rounds of five. */
export const INVITATIONS_PER_REQUEST = 15;
/** Invitations one poster may send in any 24 hours, over all their requests. */
export const INVITATIONS_PER_POSTER_PER_DAY = 30;

export const RESPOND_BY_MIN_HOURS = 1;
export const RESPOND_BY_MAX_HOURS = 96;

const HOUR_MS = 60 * 60 * 1000;
const DAY_MS = 24 * HOUR_MS;
/** The reminder goes this long before the deadline, or with a quarter of a shorter window left. */
const REMINDER_LEAD_MAX_MS = 2 * HOUR_MS;

/** The stored `respondBy` for a deadline `hours` from now. */
export function respondByAt(hours: number, now: Date): string {
  return new Date(now.getTime() + hours * HOUR_MS).toISOString();
}

/** Whole hours until the deadline, rounded up: what the edit form shows; undefined once it passed or when none is set. */
export function hoursLeft(respondBy: string | undefined, now: Date): number | undefined {
  if (respondBy === undefined) return undefined;
  const left = Date.parse(respondBy) - now.getTime();
  return left > 0 ? Math.min(RESPOND_BY_MAX_HOURS, Math.ceil(left / HOUR_MS)) : undefined;
}

/**
 * The deadline after an edit: unchanged when the form sends back the hours it showed (so
 * saving a typo fix does not move it), a new deadline from now when the hours changed, none when blank.
 */
export function respondByAfterEdit(current: string | undefined, hours: number | undefined, now: Date): string | undefined {
  if (hours === undefined) return undefined;
  return hours === hoursLeft(current, now) ? current : respondByAt(hours, now);
}

/** How long an agent invited once they joined (docs/decisions/0083) has to respond when the request's deadline is near or passed. */
export const LATE_INVITATION_RESPOND_BY_HOURS = 48;

/**
 * The Respond by of an agent invited once they joined: none when the request sets none, the
 * request's own when it leaves them longer, otherwise a fresh one, so they are not invited
 * to a deadline that passed while staff reviewed them.
 */
export function lateInvitationRespondBy(requestRespondBy: string | undefined, now: Date): string | undefined {
  if (requestRespondBy === undefined) return undefined;
  const fresh = respondByAt(LATE_INVITATION_RESPOND_BY_HOURS, now);
  return Date.parse(requestRespondBy) >= Date.parse(fresh) ? undefined : fresh;
}

/** The deadline an invited agent answers by: their invitation's own, or else the request's. */
export function invitationRespondBy(
  invitation: { respondBy?: string | undefined },
  request: { respondBy?: string | undefined },
): string | undefined {
  return invitation.respondBy ?? request.respondBy;
}

export function isPastDeadline(respondBy: string | undefined, now: Date): boolean {
  return respondBy !== undefined && Date.parse(respondBy) <= now.getTime();
}

/**
 * When the one reminder before the deadline falls due: when two hours remain, or a quarter
 * of the time between the invitation and the deadline, whichever comes later. Undefined when
 * the invitation came after that point: its own mail is the reminder.
 */
export function reminderDueAt(invitedAt: string, respondBy: string): number | undefined {
  const start = Date.parse(invitedAt);
  const end = Date.parse(respondBy);
  const due = end - Math.min((end - start) / 4, REMINDER_LEAD_MAX_MS);
  return due > start ? due : undefined;
}

export function isReminderDue(invitedAt: string, respondBy: string, now: Date): boolean {
  const due = reminderDueAt(invitedAt, respondBy);
  return due !== undefined && due <= now.getTime() && now.getTime() < Date.parse(respondBy);
}

/**
 * How many new best-fit agents the poster is offered: the first five less those already
 * invited; once the deadline passed with no response, five more ("the next five") less those
 * invited since it passed (a new Respond by starts another round); never past the request's limit.
 */
export function offerSize(invited: number, invitedSinceDeadline: number | undefined): number {
  const left = Math.max(0, INVITATIONS_PER_REQUEST - invited);
  const round = ROUND_SIZE - (invitedSinceDeadline ?? invited);
  return Math.max(0, Math.min(round, left));
}

/** Invitations the poster sent in the 24 hours before `now`, from their creation times. */
export function sentInLastDay(createdAt: readonly string[], now: Date): number {
  return createdAt.filter((at) => now.getTime() - Date.parse(at) < DAY_MS).length;
}

/** The "Invite all" button's words: "Invite all five" for a full round. */
export function inviteAllLabel(count: number): string {
  return count === ROUND_SIZE ? "Invite all five" : `Invite all ${count}`;
}

/** "Nov 28, 3:00 PM CST": the deadline in Central time, where the network is (at most 96 hours away). */
export function deadlineLabel(respondBy: string): string {
  return centralTimeSoon(respondBy);
}

export const NOT_A_FIT_REASON_MAX = 300;

/** What the poster and the invited agent are told when an invitation is refused. */
export const INVITATION_REFUSALS = {
  notPoster: "Only the agent who posted this request can invite agents to it.",
  closed: "This request no longer accepts responses, so no one can be invited to it.",
  requestLimit: `A request can invite at most ${INVITATIONS_PER_REQUEST} agents.`,
  posterLimit: `You can send at most ${INVITATIONS_PER_POSTER_PER_DAY} invitations a day. Please try again tomorrow.`,
  notInvitable: "This agent cannot be invited to your request.",
  unknownAgent: "Nothing was sent: this agent is not in the network, or is no longer. Reload the page to see who you can invite.",
  notInvited: "You were not invited to this request, or the invitation was withdrawn.",
  failed: "Your invitation could not be sent just now. Please try again in a moment.",
} as const;
