/**
 * Every label that puts a count beside a noun, so "1 referral" and "2 referrals" follow one
 * rule. Pure and free of zod: components import it. Each label is its own export, so a
 * page's script carries only the ones it shows; tests/unit/count-labels.test.ts reads
 * every export at 0, 1 and 2.
 */

/** "1 referral", "0 referrals", "2 referrals"; `many` for nouns that do not just add an "s". */
export function countOf(count: number, one: string, many = `${one}s`): string {
  return `${count} ${count === 1 ? one : many}`;
}

/** The dashboard's My Referrals card's link. */
export const viewAllReferralsLabel = (total: number) => (total > 0 ? `View All ${countOf(total, "Referral")}` : "Open My Referrals");

/** The dashboard's live requests' link, when they show only the newest. */
export const viewAllLiveRequestsLabel = (total: number) => `View All ${countOf(total, "Live Request")}`;

/** The dashboard's Messages card's link, when it shows only the newest conversations. */
export const viewAllConversationsLabel = (total: number) => `View All ${countOf(total, "Conversation")}`;

/** The dashboard's banner when requests arrived since the page opened. */
export const newRequestsLabel = (count: number) => `${countOf(count, "new request")} available!`;

/** The requests list's count. */
export const requestsLabel = (total: number) => countOf(total, "request");

/** The referrals list's count. */
export const referralsLabel = (total: number) => countOf(total, "referral");

/** A request's responses. */
export const responsesLabel = (count: number) => countOf(count, "response");

/** A request's expiry notice. */
export const expiresInLabel = (days: number) => `Expires in ${countOf(days, "day")}`;
