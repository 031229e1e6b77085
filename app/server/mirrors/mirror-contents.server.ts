/**
 * What the mirror tabs hold (docs/decisions/0081), read from the replica and, for the
 * messages, from the queries (the database's, or the replica's without one): the Lookup
 * tab's answer to what staff typed, the last 30 days' reported and hidden items, and each
 * day's counts. Every list is cut to its mirror's bound here or in `app/domain/mirrors.ts`.
 */
import { normaliseEmail } from "~/domain/auth";
import { CLAIM_KEYS, claimKeyFamily } from "~/domain/claim-keys";
import { OUTREACH_OUTCOME_LABELS, outreachOutcome } from "~/domain/outreach";
import { lastDays, MIRRORS, RECENT_REPORT_DAYS, type MirrorSection } from "~/domain/mirrors";
import type { Agent, Invitation, Message, ModerationRow, Report, Review } from "~/domain/workbook/tabs";
import type { MessageQueries } from "../messages/message-queries.server";
import { suspendedEmails } from "../moderation/visibility.server";
import { decisionRow, hiddenItemCheck, itemText, type Sources } from "./staff-items.server";
import type { Store } from "../store/store.server";

/** Messages shown of one look-up: the newest, the rest counted. */
const LOOKUP_MESSAGES = 120;

function messageRows(sources: Sources, messages: readonly Message[]): string[][] {
  const suspended = suspendedEmails(sources);
  const isHidden = hiddenItemCheck(sources);
  return messages.map((message) => [
    message.createdAt,
    message.fromEmail,
    message.toEmail,
    message.text,
    message.via === "email" ? "reply by mail" : "site",
    isHidden("message", message.id) ? "hidden" : suspended.has(message.fromEmail) ? "sender suspended" : "shown",
    `${message.conversationId} / ${message.id}`,
  ]);
}

const MESSAGE_HEADERS = ["time", "from", "to", "text", "via", "hidden?", "conversation / message id"];

async function messageSection(sources: Sources, about: Parameters<MessageQueries["forStaff"]>[0]): Promise<MirrorSection[]> {
  const { messages, total } = await sources.messageQueries.forStaff(about, LOOKUP_MESSAGES);
  if (total === 0) return [];
  return [{ kind: "messages", title: "Messages (newest first)", headers: MESSAGE_HEADERS, rows: messageRows(sources, messages), total }];
}

function memberSection(agent: Agent): MirrorSection {
  return {
    kind: "member",
    title: "Member",
    headers: ["agent id", "name", "e-mail", "status", "registered", "brokerage", "license"],
    rows: [[agent.id, agent.fullName, agent.email, agent.status, agent.createdAt, agent.brokerage, agent.licenseNumber]],
  };
}

function invitationSection(store: Store, invitations: readonly Invitation[]): MirrorSection[] {
  if (invitations.length === 0) return [];
  const rows = [...invitations]
    .sort((a, b) => b.createdAt.localeCompare(a.createdAt))
    .map((invitation) => [
      invitation.createdAt,
      invitation.posterEmail,
      invitation.agentEmail,
      invitation.status,
      invitation.answeredAt ?? "",
      `${store.requests.get(invitation.requestId)?.title ?? ""}${invitation.reason ? ` (reason: ${invitation.reason})` : ""}`,
      `${invitation.requestId} / ${invitation.id}`,
    ]);
  return [
    {
      kind: "invitations",
      title: "Invitations",
      headers: ["invited", "by", "invited agent", "status", "answered", "request", "request / invitation id"],
      rows,
    },
  ];
}

function referralSections(store: Store, referrals: readonly { id: string }[]): MirrorSection[] {
  return referrals.flatMap(({ id }) => {
    const referral = store.referrals.get(id);
    if (!referral) return [];
    const events = [...store.referralEvents.by("referralId", id)].sort((a, b) => a.createdAt.localeCompare(b.createdAt));
    return [
      {
        kind: "referral",
        title: `Referral of ${referral.clientName || "a client"} from ${referral.referringEmail} to ${referral.receivingEmail} (${referral.status} now)`,
        headers: ["time", "step", "by", "note", "", "", "referral id"],
        rows: events.map((event) => [event.createdAt, event.step, event.byEmail, event.note, "", "", id]),
      },
    ];
  });
}

