import type { AppLoadContext } from "@remix-run/node";
import { agentRecord } from "../support/records";
import { afterEach, describe, expect, it } from "vitest";
import type { Agent } from "../../app/domain/workbook/tabs";
import { loader as profileLoader } from "../../app/routes/agent.$agentId";
import { loader as directoryLoader } from "../../app/routes/directory";
import { loader as memberDirectoryLoader } from "../../app/routes/member-directory";
import { startMemberSession } from "../../app/server/auth/session.server";
import type { Store } from "../../app/server/store/store.server";
import { testContext } from "../support/services";

const opened: Store[] = [];
afterEach(async () => {
  await Promise.all(opened.splice(0).map((store) => store.stop()));
});

const jane = agentRecord({
  id: "rec-jane",
  fullName: "Jane Doe",
  email: "jane.doe@example.com",
  phone: "214.555.0100",
  city: "Austin",
  brokerage: "Hill Country Homes",
  specialties: ["Luxury", "Land", "Auction", "Residential", "Commercial"],
  bio: "Twenty years selling ranches & homes around Austin.",
  membershipType: "founder",
});
const otto = agentRecord({
  id: "rec-otto",
  fullName: "Otto Okie",
  email: "otto@example.com",
  phone: "9185550100",
  state: "OK",
  city: "Tulsa",
  brokerage: "",
  membershipType: "vip",
});
const member = agentRecord({
  id: "rec-member",
  fullName: "Mia Member",
  email: "mia@example.com",
  brokerage: "Red Door Realty",
  passwordHash: "$2a$04$abcdefghijklmnopqrstuv",
});
const pending = agentRecord({ id: "rec-pending", fullName: "Penny Pending", email: "penny@example.com", status: "pending" });

async function contextWith(agents: readonly Agent[]): Promise<AppLoadContext> {
  const context = testContext();
  opened.push(context.services.store);
  await context.services.store.refresh();
  for (const agent of agents) await context.services.store.agents.insert(agent);
  return context;
}

async function sessionCookie(context: AppLoadContext, agent: Agent): Promise<string> {
  const response = await startMemberSession(new Request("http://localhost/member-login"), context, agent, "/");
  return (response.headers.get("Set-Cookie") ?? "").split(";")[0]!;
}

function get(path: string, cookie?: string): Request {
  return new Request(`http://localhost${path}`, { headers: cookie ? { Cookie: cookie } : {} });
}

/** Runs a loader that is expected to throw a Response (a redirect or a 404). */
async function thrown(run: () => Promise<unknown>): Promise<Response> {
  try {
    await run();
  } catch (error) {
    if (error instanceof Response) return error;
    throw error;
  }
  throw new Error("The loader returned instead of throwing a Response");
}

describe("/directory loader", () => {
  it("filters, searches and shows no e-mail or phone", async () => {
    const context = await contextWith([jane, otto, member, pending]);
    const data = await directoryLoader({ request: get("/directory?q=austin&state=TX"), context, params: {} });
    expect(data).toMatchObject({ matches: 1, total: 3, page: 1, pageCount: 1, query: { q: "austin", state: "TX", specialty: null } });
    expect(data.agents.map((agent) => agent.fullName)).toEqual(["Jane Doe"]);
    const text = JSON.stringify(data);
    expect(text).not.toContain("jane.doe@example.com");
    expect(text).not.toContain("jane_doe_example_com");
    expect(text).not.toContain("555");
    expect(data.agents[0]).toMatchObject({ profileHref: "/agent/rec-jane", membershipType: "founder" });
  });

  it("accepts the footer's ?state= links and sends visitors to log in before messaging", async () => {
    const context = await contextWith([jane, otto]);
    const data = await directoryLoader({ request: get("/directory?state=OK"), context, params: {} });
    expect(data.agents.map((agent) => agent.fullName)).toEqual(["Otto Okie"]);
    expect(data.agents[0]?.messageHref).toBe(`/member-login?redirectTo=${encodeURIComponent("/messages?to=rec-otto")}`);
  });

  it("links members straight to the messages page", async () => {
    const context = await contextWith([jane, member]);
    const data = await directoryLoader({
      request: get("/directory?specialty=Luxury", await sessionCookie(context, member)),
      context,
      params: {},
    });
    expect(data.agents.map((agent) => [agent.fullName, agent.messageHref])).toEqual([["Jane Doe", "/messages?to=rec-jane"]]);
  });

  it("pages the results", async () => {
    const many = Array.from({ length: 30 }, (_, i) =>
      agentRecord({ id: `rec-${i}`, fullName: `Agent ${String(i).padStart(2, "0")}`, email: `a${i}@example.com` }),
    );
    const context = await contextWith(many);
    const data = await directoryLoader({ request: get("/directory?page=2"), context, params: {} });
    expect(data).toMatchObject({ page: 2, pageCount: 2, matches: 30 });
    expect(data.agents.map((agent) => agent.fullName)).toEqual(["Agent 24", "Agent 25", "Agent 26", "Agent 27", "Agent 28", "Agent 29"]);
  });
});

