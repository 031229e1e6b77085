/**
 * When a referral request expires and what its card says about time (docs/product.md#referral-requests): 30 days
 * after it was posted, "Expires in N days" in its last week, NEW for a day. Pure: the clock
 * is always passed in.
 */
import { expiresInLabel } from "../count-labels";
import type { ReferralRequest } from "../workbook/tabs";

export const REQUEST_LIFETIME_DAYS = 30;
const EXPIRY_WARNING_DAYS = 7;
const NEW_BADGE_HOURS = 24;

const HOUR_MS = 60 * 60 * 1000;
const DAY_MS = 24 * HOUR_MS;

export function expiresAtFor(createdAtIso: string): string {
  return new Date(Date.parse(createdAtIso) + REQUEST_LIFETIME_DAYS * DAY_MS).toISOString();
}

type Timed = Pick<ReferralRequest, "createdAt" | "expiresAt">;

/** A row staff added without an expiry lives 30 days from its creation, like any other. */
/** When the request stops being live, in milliseconds since the epoch. */
export function expiryOf(request: Timed): number {
  return Date.parse(request.expiresAt ?? expiresAtFor(request.createdAt));
}

export function isPastExpiry(request: Timed, now: Date): boolean {
  return now.getTime() >= expiryOf(request);
}

/** Listed and open for responses: active and not yet expired. */
export function isLive(request: Timed & Pick<ReferralRequest, "status">, now: Date): boolean {
  return request.status === "active" && !isPastExpiry(request, now);
}

/** Whole days left, rounded up: a request with 30 hours left has 2 days. */
export function daysUntilExpiry(request: Timed, now: Date): number {
  return Math.ceil((expiryOf(request) - now.getTime()) / DAY_MS);
}

/** "Expires in N days" once 7 or fewer remain; null before that and once expired. */
export function expiryNotice(request: Timed, now: Date): string | null {
  if (isPastExpiry(request, now)) return null;
  const days = daysUntilExpiry(request, now);
  if (days > EXPIRY_WARNING_DAYS) return null;
  return expiresInLabel(days);
}

/** The NEW badge: posted under 24 hours ago. */
export function isNewRequest(request: Pick<ReferralRequest, "createdAt">, now: Date): boolean {
  const age = now.getTime() - Date.parse(request.createdAt);
  return age >= 0 ? age < NEW_BADGE_HOURS * HOUR_MS : true;
}
