import type { LoaderFunctionArgs } from "@remix-run/node";
import { requireMember } from "~/server/auth/session.server";
import { agreementPdfResponse } from "~/server/referrals/agreement-pdf.server";
import { requireReferral } from "~/server/referrals/referral-view.server";

/** The agreement as a PDF, for its two parties only (404 for everyone else). */
export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const member = await requireMember(request, context);
  const { referral } = requireReferral(context.services, member, params.id ?? "");
  return agreementPdfResponse(context.services, referral);
}
