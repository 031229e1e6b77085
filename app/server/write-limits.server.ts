import type { AppLoadContext } from "@remix-run/node";
import type { Agent } from "~/domain/workbook/tabs";
import { clientIp } from "./auth/client-ip.server";
import { createRateLimiter, hitAll, type RateLimiter, type RateLimitResult } from "./auth/rate-limit.server";
import type { Config } from "./config.server";

const MINUTE = 60;
const HOUR = 60 * MINUTE;
/** Enough for a few calendar apps each polling every few minutes. */
const CALENDAR_FEED_READS_PER_HOUR = 60;

/** Writes a visitor makes without logging in: counted per IP address. */
export type VisitorWrite = "contact" | "registration";
/** Writes a member makes: counted per member and, all kinds together, per IP address. */
export type MemberWrite = "message" | "response" | "request" | "mark" | "settings" | "report" | "referral";

/**
 * How many rows and mails one client may cause per hour, and for messages, which a script
 * can send to one member far faster than the hourly cap suggests, per minute too. Counted
 * only for submissions that would write (bad input costs nothing), before the write.
 */
export type WriteLimits = {
  byIp: Record<VisitorWrite, RateLimiter>;
  memberWritesByIp: RateLimiter;
  byMember: Record<MemberWrite, RateLimiter>;
  burstByMember: Partial<Record<MemberWrite, RateLimiter>>;
  /** New pending rows in the Brokers tab from the whole site (one key, PENDING_BROKERS_KEY): each is a row staff check by hand. */
  pendingBrokers: RateLimiter;
  /** Staff's mail that pendingBrokers is full: one an hour from this instance, so a flood's requests do not each try to claim it in the store. */
  pendingBrokersPausedMail: RateLimiter;
  /** Reads of each member's calendar feed: calendar apps poll it every few minutes to hours, a leaked link shared around far more. */
  calendarFeedReads: RateLimiter;
};

export const PENDING_BROKERS_KEY = "site";

/** What the page says there were too many of: "Too many responses. Please wait...". */
export const WRITE_NAMES: Record<VisitorWrite | MemberWrite, string> = {
  contact: "messages",
  registration: "registrations",
  message: "messages",
  response: "responses",
  request: "requests posted",
  mark: "changes",
  settings: "changes to your settings",
  report: "reports",
  referral: "referral changes",
};

export function createWriteLimits(config: Pick<Config, "writeLimits">): WriteLimits {
  const limits = config.writeLimits;
  const perHour = (limit: number) => createRateLimiter({ limit, windowSeconds: HOUR });
  return {
    byIp: { contact: perHour(limits.contactPerIp), registration: perHour(limits.registrationsPerIp) },
    memberWritesByIp: perHour(limits.memberWritesPerIp),
    byMember: {
      message: perHour(limits.messagesPerMember),
      response: perHour(limits.responsesPerMember),
      request: perHour(limits.requestsPerMember),
      mark: perHour(limits.marksPerMember),
      settings: perHour(limits.settingsPerMember),
      report: perHour(limits.reportsPerMember),
      referral: perHour(limits.referralActionsPerMember),
    },
    burstByMember: { message: createRateLimiter({ limit: limits.messagesPerMemberPerMinute, windowSeconds: MINUTE }) },
    pendingBrokers: perHour(limits.pendingBrokersPerHour),
    pendingBrokersPausedMail: perHour(1),
    calendarFeedReads: perHour(CALENDAR_FEED_READS_PER_HOUR),
  };
}

/** Counts one visitor write against the client's address. */
export function limitVisitorWrite(context: AppLoadContext, kind: VisitorWrite): RateLimitResult {
  return context.services.limits.byIp[kind].hit(clientIp(context));
}

/**
 * Counts one member write against the member's last minute (for the kinds that have such
 * a limit), the client's address and the member's hour. The minute comes first: a burst
 * refused there spends nothing of the hour's allowance.
 */
export function limitMemberWrite(context: AppLoadContext, kind: MemberWrite, member: Pick<Agent, "id">): RateLimitResult {
  const { limits } = context.services;
  const burst = limits.burstByMember[kind];
  return hitAll([
    ...(burst ? [[burst, member.id] as const] : []),
    [limits.memberWritesByIp, clientIp(context)],
    [limits.byMember[kind], member.id],
  ]);
}

/**
 * Counts a reply by mail as one message of the member's (docs/decisions/0071): their minute
 * and their hour, as on the site, but not the client's address, which is the mail provider's
 * and shared by every member's replies.
 */
export function limitReplyByMail({ limits }: { limits: WriteLimits }, member: Pick<Agent, "id">): RateLimitResult {
  const burst = limits.burstByMember.message;
  return hitAll([...(burst ? [[burst, member.id] as const] : []), [limits.byMember.message, member.id]]);
}