/** The SendClaims rows naming the member: each mail claimed for them, and those not sent (with why). */
function mailSection(store: Store, names: readonly string[]): MirrorSection[] {
  const rows = store.sendClaims
    .all()
    .filter((claim) => names.some((name) => claim.key.includes(name)))
    .sort((a, b) => b.claimedAt.localeCompare(a.claimedAt))
    .map((claim) => {
      const family = claimKeyFamily(claim.key);
      return [claim.claimedAt, claim.outcome, family ? CLAIM_KEYS[family].records : "", claim.note, claim.instance, "", claim.key];
    });
  if (rows.length === 0) return [];
  return [
    {
      kind: "mails",
      title: "Mails (SendClaims, newest first; the full log: npm run staff -- mail-log)",
      headers: ["claimed", "outcome", "what", "note", "instance", "", "key"],
      rows,
    },
  ];
}

async function memberSections(sources: Sources, email: string, agent: Agent | undefined): Promise<MirrorSection[]> {
  const { store } = sources;
  const invitations = [...store.invitations.by("agentEmail", email), ...store.invitations.by("posterEmail", email)];
  return [
    ...(agent ? [memberSection(agent)] : []),
    ...(await messageSection(sources, { email })),
    ...invitationSection(store, [...new Set(invitations)]),
    ...referralSections(store, store.referrals.by("parties", email)),
    ...mailSection(store, agent ? [email, agent.id] : [email]),
  ];
}

function requestSections(sources: Sources, requestId: string): MirrorSection[] {
  const { store } = sources;
  const request = store.requests.get(requestId);
  if (!request) return [];
  const isHidden = hiddenItemCheck(sources);
  const responses = store.responses
    .by("requestId", requestId)
    .map((response) => [
      response.createdAt,
      response.fromEmail,
      response.toEmail,
      response.message,
      "",
      isHidden("response", response.id) ? "hidden" : "shown",
      response.id,
    ]);
  return [
    {
      kind: "request",
      title: "Request",
      headers: ["posted", "by", "title", "location", "status", "hidden?", "request id"],
      rows: [
        [
          request.createdAt,
          request.agentEmail,
          request.title,
          request.location,
          request.status,
          isHidden("request", request.id) ? "hidden" : "shown",
          request.id,
        ],
      ],
    },
    ...(responses.length > 0
      ? [{ kind: "responses", title: "Responses", headers: ["time", "from", "to", "text", "", "hidden?", "response id"], rows: responses }]
      : []),
    ...invitationSection(store, [...store.invitations.by("requestId", requestId)]),
    ...referralSections(store, store.referrals.by("requestId", requestId)),
  ];
}

/**
 * What the Lookup tab shows for what staff typed: a member's e-mail or agent id (the member,
 * their messages, invitations, referrals with their timelines, and mails), a request's id, a
 * referral's, an invitation's, a message's or a conversation's. Empty when nothing matches.
 */
export async function lookupSections(sources: Sources, typed: string): Promise<MirrorSection[]> {
  const query = typed.trim();
  if (query === "") return [];
  const { store } = sources;
  if (query.includes("@")) {
    const email = normaliseEmail(query);
    return memberSections(sources, email, store.agents.by("email", email)[0]);
  }
  const agent = store.agents.get(query);
  if (agent) return memberSections(sources, agent.email, agent);
  if (store.requests.get(query)) return requestSections(sources, query);
  if (store.referrals.get(query)) return referralSections(store, [{ id: query }]);
  const invitation = store.invitations.get(query);
  if (invitation) return invitationSection(store, [invitation]);
  const byMessage = await messageSection(sources, { messageId: query });
  return byMessage.length > 0 ? byMessage : messageSection(sources, { conversationId: query });
}

const day = (time: string | undefined) => (time ?? "").slice(0, 10);

export const RECENT_REPORT_HEADERS = [
  "reported",
  "kind",
  "item id",
  "item",
  "text",
  "written by",
  "reported by",
  "reason",
  "note",
  "report",
];

/**
 * The last 30 days' reports (newest first) and the reviews staff hid in that time, each with
 * the item's text and whether it is hidden now; cut to the tab's bound, with how many there were.
 */
