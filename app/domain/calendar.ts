/**
 * The dates a member may put in their calendar: an open invitation's Respond by (a time),
 * a referral's expected closing and its fee's due date (days). Each has a UID that stays
 * the same for the same thing, so importing it again updates the entry instead of adding
 * a second one (docs/decisions/0069). Client names never appear: an entry names the
 * request's title or the other agent, which is what the member's own pages show.
 */
import { feeDueDays } from "./track-record";
import { OPEN_PIPELINE_STATUSES } from "./referrals/status";
import type { Referral, ReferralRequest } from "./workbook/tabs";

type CalendarWhen = { kind: "time"; at: string } | { kind: "day"; day: string };

export type CalendarItem = {
  uid: string;
  /** Which date it is, for the page's "Add to calendar" link. */
  label: string;
  summary: string;
  description: string;
  /** The page the entry links back to, from the site's root. */
  path: string;
  when: CalendarWhen;
};

const UID_DOMAIN = "red-river-referrals";
const DAY_MS = 24 * 60 * 60 * 1000;

/** The invited agent's deadline on a request that asks for one. */
export function respondByItem(request: Pick<ReferralRequest, "id" | "title" | "respondBy">): CalendarItem | null {
  if (!request.respondBy || Number.isNaN(Date.parse(request.respondBy))) return null;
  return {
    uid: `respond-by-${request.id}@${UID_DOMAIN}`,
    label: "Respond by",
    summary: `Respond by: ${oneLine(request.title)}`,
    description: "The poster asked the agents they invited to respond by this time.",
    path: `/referral-requests/${request.id}`,
    when: { kind: "time", at: new Date(request.respondBy).toISOString() },
  };
}

type DatedReferral = Pick<Referral, "id" | "status" | "expectedCloseDate" | "closeDate" | "feeDue">;

/** A signed referral's expected closing, from the commission disbursement authorization, until it closes or ends. */
function expectedClosingItem(referral: DatedReferral, otherAgent: string): CalendarItem | null {
  const day = dayOf(referral.expectedCloseDate);
  if (!day || !OPEN_PIPELINE_STATUSES.includes(referral.status)) return null;
  return {
    uid: `expected-closing-${referral.id}@${UID_DOMAIN}`,
    label: "Expected closing",
    summary: `Expected closing: referral with ${otherAgent}`,
    description: "The expected closing date the receiving agent gave for the commission disbursement authorization.",
    path: `/referrals/${referral.id}`,
    when: { kind: "day", day },
  };
}

/**
 * A closed referral's fee, due the agreement's number of days after the closing date (the
 * first "N days" its "fee is due" text names, as the track record counts it), until paid.
 */
function feeDueItem(referral: DatedReferral, otherAgent: string): CalendarItem | null {
  const closed = dayOf(referral.closeDate);
  if (!closed || referral.status !== "closed") return null;
  const due = new Date(Date.parse(`${closed}T00:00:00.000Z`) + feeDueDays(referral.feeDue) * DAY_MS).toISOString().slice(0, 10);
  return {
    uid: `fee-due-${referral.id}@${UID_DOMAIN}`,
    label: "Referral fee due",
    summary: `Referral fee due: referral with ${otherAgent}`,
    description: `The agreement says the fee is due ${oneLine(referral.feeDue)}.`,
    path: `/referrals/${referral.id}`,
    when: { kind: "day", day: due },
  };
}

/** The referral's dates a party can put in a calendar now: the expected closing before it closes, the fee's due date after. */
export function referralItems(referral: DatedReferral, otherAgent: string): CalendarItem[] {
  return [expectedClosingItem(referral, otherAgent), feeDueItem(referral, otherAgent)].filter((item) => item !== null);
}

/** The calendar-day part of a stored date (stored at noon UTC, so the day is the one typed). */
function dayOf(stored: string | undefined): string | undefined {
  return stored && /^\d{4}-\d{2}-\d{2}/.test(stored) ? stored.slice(0, 10) : undefined;
}

function oneLine(text: string): string {
  return text.replace(/\s+/g, " ").trim();
}
