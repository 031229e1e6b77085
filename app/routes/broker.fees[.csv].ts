import type { LoaderFunctionArgs } from "@remix-run/node";
import { BROKER_LINK_INVALID } from "~/domain/brokers";
import { toCsv } from "~/domain/csv";
import { parseCsvYear } from "~/domain/referrals/overview";
import { brokerForRequest } from "~/server/brokers/broker-link.server";
import { brokerFeeCsv } from "~/server/brokers/broker-view.server";

function plainText(text: string, status: number): Response {
  return new Response(text, { status, headers: { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "private, no-store" } });
}

/** /broker/fees.csv?year=2026: the referral fees the broker's office paid or received in a year, for the 1099 paperwork. */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const broker = await brokerForRequest(context.services, request);
  if (!broker) return plainText(BROKER_LINK_INVALID, 403);
  const year = parseCsvYear(new URL(request.url).searchParams.get("year"), new Date());
  if (year === null) return plainText("Choose a year from the list on the broker's view.", 400);
  return new Response(toCsv(brokerFeeCsv(context.services, broker, year)), {
    headers: {
      "Content-Type": "text/csv; charset=utf-8",
      "Content-Disposition": `attachment; filename="referral-fees-${year}.csv"`,
      "Cache-Control": "private, no-store",
    },
  });
}
