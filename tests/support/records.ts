import { randomUUID } from "node:crypto";
import { expiresAtFor } from "../../app/domain/referral-requests/expiry";
import { postRequestSchema, type PostRequestInput } from "../../app/domain/referral-requests/forms";
import type { Agent, ReferralRequest } from "../../app/domain/workbook/tabs";

/**
 * An approved agent with every field filled, for unit, integration and browser tests
 * alike: a fresh id and e-mail unless given. Tests override what they look at.
 */
export function agentRecord(fields: Partial<Agent> = {}): Agent {
  return {
    id: randomUUID(),
    fullName: "Dana Reyes",
    email: `agent-${randomUUID().slice(0, 8)}@example.com`,
    phone: "(214) 555-0100",
    state: "TX",
    city: "Dallas",
    zipCode: "75201",
    licenseNumber: "0612345",
    licenseState: "TX",
    licenseExpiration: "2027-12-31",
    brokerage: "Lone Star Realty",
    brokerEmail: "",
    specialties: ["Residential"],
    bio: "",
    photoUrl: "",
    membershipType: "member",
    vipCode: "",
    status: "approved",
    statusNote: "",
    passwordHash: "",
    createdAt: "2026-01-15T12:00:00.000Z",
    ...fields,
  };
}

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

/**
 * A valid post request form with `requestRecord`'s values, as the browser sends it (an
 * unticked checkbox sends nothing); tests override what they look at.
 */
export function requestForm(fields: Partial<Record<keyof PostRequestInput, string>> = {}): Record<string, string> {
  const record = requestRecord({ email: "", fullName: "" });
  const sent = Object.keys(postRequestSchema.shape).flatMap((name) => {
    const value = record[name as keyof ReferralRequest];
    return typeof value === "string" ? [[name, value]] : [];
  });
  return { ...Object.fromEntries(sent), ...fields };
}
