import { describe, expect, it } from "vitest";
import type { ReviewSummary } from "~/domain/reviews";
import type { Rate } from "~/domain/track-record";
import { compareRanks, networkCloseRate, trackRecordRanks } from "~/domain/track-record-ranking";

/** The agents' e-mails in "Best track record" order, ties in the order given. */
function ranked(agents: { email: string; reviews?: ReviewSummary; closeRate?: Rate }[]): string[] {
  const closeRates = new Map(agents.map((agent) => [agent.email, agent.closeRate ?? { part: 0, of: 0 }]));
  const summaries = new Map(agents.flatMap((agent) => (agent.reviews ? [[agent.email, agent.reviews] as const] : [])));
  const ranks = trackRecordRanks(closeRates, summaries);
  return [...agents]
    .map((agent, order) => ({ email: agent.email, order }))
    .sort((a, b) => compareRanks(ranks.get(a.email)!, ranks.get(b.email)!) || a.order - b.order)
    .map((agent) => agent.email);
}

describe("the Best track record order", () => {
  it("does not put one 5-star review above twenty 4.8s in a network whose reviews average near 4.3", () => {
    const others = { email: "others", reviews: { count: 30, total: 120 } };
    expect(
      ranked([{ email: "one-five", reviews: { count: 1, total: 5 } }, { email: "twenty", reviews: { count: 20, total: 96 } }, others]),
    ).toEqual(["twenty", "one-five", "others"]);
  });

  it("puts a member with no reviews at the network's mean: below good reviews, above poor ones", () => {
    const ranks = trackRecordRanks(
      new Map([
        ["none", { part: 0, of: 0 }],
        ["good", { part: 0, of: 0 }],
        ["poor", { part: 0, of: 0 }],
      ]),
      new Map([
        ["good", { count: 10, total: 50 }],
        ["poor", { count: 10, total: 20 }],
      ]),
    );
    expect(ranks.get("none")!.stars).toBeCloseTo(70 / 20);
    expect(
      ranked([
        { email: "none" },
        { email: "poor", reviews: { count: 10, total: 20 } },
        { email: "good", reviews: { count: 10, total: 50 } },
      ]),
    ).toEqual(["good", "none", "poor"]);
  });

  it("breaks equal stars by the close rate, pulled toward the network's so two of two does not beat nine of ten", () => {
    expect(
      ranked([
        { email: "two-of-two", closeRate: { part: 2, of: 2 } },
        { email: "nine-of-ten", closeRate: { part: 9, of: 10 } },
        { email: "one-of-five", closeRate: { part: 1, of: 5 } },
      ]),
    ).toEqual(["nine-of-ten", "two-of-two", "one-of-five"]);
  });

  it("keeps the given order among equal ranks", () => {
    expect(ranked([{ email: "b" }, { email: "a" }, { email: "c" }])).toEqual(["b", "a", "c"]);
  });

  it("takes the network close rate over every ended referral, with a fallback when none ended", () => {
    expect(
      networkCloseRate([
        { part: 1, of: 2 },
        { part: 3, of: 6 },
        { part: 0, of: 0 },
      ]),
    ).toBe(0.5);
    expect(networkCloseRate([], 0.4)).toBe(0.4);
  });
});
