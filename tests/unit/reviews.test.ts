import { describe, expect, it } from "vitest";
import {
  aspectsFor,
  isPublished,
  isReviewable,
  networkMean,
  ratedAspects,
  publicationTime,
  publicationTimes,
  publishedReviews,
  reviewStanding,
  reviewSummaries,
  shrunkAverage,
} from "~/domain/reviews";
import { prunableClaims } from "~/domain/send-claims";
import type { Review } from "~/domain/workbook/tabs";
import { claimRecord } from "../support/records";

function review(overrides: Partial<Review>): Review {
  return {
    id: "r1",
    referralId: "ref1",
    reviewerEmail: "a@example.com",
    reviewedEmail: "b@example.com",
    reviewedSide: "receiving",
    overall: 5,
    communication: 5,
    clientCare: 5,
    feeAsAgreed: 5,
    referralQuality: undefined,
    text: "",
    submittedAt: "2026-01-01T00:00:00.000Z",
    updatedAt: undefined,
    reply: undefined,
    repliedAt: undefined,
    status: "visible",
    ...overrides,
  };
}

const first = review({ id: "r1", reviewerEmail: "a@example.com", reviewedEmail: "b@example.com", submittedAt: "2026-01-01T00:00:00.000Z" });
const second = review({
  id: "r2",
  reviewerEmail: "b@example.com",
  reviewedEmail: "a@example.com",
  reviewedSide: "referring",
  submittedAt: "2026-01-05T00:00:00.000Z",
});

describe("double-blind publication", () => {
  it("is nothing while no review is written", () => {
    expect(publicationTime([])).toBeUndefined();
  });

  it("publishes a lone review 14 days after it was written, not before", () => {
    expect(publicationTime([first])).toBe("2026-01-15T00:00:00.000Z");
    expect(isPublished([first], new Date("2026-01-14T23:59:59Z"))).toBe(false);
    expect(isPublished([first], new Date("2026-01-15T00:00:00Z"))).toBe(true);
  });

  it("publishes both at once when the second is written inside the blind period", () => {
    expect(publicationTime([first, second])).toBe(second.submittedAt);
    expect(publishedReviews([first, second], new Date("2026-01-04T00:00:00Z"))).toEqual([]);
    expect(publishedReviews([first, second], new Date("2026-01-05T00:00:00Z")).map((r) => r.id)).toEqual(["r1", "r2"]);
  });

  it("keeps the first 14 days when the second comes later", () => {
    const late = { ...second, submittedAt: "2026-02-01T00:00:00.000Z" };
    expect(publicationTime([first, late])).toBe("2026-01-15T00:00:00.000Z");
  });

  it("leaves hidden reviews out", () => {
    const hidden = { ...second, status: "hidden" as const };
    expect(publishedReviews([first, hidden], new Date("2026-02-01T00:00:00Z")).map((r) => r.id)).toEqual(["r1"]);
  });
});

describe("reviewable referrals", () => {
  it("takes a signed referral that ended, and nothing unsigned or still open", () => {
    expect(isReviewable({ status: "fee_received", signedAt: "2026-01-01T00:00:00Z" })).toBe(true);
    expect(isReviewable({ status: "lost", signedAt: "2026-01-01T00:00:00Z" })).toBe(true);
    expect(isReviewable({ status: "expired", signedAt: "2026-01-01T00:00:00Z" })).toBe(true);
    expect(isReviewable({ status: "closed", signedAt: "2026-01-01T00:00:00Z" })).toBe(false);
    expect(isReviewable({ status: "declined", signedAt: undefined })).toBe(false);
    expect(isReviewable({ status: "lost", signedAt: undefined })).toBe(false);
  });
});

describe("the shrunk ranking", () => {
  it("does not let one 5-star review top many 4.8s", () => {
    const one = { count: 1, total: 5 };
    const many = { count: 20, total: 96 };
    const mean = networkMean([one, many, { count: 10, total: 35 }]);
    expect(shrunkAverage(many, mean)).toBeGreaterThan(shrunkAverage(one, mean));
  });

  it("sums the published overall stars per reviewed member", () => {
    expect(reviewSummaries([first, second, { ...first, id: "r3", overall: 3 }])).toEqual(
      new Map([
        ["b@example.com", { count: 2, total: 8 }],
        ["a@example.com", { count: 1, total: 5 }],
      ]),
    );
  });
});

