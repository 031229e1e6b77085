/**
 * A member's referrals across agreements: the /referrals list, the dashboard card and the
 * CSV for the year's tax paperwork. Every query starts from the member's own referrals
 * (the `parties` index), so nobody ever sees an agreement they are not a party to.
 */
import { pageWindow } from "~/domain/directory-search";
import { likelyMistypedNotesForParties, likelyMistypedFee } from "~/domain/referrals/mistyped-values";
import {
  addFee,
  centralYear,
  countableFeeCents,
  type DashboardReferrals,
  emptyFeeSum,
  isFeeExpected,
  isOpenReferral,
  knownFeeCents,
  REFERRAL_PAGE_SIZE,
  referralFeeText,
  roleOf,
  type ReferralListQuery,
  type ReferralRole,
  type ReferralRowView,
  type ReferralTotals,
} from "~/domain/referrals/overview";
import { REFERRAL_STATUS_LABELS, REFERRAL_STATUSES, type ReferralStatus } from "~/domain/referrals/status";
import type { Agent, Referral } from "~/domain/workbook/tabs";
import type { Services } from "../services.server";

type Deps = Pick<Services, "store">;
type Member = Pick<Agent, "email">;

/** The referrals the member is a party to, newest change first. */
function referralsOf({ store }: Deps, member: Member): Referral[] {
  const byId = new Map(store.referrals.by("parties", member.email).map((referral) => [referral.id, referral]));
  return [...byId.values()].sort((a, b) => Date.parse(lastChangeOf(b)) - Date.parse(lastChangeOf(a)));
}

function lastChangeOf(referral: Pick<Referral, "createdAt" | "updatedAt">): string {
  return referral.updatedAt ?? referral.createdAt;
}

/**
 * When the fee was received: the timeline's last "fee_received" step, or, when staff set
 * the status in the sheet without a step, the row's last change.
 */
export function feeReceivedAt({ store }: Deps, referral: Referral): string | undefined {
  if (referral.status !== "fee_received") return undefined;
  const steps = store.referralEvents.by("referralId", referral.id).filter((event) => event.step === "fee_received");
  return (
    steps
      .map((event) => event.createdAt)
      .sort()
      .at(-1) ?? lastChangeOf(referral)
  );
}

export function referralTotals(deps: Deps, referrals: readonly Referral[], now: Date): ReferralTotals {
  const year = centralYear(now);
  const totals: ReferralTotals = { open: 0, expected: emptyFeeSum(), receivedThisYear: emptyFeeSum() };
  for (const referral of referrals) {
    if (isOpenReferral(referral.status)) totals.open += 1;
    if (isFeeExpected(referral.status)) addFee(totals.expected, countableFeeCents(referral));
    const receivedAt = feeReceivedAt(deps, referral);
    if (receivedAt !== undefined && centralYear(receivedAt) === year) addFee(totals.receivedThisYear, countableFeeCents(referral));
  }
  return totals;
}

function referralRowView(referral: Referral, member: Member): ReferralRowView {
  const role = roleOf(referral, member.email);
  return {
    id: referral.id,
    status: referral.status,
    statusLabel: REFERRAL_STATUS_LABELS[referral.status],
    role,
    otherName: role === "sent" ? referral.receivingName : referral.referringName,
    clientName: referral.clientName,
    side: referral.side,
    feeLabel: referralFeeText(referral),
    feeDoubted: likelyMistypedFee(referral) !== null,
    changedAt: lastChangeOf(referral),
  };
}

function matchesQuery(referral: Referral, member: Member, query: ReferralListQuery): boolean {
  return (
    (query.status === undefined || referral.status === query.status) &&
    (query.role === undefined || roleOf(referral, member.email) === query.role)
  );
}

/**
 * One page of /referrals: the rows matching the filters, the pipeline's counts per status
 * (of the chosen side, whatever the status filter) and the fee totals of all the member's
 * referrals.
 */
