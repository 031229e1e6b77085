import type { Agent } from "~/domain/workbook/tabs";

/**
 * An approved member's Agents record: the given fields, and every other column blank (no
 * password, no license details, no bio), a member, not a founder or VIP. The test
 * records, the benches' networks, the demo and the agent import all build their agents
 * with it, so a new Agents column is given its value here once.
 */
export function approvedAgent(fields: Pick<Agent, "id" | "fullName" | "email" | "createdAt"> & Partial<Agent>): Agent {
  return {
    phone: "",
    state: "",
    city: "",
    zipCode: "",
    licenseNumber: "",
    licenseState: "",
    licenseExpiration: "",
    brokerage: "",
    brokerEmail: "",
    specialties: [],
    bio: "",
    photoUrl: "",
    membershipType: "member",
    vipCode: "",
    status: "approved",
    statusNote: "",
    passwordHash: "",
    placesServed: [],
    ...fields,
  };
}
