/**
 * The best-fit agents of a request, from the store: who serves its place, who is left out
 * (suspended, blocked either way, pending, quiet, already invited), their order and reasons,
 * and the index kept between requests.
 */
import type { AppLoadContext } from "@remix-run/node";
import { afterEach, describe, expect, it } from "vitest";
import type { Agent, Invitation, ReferralRequest } from "../../app/domain/workbook/tabs";
import { bestFitAgents } from "../../app/server/matching/best-fit.server";
import { CHATTY_SETTLE_MS } from "../../app/server/matching/candidate-index.server";
import { agentRecord, requestRecord } from "../support/records";
import { testContext } from "../support/services";

const DAY = 86_400_000;
const NOW = new Date();
const daysAgo = (days: number) => new Date(NOW.getTime() - days * DAY).toISOString();

/** An approved agent in Tyler, TX, who joined ten days ago and serves `placesServed` within 25 miles. */
const agent = (name: string, fields: Partial<Agent> = {}) =>
  agentRecord({
    id: `rec-${name}`,
    fullName: name,
    email: `${name}@example.com`,
    city: "Tyler",
    state: "TX",
    specialties: ["Residential"],
    placesServed: [],
    createdAt: daysAgo(10),
    ...fields,
  });

const poster = agent("poster");

function invitation(request: ReferralRequest, agentEmail: string, status: Invitation["status"]): Invitation {
  return {
    id: `${request.id}/${agentEmail}`,
    requestId: request.id,
    posterEmail: request.agentEmail,
    agentEmail,
    status,
    reason: "",
    createdAt: daysAgo(5),
    answeredAt: status === "declined" ? daysAgo(4) : undefined,
    remindedAt: undefined,
  };
}