describe("/member-directory loader", () => {
  it("sends visitors to log in and back here afterwards", async () => {
    const context = await contextWith([jane]);
    const response = await thrown(() => memberDirectoryLoader({ request: get("/member-directory?state=TX"), context, params: {} }));
    expect(response.status).toBe(302);
    expect(response.headers.get("Location")).toBe(`/member-login?redirectTo=${encodeURIComponent("/member-directory?state=TX")}`);
  });

  it("filters by state, city and specialty and gives contact details", async () => {
    const context = await contextWith([jane, otto, member, pending]);
    const cookie = await sessionCookie(context, member);
    const data = await memberDirectoryLoader({
      request: get("/member-directory?state=TX&city=aus&specialty=LUX", cookie),
      context,
      params: {},
    });
    expect(data).toMatchObject({ matches: 1, total: 3 });
    const card = data.agents[0]!;
    expect(card).toMatchObject({
      fullName: "Jane Doe",
      phone: "(214) 555-0100",
      profileHref: "/agent/jane_doe_example_com",
      membershipType: "founder",
    });
    expect(card.bioPreview).toBe("Twenty years selling ranches & homes around Austin.");
    const mailto = new URL(card.contactHref);
    expect(mailto.protocol).toBe("mailto:");
    expect(mailto.pathname).toBe("jane.doe@example.com");
    expect(decodeURIComponent(mailto.searchParams.get("subject") ?? "")).toContain("Mia Member");
    expect(card.contactHref).not.toContain("+");
    expect(decodeURIComponent(card.contactHref.split("body=")[1]!)).toContain("Hi Jane,\r\n");

    const none = await memberDirectoryLoader({ request: get("/member-directory?city=nowhere", cookie), context, params: {} });
    expect(none).toMatchObject({ matches: 0, agents: [] });
  });
});

describe("/agent/$agentId loader", () => {
  it("sends visitors to log in", async () => {
    const context = await contextWith([jane]);
    const response = await thrown(() =>
      profileLoader({ request: get("/agent/jane_doe_example_com"), context, params: { agentId: "jane_doe_example_com" } }),
    );
    expect(response.headers.get("Location")).toBe(`/member-login?redirectTo=${encodeURIComponent("/agent/jane_doe_example_com")}`);
  });

  it("shows the profile at the canonical id, with the phone formatted", async () => {
    const context = await contextWith([jane, member]);
    const data = await profileLoader({
      request: get("/agent/jane_doe_example_com", await sessionCookie(context, member)),
      context,
      params: { agentId: "jane_doe_example_com" },
    });
    expect(data.profile).toMatchObject({
      agentId: "jane_doe_example_com",
      fullName: "Jane Doe",
      email: "jane.doe@example.com",
      phone: "(214) 555-0100",
      membershipType: "founder",
    });
    expect(JSON.stringify(data)).not.toContain("passwordHash");
  });

  it.each([["jane-doe-at-example-com"], ["Jane_Doe"], ["rec-jane"], ["JANE_DOE_EXAMPLE_COM"]])(
    "redirects %s to the canonical id",
    async (agentId) => {
      const context = await contextWith([jane, member]);
      const cookie = await sessionCookie(context, member);
      const response = await thrown(() => profileLoader({ request: get(`/agent/${agentId}`, cookie), context, params: { agentId } }));
      expect(response.status).toBe(302);
      expect(response.headers.get("Location")).toBe("/agent/jane_doe_example_com");
    },
  );

  it.each([["nobody_example_com"], ["penny_example_com"]])("answers 404 Agent not found for %s", async (agentId) => {
    const context = await contextWith([jane, member, pending]);
    const cookie = await sessionCookie(context, member);
    const response = await thrown(() => profileLoader({ request: get(`/agent/${agentId}`, cookie), context, params: { agentId } }));
    expect(response.status).toBe(404);
    expect(await response.text()).toBe("Agent not found");
  });
});
