import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { dollarsCell, formatDollars, parseDollars, parsePercent, referralFeeCents } from "../../app/domain/referrals/money";

describe("parseDollars", () => {
  it.each([
    ["$1,234.50", 123_450],
    ["1234.5", 123_450],
    ["1234", 123_400],
    ["$ 1,250.00", 125_000],
    ["0.99", 99],
    ["  42  ", 4_200],
    ["1,000,000", 100_000_000],
  ])("reads %j as %i cents", (text, cents) => {
    expect(parseDollars(text)).toBe(cents);
  });

  it.each(["12.345", "abc", "-5", "-$5.00", "$-5", "", "1,23", "12,3456", "1.2.3", "$", "1e5", "12.", "NaN", "Infinity"])(
    "refuses %j",
    (text) => {
      expect(parseDollars(text)).toBeNull();
    },
  );

  it("refuses an amount too large to count in cents exactly", () => {
    expect(parseDollars("99999999999999999999")).toBeNull();
  });
});

describe("formatDollars and dollarsCell", () => {
  it("shows cents as dollars with the thousands separated", () => {
    expect(formatDollars(123_450)).toBe("$1,234.50");
    expect(formatDollars(5)).toBe("$0.05");
    expect(formatDollars(0)).toBe("$0.00");
    expect(formatDollars(-1_999)).toBe("-$19.99");
  });

  it("writes a plain number staff can sum, which reads back as the same cents", () => {
    for (const cents of [0, 5, 99, 100, 123_450, 100_000_000]) {
      expect(dollarsCell(cents)).toMatch(/^\d+\.\d{2}$/);
      expect(parseDollars(dollarsCell(cents))).toBe(cents);
    }
  });
});

describe("parsePercent", () => {
  it.each([
    ["25", 25],
    ["25%", 25],
    ["25.0", 25],
    ["12.5 %", 12.5],
    ["33.33", 33.33],
  ])("reads %j as %d", (text, percent) => {
    expect(parsePercent(text)).toBe(percent);
  });

  it.each(["abc", "-5", "12.345", "", "%", "1e1"])("refuses %j", (text) => {
    expect(parsePercent(text)).toBeNull();
  });
});

describe("referralFeeCents", () => {
  it("takes the percentage of the gross commission", () => {
    expect(referralFeeCents({ feePercent: 25 }, 900_000)).toBe(225_000);
  });

  it("rounds to the nearest cent, half a cent up", () => {
    // 25% of $100.01 is $25.0025: 2,500.25 cents.
    expect(referralFeeCents({ feePercent: 25 }, 10_001)).toBe(2_500);
    // 25% of $100.02 is 2,500.5 cents.
    expect(referralFeeCents({ feePercent: 25 }, 10_002)).toBe(2_501);
    // 33.33% of $7,777.77 is 259,233.07... cents.
    expect(referralFeeCents({ feePercent: 33.33 }, 777_777)).toBe(259_233);
  });

  it("rounds half a cent up even where the percentage has no exact binary form", () => {
    // 20.15% of $1,010.00 is $203.515; 20.15 * 101000 in floating point is a hair under 2,035,150.
    expect(referralFeeCents({ feePercent: 20.15 }, 101_000)).toBe(20_352);
    expect(referralFeeCents({ feePercent: 1.15 }, 3_000)).toBe(35);
  });

  it("matches whole-number arithmetic in basis points for every percentage of 1 to 50 with two decimals", () => {
    fc.assert(
      fc.property(fc.integer({ min: 100, max: 5_000 }), fc.integer({ min: 0, max: 10_000_000_000 }), (basisPoints, grossCents) => {
        const exact = (BigInt(grossCents) * BigInt(basisPoints) + 5_000n) / 10_000n;
        expect(referralFeeCents({ feePercent: basisPoints / 100 }, grossCents)).toBe(Number(exact));
      }),
      { numRuns: 20_000 },
    );
  });

  it("takes a flat fee as it is, whatever the commission", () => {
    expect(referralFeeCents({ feeFlat: 150_000 }, 900_000)).toBe(150_000);
    expect(referralFeeCents({ feeFlat: 150_000, feePercent: 25 }, 0)).toBe(150_000);
  });

  it("is zero on no commission", () => {
    expect(referralFeeCents({ feePercent: 25 }, 0)).toBe(0);
  });
});