describe("the best-fit agents of a request", () => {
  const opened: AppLoadContext[] = [];
  afterEach(async () => {
    await Promise.all(opened.splice(0).map((context) => context.services.store.stop()));
  });

  async function network(agents: readonly Agent[]): Promise<AppLoadContext> {
    const context = testContext();
    opened.push(context);
    await context.services.store.refresh();
    for (const each of [poster, ...agents]) await context.services.store.agents.insert(each);
    return context;
  }

  const inTyler = (fields: Partial<ReferralRequest> = {}) =>
    requestRecord(poster, { location: "north of Tyler", state: "TX", specialty: "Residential", priceRange: "$200k - $400k", ...fields });
  const emailsOf = (list: { email: string }[]) => list.map((each) => each.email);
  const options = { limit: 5, excludeEmails: new Set<string>(), now: NOW };

  it("lists the agents who serve the place, nearest first, with the reasons, and leaves out the rest", async () => {
    const context = await network([
      agent("lindale", { city: "Dallas", placesServed: ["Lindale, TX"] }),
      agent("longview", { city: "Dallas", placesServed: ["Longview, TX"], serviceRadius: 50 }),
      agent("home", { city: "Tyler" }),
      agent("amarillo", { city: "Amarillo", placesServed: ["Amarillo, TX"], serviceRadius: 100 }),
      agent("too-small", { city: "Dallas", placesServed: ["Longview, TX"], serviceRadius: 10 }),
      agent("typo", { city: "Dallas", placesServed: ["Tylerr, TX"] }),
      agent("land-only", { specialties: ["Land"] }),
      agent("suspended", { status: "suspended" }),
      agent("pending", { status: "pending" }),
      agent("quiet", { createdAt: daysAgo(200) }),
    ]);
    const list = bestFitAgents(context.services, inTyler(), options);
    expect(emailsOf(list)).toEqual(["home@example.com", "lindale@example.com", "longview@example.com"]);
    expect(list[1]).toMatchObject({ agentId: "rec-lindale", fullName: "lindale", city: "Dallas", state: "TX", distanceMiles: 13 });
    expect(list[1]!.reasons).toEqual(["Serves Lindale, 13 mi", "Residential"]);
    expect(list[0]!.reasons).toEqual(["Based in Tyler", "Residential"]);
  });

  it("never offers an agent blocked either way, nor those in excludeEmails, and keeps to the limit", async () => {
    const others = ["a", "b", "c", "d", "e", "f", "g"].map((name) => agent(name));
    const context = await network([agent("blocked"), agent("blocker"), ...others]);
    const { store } = context.services;
    await store.blocks.insert({
      id: "b1",
      blockerEmail: poster.email,
      blockedEmail: "blocked@example.com",
      status: "active",
      createdAt: daysAgo(1),
      updatedAt: undefined,
    });
    await store.blocks.insert({
      id: "b2",
      blockerEmail: "blocker@example.com",
      blockedEmail: poster.email,
      status: "active",
      createdAt: daysAgo(1),
      updatedAt: undefined,
    });
    const all = bestFitAgents(context.services, inTyler(), { ...options, limit: 50 });
    expect(emailsOf(all).sort()).toEqual(others.map((each) => each.email));

    const firstFive = bestFitAgents(context.services, inTyler(), options);
    expect(firstFive).toHaveLength(5);
    const nextFive = bestFitAgents(context.services, inTyler(), { ...options, excludeEmails: new Set(emailsOf(firstFive)) });
    expect(emailsOf(nextFive).sort()).toEqual(
      emailsOf(all)
        .filter((email) => !emailsOf(firstFive).includes(email))
        .sort(),
    );
  });

  it("matches by state when the request's place is not a known place", async () => {
    const context = await network([agent("texan"), agent("okie", { city: "Tulsa", state: "OK" })]);
    const list = bestFitAgents(context.services, inTyler({ location: "Piney Woods" }), options);
    expect(emailsOf(list)).toEqual(["texan@example.com"]);
    expect(list[0]!.distanceMiles).toBeNull();
    expect(list[0]!.reasons).toEqual(["Based in Tyler, TX", "Residential"]);
  });

  it("puts an agent who answered Not a fit twice to requests of the specialty below one who did not, once the invitations are stored", async () => {
    const context = await network([agent("a-declines"), agent("b-takes")]);
    const { store } = context.services;
    expect(emailsOf(bestFitAgents(context.services, inTyler(), options))).toEqual(["a-declines@example.com", "b-takes@example.com"]);
    for (const earlier of [inTyler({ createdAt: daysAgo(6) }), inTyler({ createdAt: daysAgo(5) })]) {
      await store.requests.insert(earlier);
      await store.invitations.insert(invitation(earlier, "a-declines@example.com", "declined"));
    }
    expect(emailsOf(bestFitAgents(context.services, inTyler(), options))).toEqual(["b-takes@example.com", "a-declines@example.com"]);
    expect(emailsOf(bestFitAgents(context.services, inTyler({ specialty: "" }), options))).toEqual([
      "a-declines@example.com",
      "b-takes@example.com",
    ]);
  });

  it("keeps its index until a tab it reads changes, and counts a new message in within the settling time", async () => {
    const context = await network([agent("one")]);
    const { store, bestFit } = context.services;
    const first = bestFit.current(NOW);
    expect(bestFit.current(NOW).pool).toBe(first.pool);
    expect(bestFit.current(NOW).signals.experience).toBe(first.signals.experience);

    await store.requests.insert(inTyler());
    const afterRequest = bestFit.current(NOW);
    expect(afterRequest.pool).toBe(first.pool);
    expect(afterRequest.signals.experience).not.toBe(first.signals.experience);

    const message = {
      conversationId: "c1",
      fromEmail: "one@example.com",
      toEmail: poster.email,
      text: "Hello",
      createdAt: NOW.toISOString(),
    };
    await store.messages.insert({ id: "m1", ...message });
    expect(bestFit.current(NOW).signals.lastActiveAt).toBe(afterRequest.signals.lastActiveAt);
    const settled = bestFit.current(new Date(NOW.getTime() + CHATTY_SETTLE_MS));
    expect(settled.signals.lastActiveAt.get("one@example.com")).toBe(NOW.getTime());

    await store.agents.insert(agent("two"));
    expect(bestFit.current(NOW).pool).not.toBe(first.pool);
    expect(emailsOf(bestFitAgents(context.services, inTyler(), options))).toEqual(["one@example.com", "two@example.com"]);
  });
});
