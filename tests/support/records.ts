import { randomUUID } from "node:crypto";
import { expiresAtFor } from "../../app/domain/referral-requests/expiry";
import { postRequestSchema, type PostRequestInput } from "../../app/domain/referral-requests/forms";
import type { Agent, Referral, ReferralRequest, SendClaim } from "../../app/domain/workbook/tabs";
import { approvedAgent } from "../../scripts/lib/agent-record";

/**
 * An approved agent with every field filled, for unit, integration and browser tests
 * alike: a fresh id and e-mail unless given. Tests override what they look at.
 */
export function agentRecord(fields: Partial<Agent> = {}): Agent {
  return approvedAgent({
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
    specialties: ["Residential"],
    createdAt: "2026-01-15T12:00:00.000Z",
    ...fields,
  });
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

type Party = Pick<Agent, "email" | "fullName" | "brokerage">;

/**
 * A Referrals row of an agreement both parties signed a week ago (a 25% fee, a 12-month
 * term), for unit, integration and browser tests alike; tests override the status and
 * what they look at.
 */
export function referralRecord(referring: Party, receiving: Party, fields: Partial<Referral> = {}): Referral {
  const signedAt = fields.signedAt ?? new Date(Date.now() - 7 * 24 * 60 * 60 * 1000).toISOString();
  const termEndsAt = new Date(signedAt);
  termEndsAt.setUTCMonth(termEndsAt.getUTCMonth() + 12);
  return {
    id: randomUUID(),
    requestId: randomUUID(),
    responseId: undefined,
    status: "signed",
    proposedByEmail: referring.email,
    referringEmail: referring.email,
    referringName: referring.fullName,
    referringBrokerage: referring.brokerage,
    referringBrokerLicense: "0400001",
    referringBrokerEmail: "broker1@example.com",
    receivingEmail: receiving.email,
    receivingName: receiving.fullName,
    receivingBrokerage: receiving.brokerage,
    receivingBrokerLicense: "0400002",
    receivingBrokerEmail: "broker2@example.com",
    clientName: "J.D.",
    side: "buyer",
    feeType: "percent",
    feePercent: 25,
    feeFlat: undefined,
    termMonths: 12,
    feeDue: "Within 10 days after closing or funding",
    terms: "",
    agreementHash: "0".repeat(64),
    referringSignedName: referring.fullName,
    referringSignedAt: signedAt,
    referringSignedIp: "203.0.113.1",
    referringSignedAgent: "test",
    referringSignedHash: "0".repeat(64),
    receivingSignedName: receiving.fullName,
    receivingSignedAt: signedAt,
    receivingSignedIp: "203.0.113.2",
    receivingSignedAgent: "test",
    receivingSignedHash: "0".repeat(64),
    signedAt,
    termEndsAt: termEndsAt.toISOString(),
    expectedCloseDate: undefined,
    closeDate: undefined,
    salePrice: undefined,
    grossCommission: undefined,
    feeAmount: undefined,
    lostReason: undefined,
    lastReminderAt: undefined,
    createdAt: signedAt,
    updatedAt: undefined,
    ...fields,
  };
}

/** A SendClaims row this instance claimed `daysAgo` days before `now`: what pruning reads. */
export function claimRecord(key: string, daysAgo: number, now: Date): SendClaim {
  return {
    id: key,
    key,
    instance: "here",
    outcome: "claimed",
    note: "",
    claimedAt: new Date(now.getTime() - daysAgo * 86_400_000).toISOString(),
  };
}
