import type { LoaderFunctionArgs } from "@remix-run/node";
import { requireMember } from "~/server/auth/session.server";
import { pageDatesDownload } from "~/server/calendar/calendar.server";
import { notFound } from "~/server/http.server";

/** An open invitation's Respond by as a calendar file, for the invited agent only (404 for everyone else). */
export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const member = await requireMember(request, context);
  const id = params.id ?? "";
  const download = pageDatesDownload(context.services, { member, path: `/referral-requests/${id}`, filename: "respond-by.ics", request });
  return download ?? notFound("No Respond by of yours on this request");
}
