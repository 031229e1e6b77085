/**
 * Every place a page puts a count beside a noun says it here, so "1 referral" and
 * "2 referrals" follow one rule. Pure and free of zod: components import it.
 */

/** "1 referral", "0 referrals", "2 referrals"; `many` for nouns that do not just add an "s". */
export function countOf(count: number, one: string, many = `${one}s`): string {
  return `${count} ${count === 1 ? one : many}`;
}

/** The count labels pages show, by name: tests/unit/count-labels.test.ts reads each at 0, 1 and 2. */
export const COUNT_LABELS = {
  /** The dashboard's My Referrals card's link. */
  viewAllReferrals: (total: number) => (total > 0 ? `View All ${countOf(total, "Referral")}` : "Open My Referrals"),
  /** The dashboard's live requests' link, when they show only the newest. */
  viewAllLiveRequests: (total: number) => `View All ${countOf(total, "Live Request")}`,
  /** The dashboard's Messages card's link, when the card shows only the newest conversations. */
  viewAllConversations: (total: number) => `View All ${countOf(total, "Conversation")}`,
  /** The dashboard's banner when requests arrived since the page opened. */
  newRequests: (count: number) => `${countOf(count, "new request", "new requests")} available!`,
  /** The requests list's count. */
  requests: (total: number) => countOf(total, "request"),
  /** The referrals list's count. */
  referrals: (total: number) => countOf(total, "referral"),
  /** A request card's responses. */
  responses: (count: number) => countOf(count, "response"),
  /** A request's expiry notice. */
  expiresIn: (days: number) => `Expires in ${countOf(days, "day")}`,
  /** The header's My Referrals link: the open referrals, for a screen reader. */
  openReferrals: (count: number) => countOf(count, "open referral"),
} as const;
