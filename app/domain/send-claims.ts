/**
 * The rules of send claims (docs/decisions/0029), pure: which row of a key wins, and the
 * key of the next mail in a throttled series. The I/O is in app/server/send-claims.server.ts.
 */
import type { SendClaim } from "./workbook/tabs";

/** The winning claim of a key: its first row. Rows a later read adds only ever go below it. */
export function winningClaim(rows: readonly SendClaim[], key: string): SendClaim | undefined {
  return rows.find((row) => row.key === key);
}

/** True when the winner of the key recorded that its mail failed. */
function claimFailed(rowsOfKey: readonly SendClaim[]): boolean {
  return rowsOfKey.some((row) => row.outcome === "failed");
}

/**
 * Throttled notifications of one subject (a member's conversation, a request's responses)
 * form a chain of keys `<subject>#0`, `<subject>#1`, ...: the next mail claims the first
 * key that has no row yet. The walk asks only whether a key has rows, never which row won,
 * so instances that have read the same claims claim the same next key, and only one of
 * them wins it. `lastSentAt` is when the chain's last mail was claimed (one whose mail
 * failed does not count), for the 10-minute rule.
 */
export function nextInChain(
  subject: string,
  rowsOfKey: (key: string) => readonly SendClaim[],
): { key: string; lastSentAt: string | undefined } {
  let lastSentAt: string | undefined;
  for (let link = 0; ; link += 1) {
    const key = `${subject}#${link}`;
    const rows = rowsOfKey(key);
    if (rows.length === 0) return { key, lastSentAt };
    if (!claimFailed(rows)) lastSentAt = rows.map((row) => row.claimedAt).reduce((a, b) => (a <= b ? a : b));
  }
}
