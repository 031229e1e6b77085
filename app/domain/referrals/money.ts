/**
 * Dollar amounts and percentages as people type them ("$1,234.50", "25%") and as the
 * app keeps them: amounts in whole cents, so sums and fees never meet floating-point
 * rounding, percentages as numbers with at most two decimals.
 */

const AMOUNT = /^\$?\s*(\d{1,3}(?:,\d{3})+|\d+)(?:\.(\d{1,2}))?$/;

/** Cents from "$1,234.50", "1234.5" or "1234"; null when the text is not an amount. */
export function parseDollars(text: string): number | null {
  const match = AMOUNT.exec(text.trim());
  if (!match) return null;
  const [, whole = "0", fraction = ""] = match;
  const cents = Number(whole.replace(/,/g, "")) * 100 + Number(fraction.padEnd(2, "0"));
  return Number.isSafeInteger(cents) ? cents : null;
}

/** "$1,234.50" */
export function formatDollars(cents: number): string {
  const dollars = Math.floor(Math.abs(cents) / 100).toLocaleString("en-US");
  const rest = String(Math.abs(cents) % 100).padStart(2, "0");
  return `${cents < 0 ? "-" : ""}$${dollars}.${rest}`;
}

/** "1234.50": what the workbook holds, a plain number staff can sum. */
export function dollarsCell(cents: number): string {
  return `${Math.trunc(cents / 100)}.${String(Math.abs(cents) % 100).padStart(2, "0")}`;
}

const PERCENT = /^(\d{1,3})(?:\.(\d{1,2}))?\s*%?$/;

/** 25 from "25", "25%" or "25.0"; null when the text is not a percentage. */
export function parsePercent(text: string): number | null {
  const match = PERCENT.exec(text.trim());
  if (!match) return null;
  return Number(`${match[1]}.${match[2] ?? "0"}`);
}

/** The referral fee: a share of the receiving side's gross commission, rounded to the cent, or a flat amount. */
export function referralFeeCents(fee: { feePercent?: number; feeFlat?: number }, grossCommissionCents: number): number {
  if (fee.feeFlat !== undefined) return fee.feeFlat;
  // In whole basis points: 20.15 has no exact binary form, and 20.15% of $1,010.00 worked out
  // in floating point falls a hair under $203.515 and would round down. Exact below 2^53.
  const basisPoints = Math.round((fee.feePercent ?? 0) * 100);
  return Math.floor((grossCommissionCents * basisPoints + 5_000) / 10_000);
}
