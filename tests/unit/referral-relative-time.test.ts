import { describe, expect, it } from "vitest";
import { relativeTime } from "../../app/domain/relative-time";

const NOW = new Date("2026-03-10T12:00:00.000Z");
const before = (ms: number) => new Date(NOW.getTime() - ms).toISOString();
const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

describe("relative time", () => {
  it.each([
    [0, "Just now"],
    [59_000, "Just now"],
    [MINUTE, "1 minute ago"],
    [45 * MINUTE, "45 minutes ago"],
    [HOUR, "1 hour ago"],
    [23 * HOUR, "23 hours ago"],
    [DAY, "1 day ago"],
    [6 * DAY, "6 days ago"],
    [7 * DAY, "1 week ago"],
    [29 * DAY, "4 weeks ago"],
    [45 * DAY, "1 month ago"],
    [400 * DAY, "1 year ago"],
  ])("%d ms ago reads %s", (elapsed, words) => {
    expect(relativeTime(before(elapsed), NOW)).toBe(words);
  });

  it("reads a time slightly ahead of the clock, or an unreadable one, as just now", () => {
    expect(relativeTime(new Date(NOW.getTime() + 5000).toISOString(), NOW)).toBe("Just now");
    expect(relativeTime("not a date", NOW)).toBe("Just now");
  });
});
