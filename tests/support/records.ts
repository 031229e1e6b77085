import { randomUUID } from "node:crypto";
import { expiresAtFor } from "../../app/domain/referral-requests/expiry";
import type { Agent, ReferralRequest } from "../../app/domain/workbook/tabs";

/**
 * A Requests row as the app writes it, for unit, integration and browser tests alike;
 * the creation time sets the expiry, as posting does.
 */
export function requestRecord(owner: Pick<Agent, "email" | "fullName">, fields: Partial<ReferralRequest> = {}): ReferralRequest {
  const createdAt = fields.createdAt ?? new Date().toISOString();
  return {
    id: randomUUID(),
    requestType: "referral",
    title: "Relocating family needs an OKC agent",
    location: "Oklahoma City",
    state: "OK",
    specialty: "Residential",
    priceRange: "$200k - $400k",
    clientType: "buyer",
    timeline: "1month",
    contactPreference: "either",
    listingAddress: "",
    listingMLS: "",
    description: "Two kids, four bedrooms, pre-approved.",
    urgent: false,
    agentEmail: owner.email,
    agentName: owner.fullName,
    status: "active",
    responses: 0,
    createdAt,
    updatedAt: undefined,
    expiresAt: expiresAtFor(createdAt),
    ...fields,
  };
}