export async function recentReportRows(sources: Sources, now: Date): Promise<{ rows: string[][]; total: number }> {
  const since = new Date(now.getTime() - RECENT_REPORT_DAYS * 86_400_000).toISOString();
  const { store } = sources;
  const reports = store.reports.all().filter((report) => report.createdAt >= since);
  const reported = new Set(reports.map((report) => report.itemId));
  const hiddenReviews = store.reviews
    .all()
    .filter((review) => review.status === "hidden" && !reported.has(review.id) && (review.updatedAt ?? review.submittedAt) >= since);
  const decisions = store.moderation.all().filter((decision) => decision.createdAt >= since && !reported.has(decision.itemId));
  const items: RecentItem[] = [
    ...reports.map((report) => ({ at: report.createdAt, report })),
    ...hiddenReviews.map((review) => ({ at: review.updatedAt ?? review.submittedAt, review })),
    ...decisions.map((decision) => ({ at: decision.createdAt, decision })),
  ].sort((a, b) => b.at.localeCompare(a.at));
  const shown = items.slice(0, MIRRORS.recentReports.dataRows);
  const messageIds = shown.flatMap((item) => {
    const named = "report" in item ? item.report : "decision" in item ? item.decision : undefined;
    return named?.kind === "message" ? [named.itemId] : [];
  });
  const found = messageIds.length === 0 ? [] : (await sources.messageQueries.forStaff({ messageIds }, messageIds.length)).messages;
  const messages = new Map(found.map((message) => [message.id, message]));
  const isHidden = hiddenItemCheck(sources);
  const rows = shown.map((item) => {
    if ("decision" in item) return decisionRow(sources, item.decision, messages, isHidden);
    if ("report" in item) {
      const { report } = item;
      const { text, author } = itemText(sources, report, messages);
      const status = isHidden(report.kind, report.itemId) ? "hidden" : "visible";
      return [
        report.createdAt,
        report.kind,
        report.itemId,
        status,
        text,
        author,
        report.reporterEmail,
        report.reason,
        report.note,
        report.status,
      ];
    }
    const { review } = item;
    return [item.at, "review", review.id, "hidden", review.text, review.reviewerEmail, "", "", "hidden by staff", ""];
  });
  return { rows, total: items.length };
}

type RecentItem = { at: string; report: Report } | { at: string; review: Review } | { at: string; decision: ModerationRow };

export const DAILY_COUNT_HEADERS = [
  "day (UTC)",
  "registrations",
  "requests",
  "responses",
  "messages",
  "referrals",
  "reviews",
  "mails claimed",
];

function perDay(times: Iterable<string | undefined>, days: ReadonlySet<string>): Map<string, number> {
  const counts = new Map<string, number>();
  for (const time of times) {
    const key = day(time);
    if (days.has(key)) counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  return counts;
}

const mailFamilies = (key: string) => {
  const family = claimKeyFamily(key);
  return family !== undefined && (CLAIM_KEYS[family].holds === "mail" || CLAIM_KEYS[family].holds === "chain");
};

/** The tab's days, newest first: each day's registrations, requests, responses, messages, referrals, reviews and mails claimed. */
export async function dailyCountRows(sources: Sources, now: Date): Promise<string[][]> {
  const { store } = sources;
  const days = lastDays(now, MIRRORS.dailyCounts.dataRows);
  const wanted = new Set(days);
  const columns = [
    perDay(
      store.agents.all().map((agent) => agent.createdAt),
      wanted,
    ),
    perDay(
      store.requests.all().map((request) => request.createdAt),
      wanted,
    ),
    perDay(
      store.responses.all().map((response) => response.createdAt),
      wanted,
    ),
    await sources.messageQueries.perDay(days.at(-1) ?? ""),
    perDay(
      store.referrals.all().map((referral) => referral.createdAt),
      wanted,
    ),
    perDay(
      store.reviews.all().map((review) => review.submittedAt),
      wanted,
    ),
    perDay(
      store.sendClaims
        .all()
        .filter((claim) => claim.outcome === "claimed" && mailFamilies(claim.key))
        .map((claim) => claim.claimedAt),
      wanted,
    ),
  ];
  return days.map((key) => [key, ...columns.map((counts) => String(counts.get(key) ?? 0))]);
}

export const INVITATIONS_TO_JOIN_HEADERS = ["sent", "invited by", "name", "e-mail", "for request", "outcome", "registered agent id"];

/**
 * The Outreach tab's invitations, newest first, with what became of each: the outcome is worked
 * out (docs/decisions/0082), so this is where staff read it; cut to the tab's bound.
 */
export function invitationToJoinRows({ store }: Pick<Sources, "store">, now: Date): { rows: string[][]; total: number } {
  const rows = [...store.outreach.all()].sort((a, b) => b.createdAt.localeCompare(a.createdAt));
  const shown = rows.slice(0, MIRRORS.invitationsToJoin.dataRows).map((row) => {
    const inviter = store.agents.get(row.inviterId);
    const registered = row.agentId ? store.agents.get(row.agentId) : undefined;
    return [
      row.createdAt,
      inviter ? `${inviter.fullName} <${inviter.email}>` : row.inviterId,
      row.name,
      row.email,
      row.requestId ?? "",
      OUTREACH_OUTCOME_LABELS[outreachOutcome(row, registered, now)],
      row.agentId ?? "",
    ];
  });
  return { rows: shown, total: rows.length };
}
