import { describe, expect, it } from "vitest";
import { computeTrackRecords, conversationOpenings, feeDueDays, type TrackRecordRows } from "~/domain/track-record";
import { durationText, medianText, rateText, replyTimeLabel } from "~/domain/track-record-text";
import type { Message, Referral, ReferralEvent } from "~/domain/workbook/tabs";
import { agentRecord, referralRecord } from "../support/records";

const NOW = new Date("2026-11-27T12:00:00.000Z");
const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const at = (ms: number) => new Date(ms).toISOString();
const daysAgo = (days: number) => at(NOW.getTime() - days * DAY);

const ana = agentRecord({ fullName: "Ana Ruiz", email: "ana@example.com", createdAt: "2025-03-01T15:00:00.000Z" });
const ben = agentRecord({ fullName: "Ben Cole", email: "ben@example.com" });
const cy = agentRecord({ fullName: "Cy Park", email: "cy@example.com" });

/** A referral Ana sent to Ben, created `days` ago, with `fields` over it. */
function referral(days: number, fields: Partial<Referral> = {}): Referral {
  return referralRecord(ana, ben, { createdAt: daysAgo(days), signedAt: daysAgo(days), ...fields });
}

function event(referralId: string, step: string, byEmail: string, createdAt: string): ReferralEvent {
  return { id: `${referralId}-${step}-${createdAt}`, referralId, step, byEmail, note: "", createdAt };
}

function message(conversationId: string, fromEmail: string, toEmail: string, createdAt: string): Message {
  return { id: `${conversationId}-${createdAt}-${fromEmail}`, conversationId, fromEmail, toEmail, text: "Hello", createdAt };
}

function records({ messages = [], ...rows }: Partial<Omit<TrackRecordRows, "openings">> & { messages?: readonly Message[] }) {
  return computeTrackRecords(
    { agents: [ana, ben, cy], referrals: [], referralEvents: [], openings: conversationOpenings(messages), ...rows },
    NOW,
  );
}

describe("referral counts", () => {
  it("counts sent for the referring side and received for the receiving side, in each window", () => {
    const result = records({ referrals: [referral(10), referral(400), referralRecord(ben, ana, { createdAt: daysAgo(20) })] });
    expect(result.get(ana.email)!.last12Months).toMatchObject({ sent: 1, received: 1 });
    expect(result.get(ana.email)!.allTime).toMatchObject({ sent: 2, received: 1 });
    expect(result.get(ben.email)!.allTime).toMatchObject({ sent: 1, received: 2 });
    expect(result.get(cy.email)!.allTime).toMatchObject({ sent: 0, received: 0, closed: 0 });
  });

  it("counts open now: signed deals not yet closed, lost or expired, for both parties", () => {
    const result = records({
      referrals: [
        referral(5, { status: "signed" }),
        referral(5, { status: "under_contract" }),
        referral(5, { status: "proposed" }),
        referral(5, { status: "closed" }),
        referral(5, { status: "lost" }),
      ],
    });
    expect(result.get(ana.email)!.openNow).toBe(2);
    expect(result.get(ben.email)!.openNow).toBe(2);
  });
});

