import type { AppLoadContext } from "@remix-run/node";
import { beforeEach, describe, expect, it } from "vitest";
import { loader as dashboardLoader } from "../../app/routes/member-dashboard";
import { loader as liveLoader } from "../../app/routes/member-dashboard_.live";
import { action as markAction } from "../../app/routes/referral-requests.$id.mark";
import type { Agent } from "../../app/domain/workbook/tabs";
import { interestedAndSavedOf } from "../../app/server/referral-requests/interested-and-saved.server";
import { createReplica } from "../../app/server/store/replica.server";
import { createSqliteDriver } from "../../app/server/store/sqlite-driver.server";
import { sqliteStorePath } from "../../app/server/store/store.server";
import { insertAgent, testContext } from "../support/services";
import { get, insertRequest, outcome, post, sessionCookie } from "./requests-support";

const HOUR = 60 * 60 * 1000;

let context: AppLoadContext;
let maria: Agent;
let james: Agent;
let jamesCookie: string;

beforeEach(async () => {
  context = testContext();
  maria = await insertAgent(context, { fullName: "Maria Delgado", email: "maria@example.com", state: "OK" });
  james = await insertAgent(context, { fullName: "James Whitfield", email: "james@example.com", state: "TX" });
  await insertAgent(context, { status: "pending" });
  jamesCookie = await sessionCookie(context, james);
});

type Dashboard = Awaited<ReturnType<typeof dashboardLoader>>;

async function dashboard(search = ""): Promise<Dashboard> {
  return (await dashboardLoader({ request: get(`/member-dashboard${search}`, jamesCookie), context, params: {} })) as Dashboard;
}

const hoursAgo = (hours: number) => new Date(Date.now() - hours * HOUR).toISOString();

describe("the dashboard's tiles and live list", () => {
  it("counts live requests by type and the approved agents", async () => {
    await insertRequest(context, maria, { requestType: "referral" });
    await insertRequest(context, james, { requestType: "referral" });
    await insertRequest(context, maria, { requestType: "listing" });
    await insertRequest(context, maria, { requestType: "buyer", status: "deleted" });
    await insertRequest(context, maria, { requestType: "buyer", createdAt: hoursAgo(31 * 24) });
    const { tiles } = await dashboard();
    expect(tiles).toEqual({ referral: 2, listing: 1, buyer: 0, agents: 2 });
  });

  it("shows other members' live requests, newest first, with NEW and URGENT, and at most 8 of them", async () => {
    for (let i = 0; i < 10; i += 1)
      await insertRequest(context, maria, { title: `Request ${i}`, createdAt: hoursAgo(10 + i * 10), urgent: i === 0 });
    await insertRequest(context, james, { title: "My own" });
    const { live } = await dashboard();
    expect(live.total).toBe(10);
    expect(live.requests).toHaveLength(8);
    expect(live.requests.map((r) => r.title)).toEqual([
      "Request 0",
      "Request 1",
      "Request 2",
      "Request 3",
      "Request 4",
      "Request 5",
      "Request 6",
      "Request 7",
    ]);
    expect(live.requests[0]).toMatchObject({ isNew: true, urgent: true, agentName: "Maria Delgado", postedAgo: "10 hours ago" });
    expect(live.requests[2]).toMatchObject({ isNew: false, urgent: false });
    expect(live.viewAllHref).toBe("/referral-requests");
  });

  it("applies the chips and filters from the address", async () => {
    await insertRequest(context, maria, { title: "OK referral", state: "OK" });
    await insertRequest(context, maria, { title: "TX listing", requestType: "listing", state: "TX", clientType: "" });
    await insertRequest(context, maria, { title: "TX urgent buyer", requestType: "buyer", state: "TX", clientType: "", urgent: true });
    const titles = async (search: string) => (await dashboard(search)).live.requests.map((r) => r.title).sort();
    expect(await titles("?chip=referrals")).toEqual(["OK referral"]);
    expect(await titles("?chip=buyers")).toEqual(["TX listing"]);
    expect(await titles("?chip=market")).toEqual(["TX listing", "TX urgent buyer"]);
    expect(await titles("?chip=urgent")).toEqual(["TX urgent buyer"]);
    expect(await titles("?type=buyer&state=TX")).toEqual(["TX urgent buyer"]);
    expect(await titles("?q=REFERRAL")).toEqual(["OK referral"]);
    expect(await titles("?chip=market&q=listing")).toEqual(["TX listing"]);
  });

  it("reports how many matching requests arrived since the list was read", async () => {
    const { live } = await dashboard("?chip=buyers");
    await insertRequest(context, maria, { requestType: "listing", clientType: "" });
    await insertRequest(context, maria, { requestType: "referral" });
    await insertRequest(context, james, { requestType: "listing", clientType: "" });
    const answer = (await liveLoader({
      request: get(`/member-dashboard/live?chip=buyers&since=${encodeURIComponent(live.asOf)}`, jamesCookie),
      context,
      params: {},
    })) as Response;
    expect(await answer.json()).toMatchObject({ since: live.asOf, newCount: 1 });
    const bad = (await liveLoader({ request: get("/member-dashboard/live?since=soon", jamesCookie), context, params: {} })) as Response;
    expect(bad.status).toBe(400);
  });
});

