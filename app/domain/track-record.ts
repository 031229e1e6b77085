/**
 * An agent's track record: what they did in the network, counted from the workbook's
 * rows, never typed by anyone (docs/decisions/0043). Pure: the rows come from the
 * Agents, Referrals and ReferralEvents tabs and the conversations' openings counted from
 * the Messages tab (`conversationOpenings`), and every figure follows the rows
 * as they are now, so a status staff correct in the sheet changes the figures with it.
 */
import type { ReferralStatus } from "./referrals/status";
import type { Agent, Message, Referral, ReferralEvent } from "./workbook/tabs";

const DAY_MS = 86_400_000;

/** Below this many cases a rate or a median says "too few" instead of a number. */
export const MIN_CASES = 3;

/** When the agreement's "fee due" text names no number of days: the proposal form's default, "within 10 days after closing or funding". */
export const DEFAULT_FEE_DUE_DAYS = 10;

const CLOSED: ReadonlySet<ReferralStatus> = new Set(["closed", "fee_paid", "fee_received"]);
const ENDED_WITHOUT_CLOSING: ReadonlySet<ReferralStatus> = new Set(["lost", "expired"]);
const NEVER_SIGNED: ReadonlySet<ReferralStatus> = new Set(["proposed", "declined", "withdrawn"]);
const OPEN: ReadonlySet<ReferralStatus> = new Set(["signed", "introduced", "under_contract"]);
const PAID: ReadonlySet<ReferralStatus> = new Set(["fee_paid", "fee_received"]);
/** Timeline steps by which the party who did not propose answered a proposal. */
const ANSWERS = new Set(["accepted", "declined", "signed"]);

/** `part` of `of` cases; shown as a rate only from `MIN_CASES` cases. */
export type Rate = { part: number; of: number };
/** The middle of `count` durations in milliseconds; undefined when there are none. */
export type Median = { count: number; ms: number | undefined };

export type WindowFigures = {
  /** Referrals proposed in the window with the agent on the referring side, and on the receiving side. */
  sent: number;
  received: number;
  /** Referrals of either side that closed in the window (closed, fee paid or fee received). */
  closed: number;
  /** Of the signed referrals that ended in the window (closed, lost or expired), those that closed. */
  closeRate: Rate;
  /** Conversations another member started in the window, how many the agent answered, and the median time to that first answer. */
  conversations: number;
  firstReply: Median;
  /** Proposals made to the agent in the window, and the median time until the agent signed or declined. */
  proposalAnswer: Median;
  /** Fees the agent owed that fell due in the window, and those paid within the agreement's days. */
  feesAsAgreed: Rate;
  /** Median time from closing to the fee marked paid, for fees paid in the window. */
  closingToPaid: Median;
};

export type TrackRecord = {
  email: string;
  memberSince: string;
  /** The license check's verdict and when it ran (the Agents tab's licenseCheck and licenseCheckedAt). */
  licenseCheck: { result: string; checkedAt: string | undefined } | undefined;
  /** Signed referrals of either side whose deal has not closed or ended yet. */
  openNow: number;
  last12Months: WindowFigures;
  allTime: WindowFigures;
};

export type TrackRecordRows = {
  agents: readonly Agent[];
  referrals: readonly Referral[];
  referralEvents: readonly ReferralEvent[];
  openings: readonly ConversationOpening[];
};

/** A dated fact about an agent, counted in each window its time falls in. */
type Fact =
  | { kind: "sent" | "received" | "closed"; at: number }
  | { kind: "ended"; at: number; closed: boolean }
  | { kind: "conversation"; at: number; replyMs: number | undefined }
  | { kind: "proposal"; at: number; answerMs: number }
  | { kind: "fee-due"; at: number; onTime: boolean }
  | { kind: "fee-paid"; at: number; closingToPaidMs: number };