export function referralListPage(deps: Deps, member: Member, query: ReferralListQuery, requestedPage: number, now: Date) {
  const mine = referralsOf(deps, member);
  const onSide = mine.filter((referral) => matchesQuery(referral, member, { ...(query.role ? { role: query.role } : {}) }));
  const counts = Object.fromEntries(REFERRAL_STATUSES.map((status) => [status, 0])) as Record<ReferralStatus, number>;
  for (const referral of onSide) counts[referral.status] += 1;
  const matching = onSide.filter((referral) => matchesQuery(referral, member, query));
  const window = pageWindow(matching.length, requestedPage, REFERRAL_PAGE_SIZE);
  return {
    counts,
    totals: referralTotals(deps, mine, now),
    total: matching.length,
    page: window.page,
    pageCount: window.pageCount,
    referrals: matching.slice(window.start, window.end).map((referral) => referralRowView(referral, member)),
  };
}

/** How many of the member's referrals are open: the header's My Referrals count. */
export function openReferralCount(deps: Deps, member: Member): number {
  return referralsOf(deps, member).filter((referral) => isOpenReferral(referral.status)).length;
}

/** Referrals on the dashboard card. */
const CARD_LIMIT = 5;

/** The dashboard's My referrals card: the open referrals, newest change first, and the fees. */
export function dashboardReferrals(deps: Deps, member: Member, now: Date): DashboardReferrals {
  const mine = referralsOf(deps, member);
  const open = mine.filter((referral) => isOpenReferral(referral.status));
  return {
    total: mine.length,
    totals: referralTotals(deps, mine, now),
    open: open.slice(0, CARD_LIMIT).map((referral) => referralRowView(referral, member)),
  };
}

const dayFormat = new Intl.DateTimeFormat("en-CA", { year: "numeric", month: "2-digit", day: "2-digit", timeZone: "America/Chicago" });

/** 2026-11-23, the day in Central time: what a spreadsheet reads as a date. */
export function csvDay(iso: string | undefined): string {
  return iso === undefined ? "" : dayFormat.format(new Date(iso));
}

function csvDollars(cents: number | undefined): string {
  return cents === undefined ? "" : (cents / 100).toFixed(2);
}

const ROLE_LABELS: Record<ReferralRole, string> = { sent: "Sent", received: "Received" };

const REFERRAL_CSV_HEADER = [
  "Created",
  "Signed",
  "Closed",
  "Role",
  "Other party",
  "Other party email",
  "Referring brokerage",
  "Receiving brokerage",
  "Client",
  "Side",
  "Status",
  "Sale price",
  "Gross commission",
  "Fee",
  "Fee received",
  "Looks wrong",
] as const;

/** The referral's last sign of life: its latest step, its last change or its creation. */
function lastActivityOf({ store }: Deps, referral: Referral): string {
  const times = [
    referral.createdAt,
    lastChangeOf(referral),
    ...store.referralEvents.by("referralId", referral.id).map((event) => event.createdAt),
  ];
  return times.reduce((latest, time) => (Date.parse(time) > Date.parse(latest) ? time : latest));
}

/** The last moment a referral was alive: its last activity once it ended, else now. */
function aliveUntil(deps: Deps, referral: Referral, now: Date): string {
  return isOpenReferral(referral.status) ? now.toISOString() : lastActivityOf(deps, referral);
}

/**
 * The rows of the member's CSV for one calendar year (Central time): every referral that
 * was alive in that year, created before its end and not ended before its start, so a
 * fee received in January for a deal closed in December appears in both years.
 */
export function referralCsvRows(deps: Deps, member: Member, year: number, now: Date): string[][] {
  const inYear = referralsOf(deps, member)
    .filter((referral) => centralYear(referral.createdAt) <= year && centralYear(aliveUntil(deps, referral, now)) >= year)
    .sort((a, b) => a.createdAt.localeCompare(b.createdAt));
  return [
    [...REFERRAL_CSV_HEADER],
    ...inYear.map((referral) => {
      const role = roleOf(referral, member.email);
      return [
        csvDay(referral.createdAt),
        csvDay(referral.signedAt),
        csvDay(referral.closeDate),
        ROLE_LABELS[role],
        role === "sent" ? referral.receivingName : referral.referringName,
        role === "sent" ? referral.receivingEmail : referral.referringEmail,
        referral.referringBrokerage,
        referral.receivingBrokerage,
        referral.clientName,
        referral.side,
        REFERRAL_STATUS_LABELS[referral.status],
        csvDollars(referral.salePrice),
        csvDollars(referral.grossCommission),
        csvDollars(knownFeeCents(referral)),
        csvDay(feeReceivedAt(deps, referral)),
        likelyMistypedNotesForParties(referral),
      ];
    }),
  ];
}
