import type { LoaderFunctionArgs } from "@remix-run/node";
import { requireMember } from "~/server/auth/session.server";
import { newRequestCount } from "~/server/referral-requests/dashboard-requests.server";

/**
 * What the dashboard's script polls (every 30 s and on window focus): how many
 * requests matching its filters arrived since `since`, the time its list was read.
 */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const member = await requireMember(request, context);
  const params = new URL(request.url).searchParams;
  const since = params.get("since") ?? "";
  const sinceTime = Date.parse(since);
  if (Number.isNaN(sinceTime)) return Response.json({ error: "since must be a date and time" }, { status: 400 });
  const now = new Date();
  return Response.json(
    // `since` comes back so the page can tell an answer about its current list from a late one.
    { since, newCount: newRequestCount(context.services, member, params, new Date(sinceTime), now), checkedAt: now.toISOString() },
    { headers: { "Cache-Control": "no-store" } },
  );
}
