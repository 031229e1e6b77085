/**
 * The member's referrals page and dashboard card: the list's filters read from the
 * address, which side of an agreement the member is on, the fee a referral stands for and
 * the calendar year a fee counts in. Pure and free of zod: the dashboard's browser code
 * imports the labels from here.
 */
import type { Referral } from "../workbook/tabs";
import { likelyMistypedFee } from "./mistyped-values";
import { formatDollars, referralFeeCents } from "./money";
import { isFinalStatus, REFERRAL_STATUS_LABELS, REFERRAL_STATUSES, type ReferralStatus } from "./status";

/** Referrals on one page of /referrals. */
export const REFERRAL_PAGE_SIZE = 20;

/** Sent: the member refers the client; received: the member receives them. */
export const REFERRAL_ROLES = [
  { value: "sent", label: "Sent (I refer)" },
  { value: "received", label: "Received (I receive)" },
] as const;
export type ReferralRole = (typeof REFERRAL_ROLES)[number]["value"];

export const REFERRAL_STATUS_OPTIONS = REFERRAL_STATUSES.map((status) => ({ value: status, label: REFERRAL_STATUS_LABELS[status] }));

/** The list's filters; absent means any. */
export type ReferralListQuery = { status?: ReferralStatus; role?: ReferralRole };

function oneOf<Value extends string>(values: readonly Value[], raw: string | null): Value | undefined {
  const wanted = raw?.trim().toLowerCase();
  return values.find((value) => value === wanted);
}

/** The filters from the address; anything unknown is ignored rather than refused, as on the other lists. */
export function parseReferralListQuery(params: URLSearchParams): ReferralListQuery {
  const status = oneOf(REFERRAL_STATUSES, params.get("status"));
  const role = oneOf(
    REFERRAL_ROLES.map((option) => option.value),
    params.get("role"),
  );
  return { ...(status ? { status } : {}), ...(role ? { role } : {}) };
}

/** The address of the list with these filters: `?status=signed&role=sent`, or nothing. */
export function referralListSearch(query: ReferralListQuery): string {
  const params = new URLSearchParams();
  if (query.role) params.set("role", query.role);
  if (query.status) params.set("status", query.status);
  const search = params.toString();
  return search ? `?${search}` : "";
}

export function roleOf(referral: Pick<Referral, "referringEmail">, memberEmail: string): ReferralRole {
  return referral.referringEmail === memberEmail ? "sent" : "received";
}

/**
 * The fee a referral stands for, in cents, or undefined while it cannot be known: the fee
 * staff or the closing step wrote (`feeAmount`), else the flat fee, else the share of the
 * receiving side's gross commission once that is known.
 */
export function knownFeeCents(
  referral: Pick<Referral, "feeAmount" | "feeType" | "feePercent" | "feeFlat" | "grossCommission">,
): number | undefined {
  if (referral.feeAmount !== undefined) return referral.feeAmount;
  if (referral.feeType === "flat") return referral.feeFlat;
  if (referral.grossCommission === undefined || referral.feePercent === undefined) return undefined;
  return referralFeeCents({ feePercent: referral.feePercent }, referral.grossCommission);
}

/** Signed, with the fee still to come: the pipeline's statuses from signing to the fee paid but not yet confirmed. */
const FEE_EXPECTED_STATUSES: ReadonlySet<ReferralStatus> = new Set(["signed", "introduced", "under_contract", "closed", "fee_paid"]);

export function isFeeExpected(status: ReferralStatus): boolean {
  return FEE_EXPECTED_STATUSES.has(status);
}

/** Proposed or somewhere in the pipeline: neither ended nor with the fee received. */
export function isOpenReferral(status: ReferralStatus): boolean {
  return !isFinalStatus(status);
}

const yearFormat = new Intl.DateTimeFormat("en-US", { year: "numeric", timeZone: "America/Chicago" });

