/**
 * The track records follow the workbook: computed once per version of the rows they count,
 * again when a row changes (the app's own write, or a staff edit in the sheet on its next
 * refresh), and shown on the profile, the directory cards and the Best track record order.
 */
import type { AppLoadContext } from "@remix-run/node";
import { afterEach, describe, expect, it } from "vitest";
import { computeTrackRecords, conversationOpenings } from "../../app/domain/track-record";
import { replyTimeLabel } from "../../app/domain/track-record-text";
import type { Agent, Review } from "../../app/domain/workbook/tabs";
import { loader as profileLoader } from "../../app/routes/agent.$agentId";
import { loader as directoryLoader } from "../../app/routes/directory";
import { loader as memberDirectoryLoader } from "../../app/routes/member-directory";
import { startMemberSession } from "../../app/server/auth/session.server";
import type { Store } from "../../app/server/store/store.server";
import { createReplicaServices } from "../../app/server/service-lifecycle.server";
import { MESSAGES_SETTLE_MS } from "../../app/server/track-record/track-records.server";
import { buildDemoNetwork } from "../../scripts/lib/demo-network";
import { openSheetsStore, useFakeSheets } from "../support/fake-sheets";
import { agentRecord, referralRecord } from "../support/records";
import { testContext } from "../support/services";

const DAY = 86_400_000;
const daysAgo = (days: number) => new Date(Date.now() - days * DAY).toISOString();

const ana = agentRecord({ id: "rec-ana", fullName: "Ana Ruiz", email: "ana@example.com" });
const ben = agentRecord({ id: "rec-ben", fullName: "Ben Cole", email: "ben@example.com" });
const cy = agentRecord({ id: "rec-cy", fullName: "Cy Park", email: "cy@example.com" });

const closedDeals = () =>
  [0, 1, 2].map((i) => referralRecord(ana, ben, { status: "closed", closeDate: daysAgo(10 + i), createdAt: daysAgo(60) }));

function review(reviewedEmail: string, overall: number, i: number): Review {
  return {
    id: `review-${reviewedEmail}-${i}`,
    referralId: `referral-${reviewedEmail}-${i}`,
    reviewerEmail: `reviewer-${i}@example.com`,
    reviewedEmail,
    reviewedSide: "receiving",
    overall,
    communication: overall,
    clientCare: overall,
    feeAsAgreed: overall,
    referralQuality: undefined,
    text: "",
    // One review alone is published 14 days after it was written.
    submittedAt: daysAgo(20),
    updatedAt: undefined,
    reply: undefined,
    repliedAt: undefined,
    status: "visible",
  };
}

