import type { LoaderFunctionArgs } from "@remix-run/node";
import { getMember } from "~/server/auth/session.server";
import { conversationsOf, newestIn, unlessUnavailable } from "~/server/messages/conversations.server";
import { EVENT_STREAM_HEADERS, memberEventStream } from "~/server/messages/event-stream.server";

/**
 * Live updates for an open messages page (server-sent events). `since` is the newest
 * message time the page shows: a message that arrived between the page's load and this
 * connection is announced at once.
 */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const member = await getMember(request, context);
  // Not a redirect: EventSource would follow it to an HTML page. 401 makes it stop.
  if (!member) return new Response("Log in to receive message updates.", { status: 401 });
  const { services } = context;
  const since = new URL(request.url).searchParams.get("since") ?? "";
  const stream = memberEventStream({
    events: services.messageEvents,
    memberEmail: member.email,
    signal: request.signal,
    // Unknown while the database is out of reach; once it is back, the reconnected listener tells every open page.
    missedNews: newestIn((await unlessUnavailable(conversationsOf(services, member))) ?? []) > since,
  });
  return new Response(stream, { headers: EVENT_STREAM_HEADERS });
}