/** Every agent's track record, by e-mail, in one pass over the rows. */
export function computeTrackRecords(rows: TrackRecordRows, now: Date): Map<string, TrackRecord> {
  const facts = new Map<string, Fact[]>();
  const openNow = new Map<string, number>();
  const add = (email: string, fact: Fact) => {
    const list = facts.get(email);
    if (list) list.push(fact);
    else facts.set(email, [fact]);
  };
  const eventsByReferral = groupBy(rows.referralEvents, (event) => event.referralId);
  for (const referral of rows.referrals) {
    const events = eventsByReferral.get(referral.id) ?? [];
    for (const [email, fact] of referralFacts(referral, events, now)) add(email, fact);
    if (OPEN.has(referral.status)) {
      for (const email of new Set([referral.referringEmail, referral.receivingEmail])) openNow.set(email, (openNow.get(email) ?? 0) + 1);
    }
  }
  for (const opening of rows.openings) {
    const at = timeOf(opening.at);
    add(opening.to, { kind: "conversation", at, replyMs: opening.replyAt === undefined ? undefined : timeOf(opening.replyAt) - at });
  }

  const yearAgo = new Date(now);
  yearAgo.setUTCFullYear(yearAgo.getUTCFullYear() - 1);
  const records = new Map<string, TrackRecord>();
  for (const agent of rows.agents) {
    const own = facts.get(agent.email) ?? [];
    records.set(agent.email, {
      email: agent.email,
      memberSince: agent.createdAt,
      licenseCheck: agent.licenseCheck ? { result: agent.licenseCheck, checkedAt: agent.licenseCheckedAt } : undefined,
      openNow: openNow.get(agent.email) ?? 0,
      last12Months: windowFigures(own.filter((fact) => fact.at >= yearAgo.getTime() && fact.at <= now.getTime())),
      allTime: windowFigures(own),
    });
  }
  return records;
}

/** A window with nothing counted in it yet. */
export function emptyWindowFigures(): WindowFigures {
  return {
    sent: 0,
    received: 0,
    closed: 0,
    closeRate: { part: 0, of: 0 },
    conversations: 0,
    firstReply: { count: 0, ms: undefined },
    proposalAnswer: { count: 0, ms: undefined },
    feesAsAgreed: { part: 0, of: 0 },
    closingToPaid: { count: 0, ms: undefined },
  };
}

function windowFigures(facts: readonly Fact[]): WindowFigures {
  const figures = emptyWindowFigures();
  const replies: number[] = [];
  const answers: number[] = [];
  const paid: number[] = [];
  for (const fact of facts) {
    switch (fact.kind) {
      case "sent":
      case "received":
      case "closed":
        figures[fact.kind] += 1;
        break;
      case "ended":
        figures.closeRate = addCase(figures.closeRate, fact.closed);
        break;
      case "conversation":
        figures.conversations += 1;
        if (fact.replyMs !== undefined) replies.push(fact.replyMs);
        break;
      case "proposal":
        answers.push(fact.answerMs);
        break;
      case "fee-due":
        figures.feesAsAgreed = addCase(figures.feesAsAgreed, fact.onTime);
        break;
      case "fee-paid":
        paid.push(fact.closingToPaidMs);
        break;
    }
  }
  return { ...figures, firstReply: medianOf(replies), proposalAnswer: medianOf(answers), closingToPaid: medianOf(paid) };
}

const addCase = (rate: Rate, counted: boolean): Rate => ({ part: rate.part + (counted ? 1 : 0), of: rate.of + 1 });

function medianOf(values: readonly number[]): Median {
  if (values.length === 0) return { count: 0, ms: undefined };
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  const ms = sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
  return { count: sorted.length, ms };
}

function groupBy<T>(items: readonly T[], key: (item: T) => string): Map<string, T[]> {
  const groups = new Map<string, T[]>();
  for (const item of items) {
    const list = groups.get(key(item));
    if (list) list.push(item);
    else groups.set(key(item), [item]);
  }
  return groups;
}

const timeOf = (iso: string | undefined) => (iso ? Date.parse(iso) : Number.NaN);

/** The earliest timeline step of one of `steps`, optionally by one party. */
function firstEvent(events: readonly ReferralEvent[], steps: ReadonlySet<string>, byEmail?: string): number | undefined {
  let first: number | undefined;
  for (const event of events) {
    if (!steps.has(event.step) || (byEmail !== undefined && event.byEmail !== byEmail)) continue;
    const at = timeOf(event.createdAt);
    if (!Number.isNaN(at) && (first === undefined || at < first)) first = at;
  }
  return first;
}

/**
 * When the referral reached its status. A status staff typed into the sheet has no step
 * in the timeline: then the row's last change, else its creation, stands in.
 */
function reachedAt(referral: Referral, events: readonly ReferralEvent[], status: ReferralStatus): number {
  return firstEvent(events, new Set([status])) ?? fallbackTime(referral);
}

function fallbackTime(referral: Referral): number {
  const updated = timeOf(referral.updatedAt);
  return Number.isNaN(updated) ? timeOf(referral.createdAt) : updated;
}

/** The closing: the close date the receiving agent gave, else when the referral was marked closed. */
function closingTime(referral: Referral, events: readonly ReferralEvent[]): number {
  const closeDate = timeOf(referral.closeDate);
  return Number.isNaN(closeDate) ? reachedAt(referral, events, "closed") : closeDate;
}

