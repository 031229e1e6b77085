import { describe, expect, it } from "vitest";
import { likelyMistypedNotesForParties, likelyMistypedFee, likelyMistypedValues } from "~/domain/referrals/mistyped-values";

/** A referral made on 2026-11-20 that closed at $450,000 with a 25% fee. */
const closed = {
  createdAt: "2026-11-20T12:00:00.000Z",
  feeType: "percent" as const,
  salePrice: 45_000_000,
  grossCommission: 1_350_000,
  feeAmount: 337_500,
};
/** 12/1/2026 typed into the commission cell: the sheet keeps 46357. */
const DATE_AS_COMMISSION = 4_635_700;

describe("a fee that rests on a doubted commission", () => {
  it("is doubted on the page and in the lists, stored at closing or worked out", () => {
    const stored = { ...closed, grossCommission: DATE_AS_COMMISSION, feeAmount: 1_158_925 };
    expect(likelyMistypedValues(stored).feeAmount).toBe("is worked out from a gross commission that looks wrong");
    expect(likelyMistypedFee(stored)).toBe("is worked out from a gross commission that looks wrong");
    expect(likelyMistypedFee({ ...stored, feeAmount: undefined })).toBe("is worked out from a gross commission that looks wrong");
  });

  it("is not doubted when the fee is flat, or when nothing is in doubt", () => {
    expect(likelyMistypedFee({ ...closed, feeType: "flat", grossCommission: DATE_AS_COMMISSION, feeAmount: undefined })).toBeNull();
    expect(likelyMistypedFee(closed)).toBeNull();
    expect(likelyMistypedNotesForParties(closed)).toBe("");
  });

  it("is told to the parties by each figure's label", () => {
    expect(likelyMistypedNotesForParties({ ...closed, grossCommission: DATE_AS_COMMISSION, feeAmount: undefined })).toBe(
      "Gross commission looks like the date 2026-12-01 typed into a money column; Fee is worked out from a gross commission that looks wrong. Staff have been told.",
    );
  });
});
