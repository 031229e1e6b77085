/**
 * The rules of send claims (docs/decisions/0029 and 0039), pure: which row of a key wins,
 * the key of the next mail in a throttled series, and which rows the app may delete. The
 * I/O is in app/server/send-claims.server.ts.
 */
import { digestWeekDue } from "./digest";
import { chainLink, type SendClaim } from "./workbook/tabs";

/** The winning claim of a key: its first row. Rows a later read adds only ever go below it. */
export function winningClaim(rows: readonly SendClaim[], key: string): SendClaim | undefined {
  return rows.find((row) => row.key === key);
}

/**
 * Throttled notifications of one subject (a member's conversation, a request's responses)
 * form a chain of keys `<subject>#0`, `<subject>#1`, ...: the next mail claims the link
 * after the highest one that has a row (given: the keys of the subject's rows). The walk
 * asks only which links have rows, never which row won, so instances that have read the
 * same claims claim the same next key, and only one of them wins it; and since only the
 * highest link matters, the older links can be deleted without a link being claimed twice.
 * Whether a mail is due at all is the 10-minute rule on the stored `lastNotifiedAt`
 * (docs/decisions/0005), or on the newest link's claim when that is later (`lastLinkClaimedAt`):
 * a link whose mail failed leaves the next message free to claim the next link.
 */
export function nextInChain(subject: string, claimedKeys: readonly string[]): string {
  const links = claimedKeys.flatMap((key) => {
    const link = chainLink(key);
    return link?.subject === subject ? [link.link] : [];
  });
  return `${subject}#${links.length === 0 ? 0 : Math.max(...links) + 1}`;
}

/**
 * When the subject's newest link was claimed, unless its mail failed: a mail is on its way or
 * sent then. An instance that has read that claim but not yet the `lastNotifiedAt` stamped
 * after the send (written later, and maybe in a tab it reads at other times) throttles on the
 * claim, so it does not take the next link within the 10 minutes. A link with several claimed
 * rows (an instance that lost it added one) counts from the earliest: the winner's claim came
 * first, and a replica does not always hold rows in the tab's order (its own appends go before
 * the rows it reads later).
 */
export function lastLinkClaimedAt(subject: string, rows: readonly SendClaim[]): string | undefined {
  const failed = new Set(rows.filter((row) => row.outcome === "failed").map((row) => row.key));
  let newest: { link: number; at: string } | undefined;
  for (const row of rows) {
    const link = chainLink(row.key);
    if (link?.subject !== subject || row.outcome !== "claimed" || failed.has(row.key)) continue;
    if (!newest || link.link > newest.link || (link.link === newest.link && row.claimedAt < newest.at))
      newest = { link: link.link, at: row.claimedAt };
  }
  return newest?.at;
}

const DAY_MS = 86_400_000;
/**
 * A row is deleted only this long after its key stopped being claimable: every instance's
 * replica has read the tab many times over by then, so none still acts on the rows before.
 */
const SETTLED_MS = DAY_MS;
/** Keys whose mail is sent once for a new row (an agent's registration, an urgent request, a contact message): kept a month, past any retry of the form. */
const ONCE_KEPT_MS = 30 * DAY_MS;

/** What the store says about the subjects of some keys, for deciding whether they can recur. */
type ClaimFacts = {
  /** True when the agent's row records that decision's mail as claimed (`decisionsMailed`): its key is never claimed again. */
  decisionMailed(agentId: string, decision: string): boolean;
  /** The referral's `lastReminderAt` as its reminder keys name it ("none" when blank); undefined when the referral is gone. */
  lastReminder(referralId: string): string | undefined;
};

/**
 * The rows of SendClaims whose key can no longer be claimed again, settled for a day:
 * - a digest week's rows (`digest-run:`, `digest-done:`, `digest:`, and staff's `growth-summary:`), once the week is over;
 * - a throttled chain's links below a link that is a day old (the highest link always stays);
 * - a decision mail's rows, once the agent's row records it;
 * - a referral reminder's rows, once the referral's last reminder moved past the one the key names;
 * - a registration's, an urgent request's, an invitation's mail or reminder, an invitation to join's reminder or approval step, or a published review's notice, after a month;
 * - the pruning's own daily claims, the mirror tabs' rewrites and used one-time login links (15 minutes long), after their day.
 * Others are kept: one agent per e-mail and one mark per member (docs/decisions/0032) are
 * claims for as long as the app runs, and keys the app does not know are staff's.
 */
export function prunableClaims(rows: readonly SendClaim[], now: Date, facts: ClaimFacts): SendClaim[] {
  const settled = now.getTime() - SETTLED_MS;
  const currentWeek = digestWeekDue(new Date(settled)).week;
  // Per chain, its highest link claimed over a day ago: every instance has read it, so none claims a link below it.
  const settledLink = new Map<string, number>();
  for (const row of rows) {
    const chain = chainLink(row.key);
    if (chain && Date.parse(row.claimedAt) < settled && chain.link > (settledLink.get(chain.subject) ?? -1))
      settledLink.set(chain.subject, chain.link);
  }
  const canGo = (row: SendClaim): boolean => {
    const claimedAt = Date.parse(row.claimedAt);
    if (!(claimedAt < settled)) return false;
    const [family = "", first = "", second = "", ...rest] = row.key.split(":");
    switch (family) {
      case "digest-run":
      case "digest-done":
      case "digest":
      case "growth-summary":
        return first.replace(/#\d+$/, "") < currentWeek;
      case "message":
      case "response":
      case "outreach": {
        const chain = chainLink(row.key);
        return chain !== undefined && chain.link < (settledLink.get(chain.subject) ?? -1);
      }
      case "decision":
        return facts.decisionMailed(first, second);
      case "referral-reminder": {
        const last = facts.lastReminder(first);
        return second === "after" && (last === undefined || last !== rest.join(":"));
      }
      case "registration":
      case "urgent":
      case "contact":
      case "invitation-mail":
      case "invitation-reminder":
      case "outreach-reminder":
      case "outreach-approved":
      case "review-published":
      case "reply-mail":
      case "reply-refused":
        // A reply by mail's Message-ID is posted again for three days at most; its refusal's mail is once an hour.
        return claimedAt < now.getTime() - ONCE_KEPT_MS;
      case "prune":
      case "login-link":
      case "mirror":
      case "mirror-lookup":
        return true;
      default:
        return false;
    }
  };
  return rows.filter(canGo);
}
