import { describe, expect, it } from "vitest";
import {
  deadlineLabel,
  hoursLeft,
  inviteAllLabel,
  isReminderDue,
  offerSize,
  reminderDueAt,
  respondByAfterEdit,
  respondByAt,
  sentInLastDay,
} from "../../app/domain/invitations";
import { prunableClaims } from "../../app/domain/send-claims";

const HOUR = 60 * 60 * 1000;
const NOW = new Date("2026-11-27T15:00:00.000Z");
const later = (hours: number) => new Date(NOW.getTime() + hours * HOUR);

describe("Respond by", () => {
  it("falls due the given hours from now, and the edit form shows the whole hours left", () => {
    expect(respondByAt(24, NOW)).toBe("2026-11-28T15:00:00.000Z");
    expect(hoursLeft(respondByAt(24, NOW), later(0.5))).toBe(24);
    expect(hoursLeft(respondByAt(24, NOW), later(23.5))).toBe(1);
    expect(hoursLeft(respondByAt(24, NOW), later(24))).toBeUndefined();
    expect(hoursLeft(undefined, NOW)).toBeUndefined();
  });

  it("stays put when an edit sends back the hours shown, moves when they change, and goes when blank", () => {
    const current = respondByAt(10, NOW);
    expect(respondByAfterEdit(current, 8, later(2))).toBe(current);
    expect(respondByAfterEdit(current, 12, later(2))).toBe(later(14).toISOString());
    expect(respondByAfterEdit(current, undefined, later(2))).toBeUndefined();
    expect(respondByAfterEdit(undefined, 5, NOW)).toBe(later(5).toISOString());
  });

  it("reads in Central time", () => {
    expect(deadlineLabel("2026-11-28T15:00:00.000Z")).toBe("Nov 28, 9:00 AM CST");
    expect(deadlineLabel("2026-07-04T15:30:00.000Z")).toBe("Jul 4, 10:30 AM CDT");
  });
});

describe("the reminder", () => {
  it("falls due two hours before the deadline, or with a quarter of a shorter window left", () => {
    expect(reminderDueAt(NOW.toISOString(), later(24).toISOString())).toBe(later(22).getTime());
    expect(reminderDueAt(NOW.toISOString(), later(96).toISOString())).toBe(later(94).getTime());
    expect(reminderDueAt(NOW.toISOString(), later(4).toISOString())).toBe(later(3).getTime());
    expect(reminderDueAt(NOW.toISOString(), later(1).toISOString())).toBe(later(0.75).getTime());
  });

  it("is due from that time until the deadline, never after it", () => {
    const invited = NOW.toISOString();
    const respondBy = later(24).toISOString();
    expect(isReminderDue(invited, respondBy, later(21.99))).toBe(false);
    expect(isReminderDue(invited, respondBy, later(22))).toBe(true);
    expect(isReminderDue(invited, respondBy, later(23.99))).toBe(true);
    expect(isReminderDue(invited, respondBy, later(24))).toBe(false);
    // Invited after the deadline (a request edited since): no reminder.
    expect(isReminderDue(later(30).toISOString(), respondBy, later(31))).toBe(false);
  });
});

describe("how many agents are offered", () => {
  it("is the first five less those invited, then five more once the deadline passed less those invited since, up to fifteen", () => {
    expect(offerSize(0, undefined)).toBe(5);
    expect(offerSize(2, undefined)).toBe(3);
    expect(offerSize(5, undefined)).toBe(0);
    expect(offerSize(7, undefined)).toBe(0);
    expect(offerSize(3, 0)).toBe(5);
    expect(offerSize(5, 0)).toBe(5);
    expect(offerSize(7, 2)).toBe(3);
    expect(offerSize(10, 5)).toBe(0);
    expect(offerSize(12, 0)).toBe(3);
    expect(offerSize(15, 0)).toBe(0);
  });

  it("counts a poster's invitations of the last 24 hours", () => {
    const times = [later(-25), later(-23), later(-1), NOW].map((date) => date.toISOString());
    expect(sentInLastDay(times, NOW)).toBe(3);
  });

  it("says 'Invite all five' for a full round", () => {
    expect(inviteAllLabel(5)).toBe("Invite all five");
    expect(inviteAllLabel(3)).toBe("Invite all 3");
  });
});

describe("the invitations' send claims", () => {
  const facts = { decisionMailed: () => false, lastReminder: () => undefined };
  const claim = (key: string, daysAgo: number) => ({
    id: key,
    key,
    instance: "here",
    outcome: "claimed" as const,
    note: "",
    claimedAt: new Date(NOW.getTime() - daysAgo * 24 * HOUR).toISOString(),
  });

  it("lets a month-old invitation mail or reminder go, and keeps every invitation's own claim", () => {
    const rows = [
      claim("invitation-mail:i1", 31),
      claim("invitation-reminder:i1", 31),
      claim("invitation-mail:i2", 5),
      claim("invitation:r1/a@example.com", 400),
    ];
    expect(prunableClaims(rows, NOW, facts).map((row) => row.key)).toEqual(["invitation-mail:i1", "invitation-reminder:i1"]);
  });
});
