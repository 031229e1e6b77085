/**
 * The weekly digest's rules (docs/product.md#weekly-digest, docs/decisions/0029): when a week's digest is due
 * and which requests a member's digest lists. Pure; the job is app/server/jobs/weekly-digest.server.ts.
 */
import { isLive } from "./referral-requests/expiry";
import { requestListSearch } from "./referral-requests/list-query";
import type { MarketState } from "./enums";
import type { Agent, ReferralRequest } from "./workbook/tabs";

const DIGEST_TIME_ZONE = "America/Chicago";
const DIGEST_HOUR = 8;
/** Requests listed in one digest; the mail links to the rest. */
export const DIGEST_LIMIT = 10;
const DAY_MS = 86_400_000;

const zoneFormat = new Intl.DateTimeFormat("en-US", {
  timeZone: DIGEST_TIME_ZONE,
  hourCycle: "h23",
  year: "numeric",
  month: "numeric",
  day: "numeric",
  hour: "numeric",
  minute: "numeric",
  second: "numeric",
});

/** The wall clock in Chicago at an instant, as if it were UTC (so date arithmetic is plain). */
function chicagoWallClock(instant: number): number {
  const parts = Object.fromEntries(zoneFormat.formatToParts(instant).map((part) => [part.type, Number(part.value)]));
  return Date.UTC(parts.year!, parts.month! - 1, parts.day!, parts.hour!, parts.minute!, parts.second!);
}

/**
 * The instant Chicago's clock reads `wallClock` (given as if UTC). Only ever asked for 8:00,
 * which DST changes (at 2:00) never skip or repeat, so the offset at a guess an hour or so
 * off is already the right one after one correction.
 */
function chicagoInstant(wallClock: number): number {
  let instant = wallClock;
  for (let i = 0; i < 2; i += 1) instant = wallClock - (chicagoWallClock(instant) - instant);
  return instant;
}

export type DigestWeek = {
  /** The Monday's date in Chicago, YYYY-MM-DD: names the week in the claims' keys. */
  week: string;
  /** Monday 8:00 Central: when this week's digest is due. */
  dueAt: Date;
  /** The Monday 8:00 Central a week before: the digest lists requests posted from then until `dueAt`. */
  since: Date;
};

/**
 * The latest Monday 8:00 America/Chicago at or before `now`: the week whose digest is due.
 * It stays due until the next Monday 8:00, so a run missed while no instance was up is sent
 * when one comes back within the week. Central time's DST changes make a week 167 or 169
 * hours long; both ends are worked out on Chicago's clock.
 */
export function digestWeekDue(now: Date): DigestWeek {
  const wall = chicagoWallClock(now.getTime());
  const today = Math.floor(wall / DAY_MS) * DAY_MS;
  const sinceMonday = (new Date(today).getUTCDay() + 6) % 7;
  let monday = today - sinceMonday * DAY_MS;
  if (wall < monday + DIGEST_HOUR * 3_600_000) monday -= 7 * DAY_MS;
  return {
    week: new Date(monday).toISOString().slice(0, 10),
    dueAt: new Date(chicagoInstant(monday + DIGEST_HOUR * 3_600_000)),
    since: new Date(chicagoInstant(monday - 7 * DAY_MS + DIGEST_HOUR * 3_600_000)),
  };
}

type Reader = Pick<Agent, "email" | "state" | "specialties">;

const marketKey = (text: string) => text.trim().toLowerCase();

/** A request of the week with what the selection compares worked out once. */
type WeekRequest = { request: ReferralRequest; postedAt: number; order: number; author: string };

/** One state's requests of the week: all of them, and by specialty; each list newest first. */
type MarketGroup = { all: readonly WeekRequest[]; bySpecialty: ReadonlyMap<string, readonly WeekRequest[]> };

/**
 * The requests a week's digests can list, grouped by market: built in one pass over the
 * requests per run, so each member's digest looks only at their own state's few.
 */
export type WeekRequests = ReadonlyMap<string, MarketGroup>;

const newestFirst = (a: WeekRequest, b: WeekRequest) => b.postedAt - a.postedAt || a.order - b.order;

/**
 * The requests posted in the week before `week.dueAt` that are still live at `now` and not
 * left out (hidden by staff, or by a suspended author), grouped by state and specialty.
 */
export function weekRequests(
  requests: readonly ReferralRequest[],
  week: DigestWeek,
  now: Date,
  leftOut: (request: ReferralRequest) => boolean = () => false,
): WeekRequests {
  const from = week.since.getTime();
  const until = week.dueAt.getTime();
  const byState = new Map<string, WeekRequest[]>();
  requests.forEach((request, order) => {
    const postedAt = Date.parse(request.createdAt);
    if (!(postedAt >= from && postedAt < until) || !isLive(request, now) || leftOut(request)) return;
    const state = request.state.trim().toUpperCase();
    const group = byState.get(state) ?? [];
    group.push({ request, postedAt, order, author: request.agentEmail.trim().toLowerCase() });
    byState.set(state, group);
  });
  const markets = new Map<string, MarketGroup>();
  for (const [state, group] of byState) {
    group.sort(newestFirst);
    const bySpecialty = new Map<string, WeekRequest[]>();
    for (const item of group) {
      const specialty = marketKey(item.request.specialty);
      const list = bySpecialty.get(specialty) ?? [];
      list.push(item);
      bySpecialty.set(specialty, list);
    }
    markets.set(state, { all: group, bySpecialty });
  }
  return markets;
}

export type DigestSelection = {
  /** At most DIGEST_LIMIT, newest first. */
  requests: ReferralRequest[];
  /** All that matched, for "and N more". */
  total: number;
  /** The requests page filtered as closely as its filters allow (state, and the specialty when the member has one). */
  listPath: string;
};

/** The week's requests in the member's state and, when they listed specialties, one of them; newest first. */
function inMarket(week: WeekRequests, member: Reader): readonly WeekRequest[] {
  const group = week.get(member.state.trim().toUpperCase());
  if (!group) return [];
  if (member.specialties.length === 0) return group.all;
  const specialties = new Set(member.specialties.map(marketKey));
  return [...specialties].flatMap((specialty) => group.bySpecialty.get(specialty) ?? []).sort(newestFirst);
}

/**
 * A member's digest from the week's requests: those in their market, not their own and
 * not by a member in `hiddenAuthors` (blocked either way); newest first.
 */
export function memberDigest(week: WeekRequests, member: Reader, hiddenAuthors: ReadonlySet<string> = new Set()): DigestSelection {
  const email = member.email.trim().toLowerCase();
  const matching = inMarket(week, member).filter(({ author }) => author !== email && !hiddenAuthors.has(author));
  const specialty = member.specialties.length === 1 ? member.specialties[0] : undefined;
  return {
    requests: matching.slice(0, DIGEST_LIMIT).map(({ request }) => request),
    total: matching.length,
    listPath: `/referral-requests${requestListSearch({ state: member.state as MarketState, specialty })}`,
  };
}
