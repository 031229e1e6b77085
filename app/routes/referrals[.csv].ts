import type { LoaderFunctionArgs } from "@remix-run/node";
import { toCsv } from "~/domain/csv";
import { parseCsvYear } from "~/domain/referrals/overview";
import { requireMember } from "~/server/auth/session.server";
import { referralCsvRows } from "~/server/referrals/overview.server";

/** /referrals.csv?year=2026: the member's own referrals of one year, for the tax paperwork. */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const member = await requireMember(request, context);
  const now = new Date();
  const year = parseCsvYear(new URL(request.url).searchParams.get("year"), now);
  if (year === null)
    return new Response("Choose a year from the list on the referrals page.", {
      status: 400,
      headers: { "Content-Type": "text/plain; charset=utf-8" },
    });
  return new Response(toCsv(referralCsvRows(context.services, member, year, now)), {
    headers: {
      "Content-Type": "text/csv; charset=utf-8",
      "Content-Disposition": `attachment; filename="referrals-${year}.csv"`,
      "Cache-Control": "private, no-store",
    },
  });
}
