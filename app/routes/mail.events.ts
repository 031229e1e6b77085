import type { ActionFunctionArgs } from "@remix-run/node";
import { notFound } from "~/server/http.server";
import { MAIL_EVENTS_MAX_BYTES, readSignedEvents, suppressFromEvents } from "~/server/mail/mail-events.server";

/*
 * SendGrid's Event Webhook, signed (docs/decisions/0084): hard bounces and spam complaints
 * put their addresses on the suppression list. SendGrid posts a batch again for 24 hours
 * after any answer but a 2xx, so every batch it signed is answered 200 once stored, and only
 * a post that is not SendGrid's (403), too large (413), not a JSON array (400) or that the
 * store could not take (503, to be posted again) is not. Off (404) unless
 * SENDGRID_EVENT_PUBLIC_KEY is set.
 */

export async function action({ request, context }: ActionFunctionArgs) {
  const { config } = context.services;
  if (!config.mailEventsKey) throw notFound();
  const now = new Date();
  const read = await readSignedEvents(request, config.mailEventsKey, now);
  if (!read.ok) {
    console.warn(`Mail events: refused a post (${read.reason}); nothing stored.`);
    return refusal(read.reason);
  }
  try {
    const { added, listed } = await suppressFromEvents(context.services, read.events, now);
    return answer(200, `Stored: ${added} added to the suppression list, ${listed} listed already.`);
  } catch (error) {
    console.error("Mail events: the suppression list could not be written; SendGrid will post the batch again:", error);
    return answer(503, "Not stored: the store is unavailable. Post again later.");
  }
}

function refusal(reason: "unsigned" | "forged" | "stale" | "too-large" | "unreadable" | "not-events"): Response {
  switch (reason) {
    case "too-large":
      return answer(413, `Refused: over ${MAIL_EVENTS_MAX_BYTES / (1024 * 1024)} MB.`);
    case "unreadable":
    case "not-events":
      return answer(400, "Refused: not a JSON array of events.");
    default:
      return answer(403, "Refused: not signed with the configured key, or signed too long ago.");
  }
}

function answer(status: number, text: string): Response {
  return new Response(text, { status, headers: { "Content-Type": "text/plain; charset=utf-8" } });
}
