import { describe, expect, it } from "vitest";
import { invitedRecently, outreachOutcome, overMemberLimit, reminderAllowed, OUTREACH_MESSAGES } from "../../app/domain/outreach";

const DAY = 24 * 60 * 60 * 1000;
const now = new Date("2026-11-29T12:00:00Z");
const daysAgo = (days: number) => new Date(now.getTime() - days * DAY).toISOString();

describe("what became of an invitation to join", () => {
  it("is derived: approved or registered by its agent, else expired 30 days after its newest link, else opened or sent", () => {
    const row = { createdAt: daysAgo(3), remindedAt: undefined, openedAt: undefined, agentId: undefined };
    expect(outreachOutcome(row, undefined, now)).toBe("sent");
    expect(outreachOutcome({ ...row, openedAt: daysAgo(2) }, undefined, now)).toBe("opened");
    expect(outreachOutcome({ ...row, agentId: "a1" }, { status: "pending" }, now)).toBe("registered");
    expect(outreachOutcome({ ...row, agentId: "a1" }, { status: "approved" }, now)).toBe("approved");
    expect(outreachOutcome({ ...row, createdAt: daysAgo(31), openedAt: daysAgo(30) }, undefined, now)).toBe("expired");
    expect(outreachOutcome({ ...row, createdAt: daysAgo(31), remindedAt: daysAgo(20) }, undefined, now)).toBe("sent");
  });
});

describe("the rules of inviting", () => {
  it("allows one reminder, 7 days on, before the colleague registers", () => {
    expect(reminderAllowed({ createdAt: daysAgo(6.9), remindedAt: undefined, agentId: undefined }, now)).toBe(false);
    expect(reminderAllowed({ createdAt: daysAgo(7), remindedAt: undefined, agentId: undefined }, now)).toBe(true);
    expect(reminderAllowed({ createdAt: daysAgo(9), remindedAt: daysAgo(1), agentId: undefined }, now)).toBe(false);
    expect(reminderAllowed({ createdAt: daysAgo(9), remindedAt: undefined, agentId: "a1" }, now)).toBe(false);
  });

  it("reaches an address once in 30 days, counting reminders", () => {
    expect(invitedRecently([{ createdAt: daysAgo(31), remindedAt: undefined }], now)).toBe(false);
    expect(invitedRecently([{ createdAt: daysAgo(29), remindedAt: undefined }], now)).toBe(true);
    expect(invitedRecently([{ createdAt: daysAgo(40), remindedAt: daysAgo(5) }], now)).toBe(true);
  });

  it("holds a member to 20 a day and 100 in 30 days", () => {
    expect(overMemberLimit(Array(19).fill(daysAgo(0.5)), 1, now)).toBeUndefined();
    expect(overMemberLimit(Array(19).fill(daysAgo(0.5)), 2, now)).toBe(OUTREACH_MESSAGES.overDailyLimit);
    expect(overMemberLimit(Array(99).fill(daysAgo(10)), 1, now)).toBeUndefined();
    expect(overMemberLimit(Array(100).fill(daysAgo(10)), 1, now)).toBe(OUTREACH_MESSAGES.overMonthlyLimit);
    expect(overMemberLimit(Array(100).fill(daysAgo(31)), 1, now)).toBeUndefined();
  });
});
