import { randomBytes } from "node:crypto";
import { ICalCalendar } from "ical-generator";
import { Temporal } from "temporal-polyfill";
import { tzlib_get_ical_block } from "timezones-ical-library";
import { referralItems, respondByItem, type CalendarItem } from "~/domain/calendar";
import { invitationRespondBy } from "~/domain/invitations";
import { otherParty, partyName, partyOf } from "~/domain/referrals/agreement";
import { PRODUCT_NAME } from "~/domain/product";
import type { Agent } from "~/domain/workbook/tabs";
import { publicUrl } from "../accounts/urls.server";
import { sign, verifySignature } from "../auth/signing.server";
import { invitationsToAnswer } from "../invitations/invitations.server";
import type { Services } from "../services.server";

/** Where the network is: every time in a calendar file is written in this zone, with its rules in the file. */
const CENTRAL = "America/Chicago";
/** A Respond by shows as a short entry starting at the deadline. */
const RESPOND_BY_MINUTES = 15;
const FEED_PURPOSE = "calendar-feed";

type CalendarServices = Pick<Services, "store" | "config">;

/**
 * Every date the member can see now: the Respond by of each open invitation (as the
 * dashboard lists them), then the current dates of each referral they are a party of.
 */
export function calendarItemsFor(services: Pick<Services, "store">, member: Agent, now: Date): CalendarItem[] {
  const invited = services.store.invitations.by("agentEmail", member.email);
  const respondBys = invitationsToAnswer(services, member, now).flatMap((open) => {
    const request = services.store.requests.get(open.requestId);
    const invitation = invited.find((each) => each.requestId === open.requestId);
    if (!request || !invitation) return [];
    return respondByItem({ ...request, respondBy: invitationRespondBy(invitation, request) }) ?? [];
  });
  const referralDates = services.store.referrals.by("parties", member.email).flatMap((referral) => {
    const party = partyOf(referral, member.email);
    return party ? referralItems(referral, partyName(referral, otherParty(party)).trim() || "another agent") : [];
  });
  return [...respondBys, ...referralDates];
}

/** The iCalendar text of the items: timed entries on Central time with the zone's VTIMEZONE, dates as all-day entries. */
export function calendarText(
  services: Pick<Services, "config">,
  options: { name: string; items: readonly CalendarItem[]; request: Request; now: Date },
): string {
  const calendar = new ICalCalendar({
    name: options.name,
    prodId: { company: PRODUCT_NAME, product: "Calendar", language: "EN" },
    timezone: { name: null, generator: (zone) => tzlib_get_ical_block(zone)[0] ?? null },
  });
  for (const item of options.items) {
    const common = {
      id: item.uid,
      stamp: options.now,
      summary: item.summary,
      description: item.description,
      url: publicUrl(services.config, item.path, options.request),
    };
    if (item.when.kind === "day") {
      calendar.createEvent({ ...common, allDay: true, start: Temporal.PlainDate.from(item.when.day) });
    } else {
      // A zoned time, not a Date: the library writes a Date's wall clock in the server's own zone.
      const start = Temporal.Instant.from(item.when.at).toZonedDateTimeISO(CENTRAL);
      calendar.createEvent({ ...common, timezone: CENTRAL, start, end: start.add({ minutes: RESPOND_BY_MINUTES }) });
    }
  }
  return calendar.toString();
}

/**
 * The member's current dates on one page (`path`) as a download, or null when they have
 * none there: a page they are no party of, or a date that is not theirs or not current.
 */
export function pageDatesDownload(
  services: CalendarServices,
  options: { member: Agent; path: string; filename: string; request: Request },
): Response | null {
  const now = new Date();
  const items = calendarItemsFor(services, options.member, now).filter((item) => item.path === options.path);
  const first = items[0];
  if (!first) return null;
  return calendarResponse(calendarText(services, { name: first.summary, items, request: options.request, now }), options.filename);
}

/** A calendar file as a download; `inline` for the feed, which calendar apps read rather than save. */
export function calendarResponse(text: string, filename: string, disposition: "attachment" | "inline" = "attachment"): Response {
  return new Response(text, {
    headers: {
      "Content-Type": "text/calendar; charset=utf-8",
      "Content-Disposition": `${disposition}; filename="${filename}"`,
      "Cache-Control": "private, no-store",
      "X-Robots-Tag": "noindex",
    },
  });
}

/** A fresh key for the member's feed link: writing it to their row ends the link made from the old one. */
export function newCalendarKey(): string {
  return randomBytes(16).toString("hex");
}

/** The feed link's token: the row's key and its signature, so the key read from the sheet alone does not open the feed. */
export function calendarFeedToken(services: Pick<Services, "config">, key: string): string {
  return `${key}.${sign(services.config.sessionSecrets, FEED_PURPOSE, key)}`;
}

/** The member whose current feed link carries this token; none for a forged, old or malformed one, or a member no longer approved. */
export function memberForFeedToken(services: CalendarServices, token: string): Agent | undefined {
  const [key, signature, ...rest] = token.split(".");
  if (!key || !signature || rest.length > 0 || !/^[0-9a-f]{32}$/.test(key)) return undefined;
  if (!verifySignature(services.config.sessionSecrets, FEED_PURPOSE, key, signature)) return undefined;
  const member = services.store.agents.by("calendarKey", key).find((agent) => agent.calendarKey === key);
  return member?.status === "approved" ? member : undefined;
}