describe("close rate of signed referrals", () => {
  const closed = (days: number, status: Referral["status"] = "closed") => referral(days + 30, { status, closeDate: daysAgo(days) });

  it("is closed over signed-and-ended; declined and withdrawn proposals were never signed and do not count", () => {
    const result = records({
      referrals: [
        closed(10),
        closed(20, "fee_paid"),
        closed(30, "fee_received"),
        referral(40, { status: "lost", updatedAt: daysAgo(5) }),
        referral(40, { status: "declined" }),
        referral(40, { status: "withdrawn" }),
        referral(40, { status: "under_contract" }),
      ],
    });
    const figures = result.get(ana.email)!.last12Months;
    expect(figures.closed).toBe(3);
    expect(figures.closeRate).toEqual({ part: 3, of: 4 });
    expect(rateText(figures.closeRate, "referral")).toBe("3 of 4 (75%)");
  });

  it("says too few below three ended referrals, never 100%", () => {
    const figures = records({ referrals: [closed(10), closed(12)] }).get(ana.email)!.last12Months;
    expect(figures.closeRate).toEqual({ part: 2, of: 2 });
    expect(rateText(figures.closeRate, "referral")).toBe("2 referrals: too few for a rate");
    expect(rateText({ part: 0, of: 0 }, "referral")).toBe("None yet");
  });

  it("counts a referral in the window its deal ended in, by the close date or the step's time", () => {
    const oldButClosedLately = referral(500, { status: "closed", closeDate: daysAgo(3) });
    const expiredLongAgo = referral(800, { status: "expired" });
    const result = records({
      referrals: [oldButClosedLately, expiredLongAgo],
      referralEvents: [event(expiredLongAgo.id, "expired", "", daysAgo(420))],
    });
    expect(result.get(ana.email)!.last12Months.closeRate).toEqual({ part: 1, of: 1 });
    expect(result.get(ana.email)!.allTime.closeRate).toEqual({ part: 1, of: 2 });
  });

  it("follows a status staff corrected in the sheet", () => {
    const rows = [closed(10), closed(11), referral(40, { status: "under_contract" })];
    expect(records({ referrals: rows }).get(ana.email)!.allTime.closeRate).toEqual({ part: 2, of: 2 });
    const corrected = rows.map((row, i) =>
      i === 0 ? { ...row, status: "lost" as const } : i === 2 ? { ...row, status: "closed" as const } : row,
    );
    const after = records({ referrals: corrected }).get(ana.email)!.allTime;
    expect(after.closeRate).toEqual({ part: 2, of: 3 });
    expect(after.closed).toBe(2);
  });
});

describe("median time to first reply", () => {
  it("measures conversations another member started, from their first message to the agent's first answer", () => {
    const t0 = NOW.getTime() - 30 * DAY;
    const result = records({
      messages: [
        message("c1", ben.email, ana.email, at(t0)),
        message("c1", ben.email, ana.email, at(t0 + HOUR)),
        message("c1", ana.email, ben.email, at(t0 + 2 * HOUR)),
        message("c1", ana.email, ben.email, at(t0 + 9 * HOUR)),
        message("c2", cy.email, ana.email, at(t0)),
        message("c2", ana.email, cy.email, at(t0 + 4 * HOUR)),
        message("c3", cy.email, ana.email, at(t0)),
        message("c3", ana.email, cy.email, at(t0 + 6 * HOUR)),
        // Ana started this one: Ben's answer is Ben's reply time, not Ana's.
        message("c4", ana.email, ben.email, at(t0)),
        message("c4", ben.email, ana.email, at(t0 + 50 * HOUR)),
        // Not answered: counted as a conversation, not in the median.
        message("c5", ben.email, ana.email, at(t0)),
      ],
    });
    const figures = result.get(ana.email)!.last12Months;
    expect(figures.conversations).toBe(4);
    expect(figures.firstReply).toEqual({ count: 3, ms: 4 * HOUR });
    expect(medianText(figures.firstReply, "reply", "replies")).toBe("about 4 hours (median of 3)");
    expect(replyTimeLabel(result.get(ana.email))).toBe("Replies in about 4 hours");
    expect(result.get(ben.email)!.allTime.firstReply).toEqual({ count: 1, ms: 50 * HOUR });
    expect(medianText(result.get(ben.email)!.allTime.firstReply, "reply", "replies")).toBe("1 reply: too few for a median");
    expect(replyTimeLabel(result.get(ben.email))).toBeNull();
  });

  it("reads the rows in any order", () => {
    const t0 = NOW.getTime() - DAY;
    const rows = [message("c1", ana.email, ben.email, at(t0 + 3 * HOUR)), message("c1", ben.email, ana.email, at(t0))];
    expect(records({ messages: rows }).get(ana.email)!.allTime.firstReply).toEqual({ count: 1, ms: 3 * HOUR });
  });
});