/** The calendar year a moment falls in for Texas and Oklahoma (Central time), as the year's tax paperwork counts it. */
export function centralYear(iso: string | Date): number {
  return Number(yearFormat.format(typeof iso === "string" ? new Date(iso) : iso));
}

/**
 * The fee a total may add, in cents: known and not in doubt. A fee that looks mistyped
 * counts as not yet known, never as if it were right.
 */
export function countableFeeCents(referral: Referral): number | undefined {
  return likelyMistypedFee(referral) === null ? knownFeeCents(referral) : undefined;
}

/** A sum of fees: the cents of the fees known and how many were known and not (yet). */
export type FeeSum = { cents: number; known: number; unknown: number };

export function emptyFeeSum(): FeeSum {
  return { cents: 0, known: 0, unknown: 0 };
}

export function addFee(sum: FeeSum, cents: number | undefined): void {
  if (cents === undefined) sum.unknown += 1;
  else {
    sum.cents += cents;
    sum.known += 1;
  }
}

/**
 * A sum of fees as pages show it: dollars only over fees that are known, the others
 * counted beside them. A sum of no known fee is "Not yet known", never $0.00, which would
 * read as fees of nothing.
 */
export function feeSumText(sum: FeeSum): { value: string; note?: string } {
  if (sum.known === 0 && sum.unknown === 0) return { value: "None" };
  if (sum.known === 0) return { value: "Not yet known", note: `for ${sum.unknown} ${sum.unknown === 1 ? "referral" : "referrals"}` };
  return sum.unknown === 0
    ? { value: formatDollars(sum.cents) }
    : { value: formatDollars(sum.cents), note: `+ ${sum.unknown} not yet known` };
}

/** What a referral's fee is, as an agent says it: the dollars once known, else the share agreed. */
export function referralFeeText(referral: Referral): string {
  const fee = knownFeeCents(referral);
  if (fee !== undefined) return formatDollars(fee);
  return referral.feePercent !== undefined ? `${referral.feePercent}% of the commission` : "Not set";
}

/** The fees on the page and the card. */
export type ReferralTotals = {
  /** Referrals not ended and not yet with the fee received. */
  open: number;
  /** Signed referrals whose fee is not yet received (unknown: a percentage before the closing, or a doubted fee). */
  expected: FeeSum;
  /** Fees received in the current calendar year. */
  receivedThisYear: FeeSum;
};

/** The first year the CSV offers: the network kept no referrals before it. */
const FIRST_REFERRAL_YEAR = 2026;

/** The years the CSV can be asked for, newest first. */
export function csvYears(now: Date): number[] {
  const years: number[] = [];
  for (let year = Math.max(centralYear(now), FIRST_REFERRAL_YEAR); year >= FIRST_REFERRAL_YEAR; year -= 1) years.push(year);
  return years;
}

/** The CSV's year from the address: this year when absent, null when it is not one of `csvYears`. */
export function parseCsvYear(raw: string | null, now: Date): number | null {
  if (raw === null || raw.trim() === "") return centralYear(now);
  const year = Number(raw.trim());
  return /^\d{4}$/.test(raw.trim()) && csvYears(now).includes(year) ? year : null;
}

/** One referral as the list and the dashboard card show it: only what they show, never the signatures' addresses. */
export type ReferralRowView = {
  id: string;
  status: ReferralStatus;
  statusLabel: string;
  role: ReferralRole;
  /** The other party's name as the agreement has it. */
  otherName: string;
  clientName: string;
  side: string;
  /** The fee in dollars when known, else the share agreed. */
  feeLabel: string;
  /** The fee rests on a value in the sheet that looks mistyped (doubts.ts): shown flagged, never as a plain figure. */
  feeDoubted: boolean;
  changedAt: string;
};

/** The dashboard's My referrals card. */
export type DashboardReferrals = {
  /** All the member's referrals, whatever their status. */
  total: number;
  totals: ReferralTotals;
  /** The newest open ones. */
  open: ReferralRowView[];
};
