/**
 * What agents did in the network, counted from the workbook's rows for the ranking: when each
 * was last active, their experience by price range and their "Not a fit" answers by
 * specialty. One pass over each tab; the track record's figures are taken as they are.
 */
import type {
  ConversationMember,
  Invitation,
  Message,
  Referral,
  ReferralEvent,
  ReferralRequest,
  RequestMark,
  RequestResponse,
} from "../workbook/tabs";
import type { CountedSignals, CountsByAgent } from "./candidate";

export type SignalRows = {
  requests: readonly ReferralRequest[];
  responses: readonly RequestResponse[];
  referrals: readonly Referral[];
  referralEvents: readonly ReferralEvent[];
  /** Each agent's latest message written or read (`latestMessageActivity`), by e-mail. */
  messageActivity: ReadonlyMap<string, string>;
  marks: readonly RequestMark[];
  invitations: readonly Invitation[];
};

/**
 * Each agent's latest time in the Messages and ConversationMembers tabs: a message they
 * wrote, or how far they read a conversation. A database counting the same rows answers with
 * one grouped query; the replica counts its rows with this.
 */
export function latestMessageActivity(
  messages: readonly Pick<Message, "fromEmail" | "createdAt">[],
  conversationMembers: readonly Pick<ConversationMember, "agentEmail" | "lastReadAt">[],
): Map<string, string> {
  const latest = new Map<string, string>();
  const seen = (email: string, time: string | undefined) => {
    if (!email || !time) return;
    const known = latest.get(email);
    if (known === undefined || time > known) latest.set(email, time);
  };
  for (const message of messages) seen(message.fromEmail, message.createdAt);
  for (const member of conversationMembers) seen(member.agentEmail, member.lastReadAt);
  return latest;
}

export function countSignals(rows: SignalRows): CountedSignals {
  return { lastActiveAt: lastActivity(rows), experience: experienceByPriceRange(rows), declines: declinesBySpecialty(rows) };
}

/** Each agent's latest written time. The times are ISO strings in UTC (the workbook's columns make them so): they compare as text. */
function lastActivity(rows: SignalRows): Map<string, number> {
  const latest = new Map<string, string>();
  const seen = (email: string | undefined, time: string | undefined) => {
    if (!email || !time) return;
    const known = latest.get(email);
    if (known === undefined || time > known) latest.set(email, time);
  };
  for (const request of rows.requests) {
    seen(request.agentEmail, request.createdAt);
    seen(request.agentEmail, request.updatedAt);
  }
  for (const response of rows.responses) seen(response.fromEmail, response.createdAt);
  for (const [email, time] of rows.messageActivity) seen(email, time);
  for (const mark of rows.marks) seen(mark.agentEmail, mark.updatedAt ?? mark.createdAt);
  for (const event of rows.referralEvents) seen(event.byEmail, event.createdAt);
  for (const invitation of rows.invitations) seen(invitation.agentEmail, invitation.answeredAt);
  return new Map([...latest].map(([email, time]) => [email, Date.parse(time)]));
}

/**
 * The requests each agent took part in, by the request's price range: posted, responded to,
 * or a party to a referral from it. A request counts once per agent however they took part.
 */
function experienceByPriceRange(rows: SignalRows): CountsByAgent {
  const parties = new Map<string, Set<string>>();
  const tookPart = (requestId: string, email: string) => {
    const emails = parties.get(requestId);
    if (emails) emails.add(email);
    else parties.set(requestId, new Set([email]));
  };
  for (const request of rows.requests) tookPart(request.id, request.agentEmail);
  for (const response of rows.responses) tookPart(response.requestId, response.fromEmail);
  for (const referral of rows.referrals) {
    tookPart(referral.requestId, referral.referringEmail);
    tookPart(referral.requestId, referral.receivingEmail);
  }
  const counts = new Map<string, Map<string, number>>();
  for (const request of rows.requests) {
    if (request.priceRange === "") continue;
    for (const email of parties.get(request.id) ?? []) addCount(counts, email, request.priceRange);
  }
  return counts;
}

/** "Not a fit" answers, by the specialty of the request they were invited to. */
function declinesBySpecialty(rows: SignalRows): CountsByAgent {
  const specialtyOf = new Map(rows.requests.map((request) => [request.id, request.specialty]));
  const counts = new Map<string, Map<string, number>>();
  for (const invitation of rows.invitations) {
    const specialty = specialtyOf.get(invitation.requestId);
    if (invitation.status === "declined" && specialty !== undefined) addCount(counts, invitation.agentEmail, specialty);
  }
  return counts;
}

function addCount(counts: Map<string, Map<string, number>>, email: string, key: string): void {
  const own = counts.get(email);
  if (own) own.set(key, (own.get(key) ?? 0) + 1);
  else counts.set(email, new Map([[key, 1]]));
}
