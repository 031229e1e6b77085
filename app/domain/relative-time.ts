/** How long ago something happened, in the words cards show ("3 hours ago"). */

const MINUTE_MS = 60_000;
const HOUR_MS = 60 * MINUTE_MS;
const DAY_MS = 24 * HOUR_MS;

function plural(count: number, unit: string): string {
  return `${count} ${unit}${count === 1 ? "" : "s"}`;
}

/**
 * "Just now" under a minute, then minutes, hours, days, weeks and months; a time
 * slightly in the future (another server's clock) also reads as just now.
 */
export function relativeTime(thenIso: string, now: Date): string {
  const elapsed = now.getTime() - Date.parse(thenIso);
  if (Number.isNaN(elapsed) || elapsed < MINUTE_MS) return "Just now";
  if (elapsed < HOUR_MS) return `${plural(Math.floor(elapsed / MINUTE_MS), "minute")} ago`;
  if (elapsed < DAY_MS) return `${plural(Math.floor(elapsed / HOUR_MS), "hour")} ago`;
  const days = Math.floor(elapsed / DAY_MS);
  if (days < 7) return `${plural(days, "day")} ago`;
  if (days < 30) return `${plural(Math.floor(days / 7), "week")} ago`;
  if (days < 365) return `${plural(Math.floor(days / 30), "month")} ago`;
  return `${plural(Math.floor(days / 365), "year")} ago`;
}