describe("Interested and Save marks", () => {
  function mark(id: string, fields: Record<string, string>) {
    return outcome(() => markAction({ request: post(`/referral-requests/${id}/mark`, jamesCookie, fields), context, params: { id } }));
  }

  it("are stored per member, survive a reload of the store, and Save toggles off without deleting the row", async () => {
    const request = await insertRequest(context, maria);
    const back = await mark(request.id, { kind: "interested", redirectTo: "/member-dashboard?chip=urgent" });
    expect((back as Response).headers.get("Location")).toBe("/member-dashboard?chip=urgent");
    const answer = (await mark(request.id, { kind: "saved", on: "true" })) as Response;
    expect(await answer.json()).toEqual({ requestId: request.id, kind: "saved", on: true });
    expect((await dashboard()).live.requests[0]).toMatchObject({ interested: true, saved: true });

    // A fresh replica of the same file, as after a restart.
    const reloaded = createReplica(createSqliteDriver(sqliteStorePath(context.services.config)), { refreshSeconds: 60 });
    await reloaded.refresh();
    const marks = interestedAndSavedOf({ store: reloaded }, "james@example.com");
    expect([...marks.interested]).toEqual([request.id]);
    expect([...marks.saved]).toEqual([request.id]);
    await reloaded.stop();

    await mark(request.id, { kind: "saved", on: "false" });
    expect((await dashboard()).live.requests[0]).toMatchObject({ interested: true, saved: false });
    expect(
      context.services.store.marks
        .all()
        .map((row) => [row.kind, row.status])
        .sort(),
    ).toEqual([
      ["interested", "active"],
      ["saved", "removed"],
    ]);
    await mark(request.id, { kind: "saved", on: "true" });
    await mark(request.id, { kind: "saved", on: "true" });
    expect(context.services.store.marks.all()).toHaveLength(2);
    expect(interestedAndSavedOf(context.services, "maria@example.com").saved.size).toBe(0);
  });

  it("keeps Interested once given and refuses unknown kinds, foreign redirects and unknown requests", async () => {
    const request = await insertRequest(context, maria);
    await mark(request.id, { kind: "interested" });
    await mark(request.id, { kind: "interested", on: "false" });
    expect(interestedAndSavedOf(context.services, "james@example.com").interested.has(request.id)).toBe(true);
    expect(await mark(request.id, { kind: "liked" })).toMatchObject({ status: 400 });
    const offsite = (await mark(request.id, { kind: "saved", redirectTo: "//evil.example" })) as Response;
    expect(offsite.headers.get("Location")).toBeNull();
    expect(await mark("nope", { kind: "saved" })).toMatchObject({ status: 404 });
  });
});
