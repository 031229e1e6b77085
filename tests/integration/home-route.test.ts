import { describe, expect, it } from "vitest";
import type { Agent } from "../../app/domain/workbook";
import { loader } from "../../app/routes/_index";
import { newId } from "../../app/server/store/store.server";
import { testContext } from "../support/services";

function agentRow(index: number): Agent {
  return {
    id: newId(),
    fullName: `Agent ${index}`,
    email: `agent${index}@example.test`,
    phone: "",
    state: "TX",
    city: "Austin",
    zipCode: "",
    licenseNumber: "",
    licenseState: "TX",
    licenseExpiration: "",
    brokerage: "",
    brokerEmail: "",
    specialties: [],
    bio: "",
    photoUrl: "",
    membershipType: "founder",
    vipCode: "",
    status: index % 2 === 0 ? "approved" : "pending",
    statusNote: "",
    passwordHash: "",
    createdAt: new Date().toISOString(),
  };
}

describe("landing page founder counter", () => {
  it("counts real agent rows, whatever their status", async () => {
    const context = testContext();
    await context.services.store.refresh();
    const request = new Request("http://localhost/");
    expect(loader({ request, context, params: {} }).foundersLeft).toBe(100);

    for (let index = 0; index < 3; index += 1) await context.services.store.agents.insert(agentRow(index));
    expect(loader({ request, context, params: {} }).foundersLeft).toBe(97);
  });
});
