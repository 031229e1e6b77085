import type { LoaderFunctionArgs } from "@remix-run/node";
import { brokerForRequest } from "~/server/brokers/broker-link.server";
import { brokerReferral } from "~/server/brokers/broker-view.server";
import { notFound } from "~/server/http.server";
import { agreementPdfResponse } from "~/server/referrals/agreement-pdf.server";
import { cdaPdfResponse } from "~/server/referrals/cda.server";

/**
 * /broker/referrals/{id}/agreement.pdf and .../cda.pdf: the documents of a referral one of
 * the broker's agents is a party to; 404 for any other referral, or without a working link.
 */
export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const { services } = context;
  const broker = await brokerForRequest(services, request);
  const referral = broker ? brokerReferral(services, broker, params.id ?? "") : undefined;
  if (!referral) return notFound("Referral not found");
  if (params.document === "cda.pdf")
    return (await cdaPdfResponse(referral)) ?? notFound("No commission disbursement authorization was sent");
  if (params.document !== "agreement.pdf") return notFound();
  return agreementPdfResponse(services, referral);
}
