/**
 * Money and dates of a referral that read but are probably typed wrong in the sheet: a
 * date typed into a money cell (Google keeps 12/1/2026 as the number 46357), a price typed
 * as a fraction or in thousands, a commission over the price. The row is kept as it reads
 * and each doubt is listed for staff and shown beside the value, never silently used.
 */
import { formatDollars } from "./money";

const CHECKED_COLUMNS = ["salePrice", "grossCommission", "feeAmount", "expectedCloseDate", "closeDate"] as const;
export type CheckedColumn = (typeof CHECKED_COLUMNS)[number];

/** The referral's columns checked (spelled out: the Referrals tab's definition uses this module). */
type Checked = {
  readonly feeType?: "percent" | "flat";
  readonly salePrice?: number;
  readonly grossCommission?: number;
  readonly feeAmount?: number;
  readonly expectedCloseDate?: string;
  readonly closeDate?: string;
  readonly createdAt: string;
};

/** A sale under $1,000 is a price typed as a fraction (0.25) or in thousands (450). */
const LOWEST_PRICE_CENTS = 100_000;

/** Why a closing's amounts as a member types them cannot be right, by field; empty when they can. */
export function closingAmountProblems(salePrice: number, grossCommission: number): { salePrice?: string; grossCommission?: string } {
  if (salePrice < LOWEST_PRICE_CENTS)
    return { salePrice: "A sale price is at least $1,000: please enter the whole price in dollars, e.g. 350,000.00" };
  if (grossCommission > salePrice) return { grossCommission: "The gross commission cannot be more than the sale price" };
  return {};
}
const SERIAL_EPOCH_MS = Date.UTC(1899, 11, 30);
const DAY_MS = 86_400_000;
const YEAR_MS = 365.25 * DAY_MS;

/**
 * The date a whole-dollar amount would be as a sheet's date serial number, when that date
 * lies within a year before the referral and three after: what a date typed into a money
 * cell leaves. Round hundreds are left alone, a real commission often is one.
 */
function dateItCouldBe(cents: number, createdAt: string): string | null {
  if (cents % 100 !== 0 || cents % 10_000 === 0) return null;
  const time = SERIAL_EPOCH_MS + (cents / 100) * DAY_MS;
  const created = Date.parse(createdAt);
  if (time < created - YEAR_MS || time > created + 3 * YEAR_MS) return null;
  return new Date(time).toISOString().slice(0, 10);
}

function moneyDoubt(column: CheckedColumn, referral: Checked): string | null {
  const cents = referral[column as "salePrice" | "grossCommission" | "feeAmount"];
  if (cents === undefined) return null;
  const date = dateItCouldBe(cents, referral.createdAt);
  if (date) return `looks like the date ${date} typed into a money column`;
  if (column === "salePrice" && cents < LOWEST_PRICE_CENTS) return "is under $1,000 for a sale price";
  if (column === "grossCommission" && referral.salePrice !== undefined && cents > referral.salePrice) return "is more than the sale price";
  if (column === "feeAmount" && referral.grossCommission !== undefined && cents > referral.grossCommission)
    return "is more than the gross commission";
  if (column === "feeAmount" && restsOnDoubtedCommission(referral)) return FROM_DOUBTED_COMMISSION;
  return null;
}

const FROM_DOUBTED_COMMISSION = "is worked out from a gross commission that looks wrong";

/** A percentage fee is a share of the gross commission: a doubted commission makes its fee doubtful too. */
function restsOnDoubtedCommission(referral: Checked): boolean {
  return referral.feeType !== "flat" && moneyDoubt("grossCommission", referral) !== null;
}

/**
 * Why the fee a referral's lists and totals use may be wrong: the fee written in the row,
 * or, with none, the share of a doubted gross commission. Null when nothing is in doubt.
 */
export function likelyMistypedFee(referral: Checked): string | null {
  if (referral.feeAmount !== undefined) return moneyDoubt("feeAmount", referral);
  return restsOnDoubtedCommission(referral) ? FROM_DOUBTED_COMMISSION : null;
}

/** A closing more than a year before the referral was made, or five after, is a mistyped year. */
function dateDoubt(column: "expectedCloseDate" | "closeDate", referral: Checked): string | null {
  const value = referral[column];
  if (value === undefined) return null;
  const gap = Date.parse(value) - Date.parse(referral.createdAt);
  return gap < -YEAR_MS || gap > 5 * YEAR_MS ? "is years away from when the referral was made" : null;
}

/** Each doubted value of a referral, by column, saying what is wrong with it. */
export function likelyMistypedValues(referral: Checked): Partial<Record<CheckedColumn, string>> {
  const doubts: Partial<Record<CheckedColumn, string>> = {};
  for (const column of CHECKED_COLUMNS) {
    const doubt = column === "expectedCloseDate" || column === "closeDate" ? dateDoubt(column, referral) : moneyDoubt(column, referral);
    if (doubt) doubts[column] = doubt;
  }
  return doubts;
}

/** The doubts as staff read them in /healthz, the log and their mail: the column, its value and why. */
export function describeLikelyMistypedValues(referral: Checked): string[] {
  return Object.entries(likelyMistypedValues(referral)).map(([column, why]) => {
    const value = referral[column as CheckedColumn];
    const shown = typeof value === "number" ? formatDollars(value) : String(value).slice(0, 10);
    return `${column} ${shown} ${why}`;
  });
}

const COLUMN_LABELS: Record<CheckedColumn, string> = {
  salePrice: "Sale price",
  grossCommission: "Gross commission",
  feeAmount: "Fee",
  expectedCloseDate: "Expected close",
  closeDate: "Closed",
};

/**
 * The doubts as a member's own records carry them (the CSV's last column): each doubted
 * figure by its label, the fee also when it rests on a doubted commission; blank when none.
 */
export function likelyMistypedNotesForParties(referral: Checked): string {
  const { feeAmount: _storedFee, ...others } = likelyMistypedValues(referral);
  const fee = likelyMistypedFee(referral);
  const all = { ...others, ...(fee ? { feeAmount: fee } : {}) };
  const notes = Object.entries(all).map(([column, why]) => `${COLUMN_LABELS[column as CheckedColumn]} ${why}`);
  return notes.length === 0 ? "" : `${notes.join("; ")}. Staff have been told.`;
}