describe("one member's standing", () => {
  it("shows their own review at once and the other's only once published and visible", () => {
    const blind = reviewStanding([first, second], "b@example.com", new Date("2026-01-04T00:00:00Z"));
    expect(blind).toMatchObject({ published: false, canWrite: true, theirs: undefined });
    expect(blind.mine?.id).toBe("r2");
    const open = reviewStanding([first, second], "b@example.com", new Date("2026-01-05T00:00:00Z"));
    expect(open).toMatchObject({ published: true, canWrite: false, publishedAt: "2026-01-05T00:00:00.000Z" });
    expect(open.theirs?.id).toBe("r1");
    const hidden = reviewStanding([{ ...first, status: "hidden" }, second], "b@example.com", new Date("2026-01-05T00:00:00Z"));
    expect(hidden.theirs).toBeUndefined();
  });

  it("tells a member who has not written nothing of the other's review before publication, not even its time", () => {
    const now = new Date("2026-01-04T00:00:00Z");
    expect(reviewStanding([first], "b@example.com", now)).toEqual(reviewStanding([], "b@example.com", now));
    expect(reviewStanding([first], "b@example.com", now).publishedAt).toBeUndefined();
  });

  it("tells a member who wrote only when their own review publishes at the latest", () => {
    const now = new Date("2026-01-04T00:00:00Z");
    const alone = reviewStanding([first], "a@example.com", now);
    expect(alone).toMatchObject({ published: false, publishedAt: undefined, mineHiddenUntil: "2026-01-15T00:00:00.000Z" });
  });

  it("closes the window for a member who had not written once the other's review is published", () => {
    expect(reviewStanding([first], "b@example.com", new Date("2026-01-14T00:00:00Z"))).toMatchObject({ canWrite: true, theirs: undefined });
    const after = reviewStanding([first], "b@example.com", new Date("2026-01-15T00:00:00Z"));
    expect(after).toMatchObject({ canWrite: false, mine: undefined });
    expect(after.theirs?.id).toBe("r1");
  });

  it("rates the fee for the receiving side and the referral for the referring side", () => {
    expect(aspectsFor("receiving", "fee_received")).toEqual(["communication", "clientCare", "feeAsAgreed"]);
    expect(aspectsFor("referring", "fee_received")).toEqual(["communication", "clientCare", "referralQuality"]);
  });

  it("asks nothing of the fee of a referral that ended with no fee due, and still rates the referral sent", () => {
    for (const endedAs of ["lost", "expired"] as const) {
      expect(aspectsFor("receiving", endedAs)).toEqual(["communication", "clientCare"]);
      expect(aspectsFor("referring", endedAs)).toEqual(["communication", "clientCare", "referralQuality"]);
    }
  });

  it("shows a written review's aspects as it rated them, leaving out one never asked", () => {
    const lost = review({ id: "r9", reviewedSide: "receiving", communication: 5, clientCare: 3, feeAsAgreed: undefined });
    expect(ratedAspects(lost)).toEqual(["communication", "clientCare"]);
    expect(ratedAspects({ ...lost, feeAsAgreed: 4 })).toEqual(["communication", "clientCare", "feeAsAgreed"]);
    expect(reviewSummaries([lost]).get("b@example.com")).toEqual({ count: 1, total: 5 });
  });

  it("gives each referral's publication time", () => {
    const other = review({ id: "r3", referralId: "ref2", submittedAt: "2026-03-01T00:00:00.000Z" });
    expect(publicationTimes([first, second, other])).toEqual(
      new Map([
        ["ref1", "2026-01-05T00:00:00.000Z"],
        ["ref2", "2026-03-15T00:00:00.000Z"],
      ]),
    );
  });
});

describe("the send claims of published reviews", () => {
  const NOW = new Date("2026-11-28T12:00:00Z");
  const claim = (key: string, daysAgo: number) => claimRecord(key, daysAgo, NOW);

  it("lets a month-old notice of a published review go: its publication is long past the notice's cutoff", () => {
    const rows = [claim("review-published:r1", 31), claim("review-published:r2", 5)];
    const facts = { decisionMailed: () => false, lastReminder: () => undefined };
    expect(prunableClaims(rows, NOW, facts).map((row) => row.key)).toEqual(["review-published:r1"]);
  });
});
