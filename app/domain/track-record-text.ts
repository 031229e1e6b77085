/**
 * How the track record's figures read on the profile's card and the directory's cards:
 * below `MIN_CASES` a rate or a median is named as too few rather than shown.
 */
import { OREC_CHECK } from "./license-check";
import { countOf } from "./count-labels";
import { MIN_CASES, type Median, type Rate, type TrackRecord } from "./track-record";

const HOUR_MS = 3_600_000;

/** "3 of 4 (75%)", or "2 referrals: too few for a rate", or "None yet". */
export function rateText(rate: Rate, one: string, many = `${one}s`): string {
  if (rate.of === 0) return "None yet";
  if (rate.of < MIN_CASES) return `${countOf(rate.of, one, many)}: too few for a rate`;
  return `${rate.part} of ${rate.of} (${Math.round((rate.part / rate.of) * 100)}%)`;
}

/** "about 5 hours" for under two days, "about 3 days" past that; at least "about 1 hour". */
export function durationText(ms: number): string {
  const hours = Math.max(1, Math.round(ms / HOUR_MS));
  if (hours < 48) return `about ${countOf(hours, "hour")}`;
  return `about ${countOf(Math.round(hours / 24), "day")}`;
}

/** "about 5 hours (median of 7)", or "2 replies: too few for a median", or "None yet". */
export function medianText(median: Median, one: string, many = `${one}s`): string {
  if (median.count === 0 || median.ms === undefined) return "None yet";
  if (median.count < MIN_CASES) return `${countOf(median.count, one, many)}: too few for a median`;
  return `${durationText(median.ms)} (median of ${median.count})`;
}

/** The directory card's line, from the last 12 months' first replies: only with `MIN_CASES` of them. */
export function replyTimeLabel(record: TrackRecord | undefined): string | null {
  const reply = record?.last12Months.firstReply;
  if (!reply || reply.ms === undefined || reply.count < MIN_CASES) return null;
  return `Replies in ${durationText(reply.ms)}`;
}

/** What a directory card shows of an agent's track record: the stars once reviews are published, the reply time once there are enough replies. */
export type CardFigures = { stars: { average: number; count: number } | null; replyTime: string | null };

/** The directories' orders besides their own (by name, or by best match to the search). */
export const DIRECTORY_SORTS = ["track-record"] as const;
export type DirectorySort = (typeof DIRECTORY_SORTS)[number];

export const SORT_OPTIONS: readonly { value: DirectorySort; label: string }[] = [{ value: "track-record", label: "Best track record" }];

/** The member directory's own order, named in its Sort by: nearest first while a place is set, else by name. */
export function memberDirectoryOwnOrder(nearPlaceSet: boolean): string {
  return nearPlaceSet ? "Distance" : "Name";
}

/** "4.8 stars from 12 reviews". */
export function starsLabel(average: number, count: number): string {
  return `${average.toFixed(1)} stars from ${countOf(count, "review")}`;
}

const dayFormat = new Intl.DateTimeFormat("en-US", { month: "long", day: "numeric", year: "numeric", timeZone: "America/Chicago" });

/** "November 21, 2026", on Central time like the rest of the site; "" for a time that does not read. */
export function dayLabel(iso: string | undefined): string {
  const ms = iso ? Date.parse(iso) : Number.NaN;
  return Number.isNaN(ms) ? "" : dayFormat.format(ms);
}

/**
 * The track record's License check, read by other members: the verdict with the day it ran.
 * An Oklahoma license's verdict is staff's to-do ("check OREC"); a member others see was
 * approved, so staff searched OREC before approving: said as that fact, not as an instruction.
 */
export function licenseCheckLine(check: { result: string; checkedAt: string | undefined } | undefined): string {
  if (check === undefined) return "Not checked yet";
  if (check.result === OREC_CHECK) return "Checked by staff in OREC's license search before approval";
  const day = dayLabel(check.checkedAt);
  return day === "" ? check.result : `${check.result} (${day})`;
}

/** Where the card's "How these are counted" link leads. */
export const TRACK_RECORD_NOTE_PATH = "/track-record";