/** The days the agreement gives to pay the fee: the first "N days" its "fee due" text names, else the default. */
export function feeDueDays(feeDue: string): number {
  const match = /(\d{1,3})\s*(?:business\s+|calendar\s+)?days?\b/i.exec(feeDue);
  return match ? Number.parseInt(match[1]!, 10) : DEFAULT_FEE_DUE_DAYS;
}

function* referralFacts(referral: Referral, events: readonly ReferralEvent[], now: Date): Generator<[string, Fact]> {
  const created = timeOf(referral.createdAt);
  const parties = new Set([referral.referringEmail, referral.receivingEmail]);
  yield [referral.referringEmail, { kind: "sent", at: created }];
  yield [referral.receivingEmail, { kind: "received", at: created }];

  const answerer = referral.proposedByEmail === referral.referringEmail ? referral.receivingEmail : referral.referringEmail;
  const answeredAt = firstEvent(events, ANSWERS, answerer);
  if (answeredAt !== undefined) {
    const proposedAt = firstEvent(events, new Set(["proposed"])) ?? created;
    yield [answerer, { kind: "proposal", at: proposedAt, answerMs: Math.max(0, answeredAt - proposedAt) }];
  }

  if (NEVER_SIGNED.has(referral.status)) return;
  const closed = CLOSED.has(referral.status);
  if (closed || ENDED_WITHOUT_CLOSING.has(referral.status)) {
    const endedAt = closed ? closingTime(referral, events) : reachedAt(referral, events, referral.status);
    for (const email of parties) {
      yield [email, { kind: "ended", at: endedAt, closed }];
      if (closed) yield [email, { kind: "closed", at: endedAt }];
    }
  }
  if (closed) yield* feeFacts(referral, events, now);
}

/**
 * The receiving agent's fee: due at the end of the agreement's days after closing. A fee
 * counts once it is due or paid; paid means a "fee paid" step in the timeline, whose time
 * is when it was paid. A fee staff marked paid in the sheet without that step has no date
 * and is left out.
 */
function* feeFacts(referral: Referral, events: readonly ReferralEvent[], now: Date): Generator<[string, Fact]> {
  const closedAt = closingTime(referral, events);
  const dueAt = startOfUtcDay(closedAt) + (feeDueDays(referral.feeDue) + 1) * DAY_MS;
  const paidAt = firstEvent(events, new Set(["fee_paid"]));
  const owner = referral.receivingEmail;
  if (paidAt === undefined) {
    if (!PAID.has(referral.status) && dueAt <= now.getTime()) yield [owner, { kind: "fee-due", at: dueAt, onTime: false }];
    return;
  }
  yield [owner, { kind: "fee-due", at: Math.min(dueAt, paidAt), onTime: paidAt < dueAt }];
  yield [owner, { kind: "fee-paid", at: paidAt, closingToPaidMs: Math.max(0, paidAt - closedAt) }];
}

const startOfUtcDay = (ms: number) => Math.floor(ms / DAY_MS) * DAY_MS;

/**
 * A conversation as the track record counts it, for the member it was started with: when
 * its first message was written, to whom, and when that member first wrote in it (at or
 * after that time). The starter is whoever wrote its first message.
 */
export type ConversationOpening = { at: string; to: string; replyAt: string | undefined };

/**
 * Each conversation's opening, from its Messages rows. Of messages written in the same
 * millisecond, the first row is the first message; a database counting the same rows orders
 * them by the order they were added in.
 */
export function conversationOpenings(messages: readonly Message[]): ConversationOpening[] {
  const firsts = new Map<string, { at: number; message: Message }>();
  for (const message of messages) {
    const at = timeOf(message.createdAt);
    const first = firsts.get(message.conversationId);
    if (!first || at < first.at) firsts.set(message.conversationId, { at, message });
  }
  const replies = new Map<string, { at: number; message: Message }>();
  for (const message of messages) {
    const first = firsts.get(message.conversationId)!;
    const at = timeOf(message.createdAt);
    if (message.fromEmail !== first.message.toEmail || at < first.at) continue;
    const earlier = replies.get(message.conversationId);
    if (earlier === undefined || at < earlier.at) replies.set(message.conversationId, { at, message });
  }
  return [...firsts].map(([conversationId, { message }]) => ({
    at: message.createdAt,
    to: message.toEmail,
    replyAt: replies.get(conversationId)?.message.createdAt,
  }));
}
