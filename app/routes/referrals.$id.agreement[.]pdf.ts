import type { LoaderFunctionArgs } from "@remix-run/node";
import { shortReference } from "~/domain/referrals/labels";
import { requireMember } from "~/server/auth/session.server";
import { agreementPdf } from "~/server/referrals/agreement-pdf.server";
import { requireReferral } from "~/server/referrals/referral-view.server";

/** The agreement as a PDF, for its two parties only (404 for everyone else). */
export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const member = await requireMember(request, context);
  const { referral } = requireReferral(context.services, member, params.id ?? "");
  const pdf = await agreementPdf(context.services, referral);
  return new Response(new Uint8Array(pdf), {
    headers: {
      "Content-Type": "application/pdf",
      "Content-Disposition": `inline; filename="referral-agreement-${shortReference(referral.id).slice(4)}.pdf"`,
      "Cache-Control": "private, no-store",
    },
  });
}
