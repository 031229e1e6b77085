import { describe, expect, it } from "vitest";
import {
  AgentIdLookup,
  agentIdFromEmail,
  agentIdFromName,
  agentIdOf,
  canonicalIdFromDashed,
  dashedAgentIdFromEmail,
} from "../../app/domain/agent-id";

describe("agent ids", () => {
  it("replaces the at-sign and dots of the e-mail with underscores, lower-cased", () => {
    expect(agentIdFromEmail(" Jane.Doe@Example.com ")).toBe("jane_doe_example_com");
    expect(agentIdFromEmail("mary-jo+tx@realty.co.uk")).toBe("mary-jo+tx_realty_co_uk");
  });

  it("uses the name with spaces replaced by underscores when there is no e-mail", () => {
    expect(agentIdFromName("  Jane   Doe ")).toBe("Jane_Doe");
    expect(agentIdOf({ email: "", fullName: "José Núñez" })).toBe("José_Núñez");
    expect(agentIdOf({ email: "jose@example.com", fullName: "José Núñez" })).toBe("jose_example_com");
  });

  it("writes the old site's dashed form and maps it back to the canonical id", () => {
    expect(dashedAgentIdFromEmail("Jane.Doe@Example.com")).toBe("jane-doe-at-example-com");
    expect(canonicalIdFromDashed("jane-doe-at-example-com")).toBe("jane_doe_example_com");
    expect(canonicalIdFromDashed("Jane-Doe-AT-Example-com")).toBe("jane_doe_example_com");
    expect(canonicalIdFromDashed("jane_doe_example_com")).toBeNull();
  });
});

describe("AgentIdLookup", () => {
  const jane = { key: "r-1", email: "jane.doe@example.com", fullName: "Jane Doe" };
  const maryJo = { key: "r-2", email: "mary-jo@example.com", fullName: "Mary Jo Smith" };
  const underscored = { key: "r-3", email: "sam_lee@example.com", fullName: "Sam Lee" };
  const twinA = { key: "r-4", email: "a@example.com", fullName: "Pat Kim" };
  const twinB = { key: "r-5", email: "b@example.com", fullName: "Pat Kim" };
  const lookup = new AgentIdLookup([jane, maryJo, underscored, twinA, twinB], (agent) => [agent.key]);

  it("finds an agent by the canonical id, as canonical", () => {
    expect(lookup.find("jane_doe_example_com")).toEqual({ agent: jane, canonicalId: "jane_doe_example_com", isCanonical: true });
  });

  it("finds other case or the dashed form, marked for a redirect to the canonical id", () => {
    expect(lookup.find("Jane_Doe_Example_com")).toEqual({ agent: jane, canonicalId: "jane_doe_example_com", isCanonical: false });
    expect(lookup.find("jane-doe-at-example-com")).toEqual({ agent: jane, canonicalId: "jane_doe_example_com", isCanonical: false });
  });

  it("keeps dashes that are part of the e-mail apart from those standing for dots", () => {
    expect(lookup.find("mary-jo-at-example-com")?.canonicalId).toBe("mary-jo_example_com");
    expect(lookup.find("sam-lee-at-example-com")?.canonicalId).toBe("sam_lee_example_com");
  });

  it("finds an agent by the name-based id and by an extra key", () => {
    expect(lookup.find("Jane_Doe")).toMatchObject({ agent: jane, isCanonical: false });
    expect(lookup.find("jane_doe")).toMatchObject({ agent: jane, isCanonical: false });
    expect(lookup.find("r-2")).toMatchObject({ agent: maryJo, canonicalId: "mary-jo_example_com", isCanonical: false });
  });

  it("leads nowhere for an unknown id or a name two agents share", () => {
    expect(lookup.find("nobody_example_com")).toBeNull();
    expect(lookup.find("")).toBeNull();
    expect(lookup.find("Pat_Kim")).toBeNull();
    expect(lookup.find("a_example_com")).toMatchObject({ agent: twinA, isCanonical: true });
  });
});
