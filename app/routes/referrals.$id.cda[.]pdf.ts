import type { LoaderFunctionArgs } from "@remix-run/node";
import { requireMember } from "~/server/auth/session.server";
import { notFound } from "~/server/http.server";
import { cdaPdfResponse } from "~/server/referrals/cda.server";
import { requireReferral } from "~/server/referrals/referral-view.server";

/** The commission disbursement authorization as a PDF, for the referral's two parties, once it was sent (404 otherwise). */
export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const member = await requireMember(request, context);
  const { referral } = requireReferral(context.services, member, params.id ?? "");
  return (await cdaPdfResponse(referral)) ?? notFound("No commission disbursement authorization was sent for this referral");
}