describe("median time to answer a proposal", () => {
  it("runs from the proposal to the other party's acceptance or decline", () => {
    const proposals = [referral(50), referral(50), referral(50, { status: "declined" }), referral(50, { status: "proposed" })];
    const proposedAt = NOW.getTime() - 50 * DAY;
    const events = [
      ...proposals.map((row) => event(row.id, "proposed", ana.email, at(proposedAt))),
      event(proposals[0]!.id, "accepted", ben.email, at(proposedAt + 2 * HOUR)),
      event(proposals[0]!.id, "accepted", ana.email, at(proposedAt + 3 * HOUR)),
      event(proposals[1]!.id, "accepted", ben.email, at(proposedAt + 10 * HOUR)),
      event(proposals[2]!.id, "declined", ben.email, at(proposedAt + 30 * HOUR)),
    ];
    const result = records({ referrals: proposals, referralEvents: events });
    expect(result.get(ben.email)!.last12Months.proposalAnswer).toEqual({ count: 3, ms: 10 * HOUR });
    expect(result.get(ana.email)!.allTime.proposalAnswer).toEqual({ count: 0, ms: undefined });
  });
});

describe("fee paid as agreed", () => {
  /** A deal Ben received that closed `days` ago, its fee due within 10 days. */
  function closedDeal(days: number, fields: Partial<Referral> = {}) {
    return referral(days + 60, { status: "closed", closeDate: daysAgo(days), ...fields });
  }

  it("counts the receiving side's fees that fell due, paid within the agreement's days after closing", () => {
    const onTime = closedDeal(100, { status: "fee_paid" });
    const late = closedDeal(90, { status: "fee_received" });
    const unpaidPastDue = closedDeal(40);
    const notYetDue = closedDeal(3);
    const onTimeLong = closedDeal(80, { status: "fee_paid", feeDue: "within 30 days of closing" });
    const result = records({
      referrals: [onTime, late, unpaidPastDue, notYetDue, onTimeLong],
      referralEvents: [
        event(onTime.id, "fee_paid", ben.email, daysAgo(96)),
        event(late.id, "fee_paid", ben.email, daysAgo(70)),
        event(onTimeLong.id, "fee_paid", ben.email, daysAgo(55)),
      ],
    });
    const figures = result.get(ben.email)!.last12Months;
    expect(figures.feesAsAgreed).toEqual({ part: 2, of: 4 });
    expect(rateText(figures.feesAsAgreed, "fee")).toBe("2 of 4 (50%)");
    expect(figures.closingToPaid).toEqual({ count: 3, ms: 20 * DAY });
    expect(durationText(20 * DAY)).toBe("about 20 days");
    // The referring side owed nothing.
    expect(result.get(ana.email)!.allTime.feesAsAgreed).toEqual({ part: 0, of: 0 });
  });

  it("leaves out a fee staff marked paid without a date, and counts its lateness once staff reopen it", () => {
    const markedInSheet = closedDeal(50, { status: "fee_paid" });
    expect(records({ referrals: [markedInSheet] }).get(ben.email)!.allTime.feesAsAgreed).toEqual({ part: 0, of: 0 });
    const reopened = { ...markedInSheet, status: "closed" as const };
    expect(records({ referrals: [reopened] }).get(ben.email)!.allTime.feesAsAgreed).toEqual({ part: 0, of: 1 });
  });

  it("reads the days from the agreement's fee due text, else ten", () => {
    expect(feeDueDays("Within 10 days after closing or funding")).toBe(10);
    expect(feeDueDays("within 5 business days of funding")).toBe(5);
    expect(feeDueDays("1 day after closing")).toBe(1);
    expect(feeDueDays("at closing, through the title company")).toBe(10);
  });
});

describe("member since and the license check", () => {
  it("come from the Agents row", () => {
    const checked = agentRecord({
      email: "dee@example.com",
      licenseCheck: "TX active, name matches",
      licenseCheckedAt: "2026-10-01T10:00:00.000Z",
    });
    const result = computeTrackRecords({ agents: [ana, checked], referrals: [], referralEvents: [], openings: [] }, NOW);
    expect(result.get(ana.email)).toMatchObject({ memberSince: ana.createdAt, licenseCheck: undefined });
    expect(result.get(checked.email)!.licenseCheck).toEqual({ result: "TX active, name matches", checkedAt: "2026-10-01T10:00:00.000Z" });
  });
});

describe("durations as the card reads them", () => {
  it("rounds to hours under two days and to days past that, never below an hour", () => {
    expect(durationText(10 * 60_000)).toBe("about 1 hour");
    expect(durationText(47 * HOUR)).toBe("about 47 hours");
    expect(durationText(49 * HOUR)).toBe("about 2 days");
  });
});
