import type { LoaderFunctionArgs } from "@remix-run/node";
import { PRODUCT_NAME } from "~/domain/product";
import { calendarItemsFor, calendarResponse, calendarText, memberForFeedToken } from "~/server/calendar/calendar.server";
import { notFound } from "~/server/http.server";

const FEED_NOT_FOUND = "Calendar not found";

/**
 * /calendar/TOKEN.ics: a member's private calendar feed, read by calendar apps without a
 * login; the token is the key (docs/decisions/0069). A forged or replaced link is 404.
 */
export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const token = /^(.+)\.ics$/.exec(params.file ?? "")?.[1];
  const member = token ? memberForFeedToken(context.services, token) : undefined;
  if (!member) return notFound(FEED_NOT_FOUND);
  const allowed = context.services.limits.calendarFeedReads.hit(member.id);
  if (!allowed.allowed)
    return new Response("Too many reads of this calendar. Please try again later.", {
      status: 429,
      headers: { "Content-Type": "text/plain; charset=utf-8", "Retry-After": String(allowed.retryAfterSeconds) },
    });
  const now = new Date();
  const items = calendarItemsFor(context.services, member, now);
  const text = calendarText(context.services, { name: PRODUCT_NAME, items, request, now });
  return calendarResponse(text, "red-river-referrals.ics", "inline");
}
