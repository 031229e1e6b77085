import { describe, expect, it } from "vitest";
import * as countLabels from "~/domain/count-labels";
import { resultsCountText } from "~/domain/directory-search";

const { countOf, ...labels } = countLabels;

/** What each label says for 0, 1 and 2. */
const EXPECTED: Record<keyof typeof labels, [string, string, string]> = {
  viewAllReferralsLabel: ["Open My Referrals", "View All 1 Referral", "View All 2 Referrals"],
  viewAllLiveRequestsLabel: ["View All 0 Live Requests", "View All 1 Live Request", "View All 2 Live Requests"],
  viewAllConversationsLabel: ["View All 0 Conversations", "View All 1 Conversation", "View All 2 Conversations"],
  newRequestsLabel: ["0 new requests available!", "1 new request available!", "2 new requests available!"],
  requestsLabel: ["0 requests", "1 request", "2 requests"],
  referralsLabel: ["0 referrals", "1 referral", "2 referrals"],
  responsesLabel: ["0 responses", "1 response", "2 responses"],
  expiresInLabel: ["Expires in 0 days", "Expires in 1 day", "Expires in 2 days"],
};

describe("count labels", () => {
  it("names the noun in the singular for 1 and in the plural otherwise, for every label", () => {
    expect(Object.keys(EXPECTED).sort()).toEqual(Object.keys(labels).sort());
    for (const [name, label] of Object.entries(labels)) {
      expect({ name, said: [0, 1, 2].map((count) => label(count)) }).toEqual({ name, said: EXPECTED[name as keyof typeof labels] });
    }
  });

  it("takes an irregular plural", () => {
    expect([0, 1, 2].map((count) => countOf(count, "person", "people"))).toEqual(["0 people", "1 person", "2 people"]);
  });

  it("counts directory results in the number the noun follows", () => {
    const page = (matches: number, total: number) => resultsCountText({ start: 0, end: matches, matches, total, pageCount: 1 }, "agent");
    expect([page(0, 0), page(0, 1), page(1, 1), page(2, 2)]).toEqual([
      "Showing 0 of 0 agents",
      "Showing 0 of 1 agent",
      "Showing 1 of 1 agent",
      "Showing 2 of 2 agents",
    ]);
    expect(resultsCountText({ start: 20, end: 21, matches: 21, total: 40, pageCount: 2 }, "verified agent")).toBe(
      "Showing 21-21 of 21 verified agents",
    );
  });
});
