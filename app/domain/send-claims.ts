/**
 * The rules of send claims (docs/decisions/0029), pure: which row of a key wins, and the
 * key of the next mail in a throttled series. The I/O is in app/server/send-claims.server.ts.
 */
import type { SendClaim } from "./workbook/tabs";

/** The winning claim of a key: its first row. Rows a later read adds only ever go below it. */
export function winningClaim(rows: readonly SendClaim[], key: string): SendClaim | undefined {
  return rows.find((row) => row.key === key);
}

/**
 * Throttled notifications of one subject (a member's conversation, a request's responses)
 * form a chain of keys `<subject>#0`, `<subject>#1`, ...: the next mail claims the first
 * key that has no row yet. The walk asks only whether a key has rows, never which row won,
 * so instances that have read the same claims claim the same next key, and only one of
 * them wins it. Whether a mail is due at all is the 10-minute rule on the stored
 * `lastNotifiedAt` (docs/decisions/0005): a link whose mail failed, or whose time was not
 * stored, leaves the next message free to claim the next link.
 */
export function nextInChain(subject: string, hasClaims: (key: string) => boolean): string {
  for (let link = 0; ; link += 1) {
    const key = `${subject}#${link}`;
    if (!hasClaims(key)) return key;
  }
}