describe("track records on SQLite", () => {
  const opened: Store[] = [];
  afterEach(async () => {
    await Promise.all(opened.splice(0).map((store) => store.stop()));
  });

  async function contextWith(agents: readonly Agent[]): Promise<AppLoadContext> {
    const context = testContext();
    opened.push(context.services.store);
    await context.services.store.refresh();
    for (const agent of agents) await context.services.store.agents.insert(agent);
    return context;
  }

  it("are computed once per data version and follow a status changed in the store", async () => {
    const context = await contextWith([ana, ben, cy]);
    const { store, trackRecords } = context.services;
    const deals = closedDeals();
    for (const deal of deals) await store.referrals.insert(deal);
    const before = trackRecords.current();
    expect(trackRecords.current()).toBe(before);
    expect(before.records.get(ana.email)!.allTime.closeRate).toEqual({ part: 3, of: 3 });

    await store.referrals.update(deals[0]!.id, { status: "lost" });
    const after = trackRecords.current();
    expect(after).not.toBe(before);
    expect(after.records.get(ana.email)!.allTime.closeRate).toEqual({ part: 2, of: 3 });
    expect(after.records.get(ben.email)!.allTime.closed).toBe(2);
  });

  it("count new messages at most every few seconds, and keep the cards' version while no card changed", async () => {
    const context = await contextWith([ana, ben]);
    const { store, trackRecords } = context.services;
    const start = new Date();
    const first = trackRecords.current(start);
    const later = (ms: number) => new Date(start.getTime() + ms);
    await store.messages.insert({
      id: "m1",
      conversationId: "c1",
      fromEmail: ana.email,
      toEmail: ben.email,
      text: "Hi",
      createdAt: daysAgo(1),
    });
    await store.messages.insert({
      id: "m2",
      conversationId: "c1",
      fromEmail: ben.email,
      toEmail: ana.email,
      text: "Hello",
      createdAt: daysAgo(0.9),
    });
    expect(trackRecords.current(later(1_000))).toBe(first);
    const counted = trackRecords.current(later(MESSAGES_SETTLE_MS));
    expect(counted).not.toBe(first);
    expect(counted.records.get(ben.email)!.allTime.firstReply.count).toBe(1);
    expect(counted.cardsVersion).toBe(first.cardsVersion);

    // Anything else is counted at once.
    await store.reviews.insert(review(ben.email, 5, 1));
    const reviewed = trackRecords.current(later(MESSAGES_SETTLE_MS + 1));
    expect(reviewed.reviews.get(ben.email)).toEqual({ count: 1, total: 5 });
    expect(reviewed.cardsVersion).toBe(first.cardsVersion + 1);
  });

  it("show on the profile, with the stars of published reviews", async () => {
    const context = await contextWith([ana, ben, cy]);
    for (const deal of closedDeals()) await context.services.store.referrals.insert(deal);
    await context.services.store.reviews.insert(review(ben.email, 4, 1));
    const cookie = await sessionCookie(context, cy);
    const data = await profileLoader({ request: get("/agent/ben_example_com", cookie), context, params: { agentId: "ben_example_com" } });
    expect(data.trackRecord!.record.allTime).toMatchObject({ received: 3, closed: 3, closeRate: { part: 3, of: 3 } });
    expect(data.trackRecord!.stars).toEqual({ average: 4, count: 1 });
  });

  it("put stars and reply times on the directory cards and order them by Best track record", async () => {
    const context = await contextWith([ana, ben, cy]);
    const { store } = context.services;
    for (const [i, stars] of [5, 5, 5, 5, 4].entries()) await store.reviews.insert(review(cy.email, stars, i));
    for (const [i, stars] of [2, 3].entries()) await store.reviews.insert(review(ana.email, stars, i));
    for (const i of [1, 2, 3]) {
      const conversationId = `c${i}`;
      await store.messages.insert({
        id: `m${i}a`,
        conversationId,
        fromEmail: ana.email,
        toEmail: ben.email,
        text: "Hi",
        createdAt: daysAgo(5 + i),
      });
      await store.messages.insert({
        id: `m${i}b`,
        conversationId,
        fromEmail: ben.email,
        toEmail: ana.email,
        text: "Hello",
        createdAt: new Date(Date.parse(daysAgo(5 + i)) + 3 * 3_600_000).toISOString(),
      });
    }

    const sorted = await directoryLoader({ request: get("/directory?sort=track-record"), context, params: {} });
    expect(sorted.agents.map((card) => card.fullName)).toEqual(["Cy Park", "Ben Cole", "Ana Ruiz"]);
    const byName = await directoryLoader({ request: get("/directory"), context, params: {} });
    expect(byName.agents.map((card) => card.fullName)).toEqual(["Ana Ruiz", "Ben Cole", "Cy Park"]);
    expect(byName.agents.map((card) => card.trackRecord)).toEqual([
      { stars: { average: 2.5, count: 2 }, replyTime: null },
      { stars: null, replyTime: "Replies in about 3 hours" },
      { stars: { average: 4.8, count: 5 }, replyTime: null },
    ]);

    const members = await memberDirectoryLoader({
      request: get("/member-directory?sort=track-record", await sessionCookie(context, ana)),
      context,
      params: {},
    });
    expect(members.agents.map((card) => card.fullName)).toEqual(["Cy Park", "Ben Cole", "Ana Ruiz"]);
    expect(members.agents[1]!.trackRecord.replyTime).toBe("Replies in about 3 hours");
  });
});

describe("the demo network's track records", () => {
  it("have reply times, closings and rates to show", () => {
    const now = new Date();
    const network = buildDemoNetwork({ now, passwordHash: "" });
    const records = computeTrackRecords({ ...network, openings: conversationOpenings(network.messages) }, now);
    const byName = (name: string) => records.get(network.agents.find((agent) => agent.fullName === name)!.email)!;
    expect(replyTimeLabel(byName("James Whitfield"))).toBe("Replies in about 3 hours");
    expect(replyTimeLabel(byName("Carlos Benavides"))).toBe("Replies in about 26 hours");
    const login = records.get(network.loginEmail)!;
    expect(login.allTime.closed).toBeGreaterThan(0);
    expect(login.allTime.closeRate.of).toBeGreaterThanOrEqual(3);
    expect(login.openNow).toBeGreaterThan(0);
  });
});

describe("track records on the fake Sheets store", () => {
  const { fake, opened } = useFakeSheets();

  it("follow a status staff typed into the sheet, on the next refresh", async () => {
    const { store, spreadsheetId } = await openSheetsStore(fake, "track-record");
    opened.push(store);
    for (const agent of [ana, ben]) await store.agents.insert(agent);
    const deals = closedDeals();
    for (const deal of deals) await store.referrals.insert(deal);
    const cache = createReplicaServices(store).trackRecords;
    expect(cache.current().records.get(ben.email)!.allTime.closeRate).toEqual({ part: 3, of: 3 });

    fake.spreadsheet(spreadsheetId).typeCell("Referrals", { id: deals[1]!.id, header: "status" }, "Expired");
    await store.refresh();
    expect(cache.current().records.get(ben.email)!.allTime.closeRate).toEqual({ part: 2, of: 3 });
    expect(cache.current().records.get(ana.email)!.allTime.closed).toBe(2);
  });
});

async function sessionCookie(context: AppLoadContext, agent: Agent): Promise<string> {
  const response = await startMemberSession(new Request("http://localhost/member-login"), context, agent, "/");
  return (response.headers.get("Set-Cookie") ?? "").split(";")[0]!;
}

function get(path: string, cookie?: string): Request {
  return new Request(`http://localhost${path}`, { headers: cookie ? { Cookie: cookie } : {} });
}
