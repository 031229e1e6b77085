import { describe, expect, it } from "vitest";
import { feeSumText } from "../../app/domain/referrals/overview";

describe("a sum of referral fees as it reads", () => {
  it("reads as not yet known, never $0.00, when no fee of the sum is known", () => {
    expect(feeSumText({ cents: 0, known: 0, unknown: 3 })).toEqual({ value: "Not yet known", note: "for 3 referrals" });
    expect(feeSumText({ cents: 0, known: 0, unknown: 1 })).toEqual({ value: "Not yet known", note: "for 1 referral" });
  });

  it("adds up only the fees known and counts the others beside", () => {
    expect(feeSumText({ cents: 225_000, known: 1, unknown: 2 })).toEqual({ value: "$2,250.00", note: "+ 2 not yet known" });
    expect(feeSumText({ cents: 225_000, known: 2, unknown: 0 })).toEqual({ value: "$2,250.00" });
  });

  it("says none when there is no fee to add, and $0.00 only for fees that are zero", () => {
    expect(feeSumText({ cents: 0, known: 0, unknown: 0 })).toEqual({ value: "None" });
    expect(feeSumText({ cents: 0, known: 1, unknown: 0 })).toEqual({ value: "$0.00" });
  });
});
