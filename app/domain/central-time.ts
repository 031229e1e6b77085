/**
 * Times a person acts by, on Central time where the network is (Texas and Oklahoma), with
 * the zone named so nobody elsewhere reads them as their own.
 */
const CLOCK = { hour: "numeric", minute: "2-digit", timeZone: "America/Chicago", timeZoneName: "short" } as const;
const WITHIN_DAYS = new Intl.DateTimeFormat("en-US", { month: "short", day: "numeric", ...CLOCK });
const ANY_DAY = new Intl.DateTimeFormat("en-US", { month: "short", day: "numeric", year: "numeric", ...CLOCK });

/** "Nov 28, 9:00 AM CST": a time within the next few days, whose year goes without saying. */
export function centralTimeSoon(iso: string): string {
  return WITHIN_DAYS.format(new Date(iso));
}

/** "Dec 5, 2026, 3:00 PM CST": a time with its year. */
export function centralTime(iso: string): string {
  return ANY_DAY.format(new Date(iso));
}
