import type { LoaderFunctionArgs } from "@remix-run/node";
import { requireMember } from "~/server/auth/session.server";
import { pageDatesDownload } from "~/server/calendar/calendar.server";
import { notFound } from "~/server/http.server";

/** A referral's current date (expected closing, or the fee's due date) as a calendar file, for its two parties (404 otherwise). */
export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const member = await requireMember(request, context);
  const id = params.id ?? "";
  const download = pageDatesDownload(context.services, { member, path: `/referrals/${id}`, filename: "referral-dates.ics", request });
  return download ?? notFound("No date of yours on this referral");
}
