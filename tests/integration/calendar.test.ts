import type { AppLoadContext } from "@remix-run/node";
import ical, { type VEvent } from "node-ical";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { respondByItem } from "../../app/domain/calendar";
import type { Agent, Referral, ReferralRequest } from "../../app/domain/workbook/tabs";
import { loader as feedLoader } from "../../app/routes/calendar.$file";
import { loader as requestCalendarLoader } from "../../app/routes/referral-requests.$id.calendar[.]ics";
import { loader as referralCalendarLoader } from "../../app/routes/referrals.$id.calendar[.]ics";
import { action as settingsAction, loader as settingsLoader } from "../../app/routes/settings.calendar";
import { calendarText } from "../../app/server/calendar/calendar.server";
import { usePostgres } from "../support/postgres";
import { postgresDeployment } from "../support/postgres-store";
import { referralRecord, requestRecord } from "../support/records";
import { insertAgent, testContext } from "../support/services";
import { get, insertRequest, outcome, post, sessionCookie } from "./requests-support";

/**
 * "Add to calendar" files and the private feed, on SQLite: the files parse with node-ical,
 * carry the right instants on both sides of a daylight-saving change, and reach only the
 * member whose date it is.
 */

let context: AppLoadContext;
let dana: Agent;
let maria: Agent;
let olga: Agent;
let cookies: Record<"dana" | "maria" | "olga", string>;

beforeEach(async () => {
  context = testContext({}, { APP_URL: "https://referrals.example" });
  dana = await insertAgent(context, { fullName: "Dana Reyes", email: "dana@example.com" });
  maria = await insertAgent(context, { fullName: "Maria Delgado", email: "maria@example.com" });
  olga = await insertAgent(context, { fullName: "Olga Park", email: "olga@example.com" });
  cookies = {
    dana: await sessionCookie(context, dana),
    maria: await sessionCookie(context, maria),
    olga: await sessionCookie(context, olga),
  };
});

/** Dana posts a request with a Respond by and invites Maria. */
async function invitedRequest(respondBy: string): Promise<ReferralRequest> {
  const request = await insertRequest(context, dana, { title: "Starter home near Denton", respondBy });
  await context.services.store.invitations.insert({
    id: `${request.id}-maria`,
    requestId: request.id,
    posterEmail: dana.email,
    agentEmail: maria.email,
    status: "invited",
    reason: undefined,
    createdAt: new Date().toISOString(),
    answeredAt: undefined,
    remindedAt: undefined,
  });
  return request;
}

/** Dana refers a client to Maria. */
function insertReferral(fields: Partial<Referral>): Promise<Referral> {
  return context.services.store.referrals.insert(referralRecord(dana, maria, { clientName: "Ana", ...fields }));
}

async function fetched(loader: (args: never) => unknown, url: string, who: keyof typeof cookies, params: Record<string, string>) {
  return (await outcome(() => loader({ request: get(url, cookies[who]), context, params } as never))) as Response;
}

function eventsIn(text: string): VEvent[] {
  return Object.values(ical.sync.parseICS(text)).filter((entry): entry is VEvent => entry?.type === "VEVENT");
}

describe("Respond by in a calendar file", () => {
  it("writes Central time with the zone's rules, and the instants stay right on both sides of a daylight-saving change", () => {
    const items = [
      // 9:00 CDT the day daylight time begins, and 9:00 CST the day it ends.
      respondByItem({ id: "spring", title: "Spring", respondBy: "2026-03-08T14:00:00.000Z" })!,
      respondByItem({ id: "fall", title: "Fall", respondBy: "2026-11-01T15:00:00.000Z" })!,
    ];
    const text = calendarText(context.services, { name: "Test", items, request: new Request("http://localhost/"), now: new Date() });
    expect(text).toContain("BEGIN:VTIMEZONE\r\nTZID:America/Chicago");
    expect(text).toContain("DTSTART;TZID=America/Chicago:20260308T090000");
    expect(text).toContain("DTSTART;TZID=America/Chicago:20261101T090000");
    const [spring, fall] = eventsIn(text);
    expect(spring!.start.toISOString()).toBe("2026-03-08T14:00:00.000Z");
    expect(fall!.start.toISOString()).toBe("2026-11-01T15:00:00.000Z");
    expect(fall!.end!.toISOString()).toBe("2026-11-01T15:15:00.000Z");
  });

  it("downloads the invited agent's Respond by as an attachment, with a UID that stays the same", async () => {
    const request = await invitedRequest("2027-11-07T15:00:00.000Z");
    const url = `/referral-requests/${request.id}/calendar.ics`;
    const response = await fetched(requestCalendarLoader, url, "maria", { id: request.id });
    expect(response.status).toBe(200);
    expect(response.headers.get("Content-Type")).toBe("text/calendar; charset=utf-8");
    expect(response.headers.get("Content-Disposition")).toBe('attachment; filename="respond-by.ics"');
    const text = await response.text();
    // Lines over 75 octets are folded: a line break and a space.
    expect(text.replace(/\r\n /g, "")).toContain(`URL;VALUE=URI:https://referrals.example/referral-requests/${request.id}`);
    const [event] = eventsIn(text);
    expect(event!.start.toISOString()).toBe("2027-11-07T15:00:00.000Z");
    expect(event!.summary).toBe("Respond by: Starter home near Denton");
    const again = eventsIn(await (await fetched(requestCalendarLoader, url, "maria", { id: request.id })).text());
    expect(again[0]!.uid).toBe(event!.uid);
  });

  it("is 404 for a member who was not invited, and once the invited agent answered Not a fit", async () => {
    const request = await invitedRequest("2027-03-14T14:00:00.000Z");
    const url = `/referral-requests/${request.id}/calendar.ics`;
    expect((await fetched(requestCalendarLoader, url, "olga", { id: request.id })).status).toBe(404);
    await context.services.store.invitations.update(`${request.id}-maria`, { status: "declined" });
    expect((await fetched(requestCalendarLoader, url, "maria", { id: request.id })).status).toBe(404);
  });
});

describe("a referral's dates in a calendar file", () => {
  it("gives both parties the expected closing as an all-day entry, and nobody else", async () => {
    const referral = await insertReferral({ status: "under_contract", expectedCloseDate: "2027-02-01T12:00:00.000Z" });
    const url = `/referrals/${referral.id}/calendar.ics`;
    for (const who of ["dana", "maria"] as const) {
      const response = await fetched(referralCalendarLoader, url, who, { id: referral.id });
      expect(response.status).toBe(200);
      const text = await response.text();
      expect(text).toContain("DTSTART;VALUE=DATE:20270201");
      expect(text).not.toContain("Ana");
      const [event] = eventsIn(text);
      expect(event!.datetype).toBe("date");
      expect(event!.summary).toBe(`Expected closing: referral with ${who === "dana" ? "Maria Delgado" : "Dana Reyes"}`);
    }
    expect((await fetched(referralCalendarLoader, url, "olga", { id: referral.id })).status).toBe(404);
  });

  it("gives the fee's due date once the referral closed: the agreement's days after the closing date", async () => {
    const referral = await insertReferral({
      status: "closed",
      closeDate: "2027-02-01T12:00:00.000Z",
      feeDue: "within 10 days after closing or funding",
    });
    const response = await fetched(referralCalendarLoader, `/referrals/${referral.id}/calendar.ics`, "maria", { id: referral.id });
    const text = await response.text();
    expect(text).toContain("DTSTART;VALUE=DATE:20270211");
    expect(eventsIn(text).map((event) => event.summary)).toEqual(["Referral fee due: referral with Dana Reyes"]);
  });

  it("is 404 for a referral with no date to give", async () => {
    const referral = await insertReferral({ status: "fee_received", closeDate: "2027-02-01T12:00:00.000Z" });
    expect((await fetched(referralCalendarLoader, `/referrals/${referral.id}/calendar.ics`, "maria", { id: referral.id })).status).toBe(
      404,
    );
  });
});

describe("the private calendar feed", () => {
  async function feedUrl(): Promise<string | null> {
    const page = (await settingsLoader({ request: get("/settings/calendar", cookies.maria), context, params: {} })) as unknown as {
      data: { feedUrl: string | null };
    };
    return page.data.feedUrl;
  }

  async function makeLink(): Promise<string> {
    const answer = (await outcome(() =>
      settingsAction({ request: post("/settings/calendar", cookies.maria, {}), context, params: {} }),
    )) as Response;
    expect(answer.status).toBe(302);
    await context.services.store.refresh();
    // The session's member is read from the store: the new key is on the row.
    const url = await feedUrl();
    expect(url).toMatch(/^https:\/\/referrals\.example\/calendar\/[0-9a-f]{32}\.[\w-]+\.ics$/);
    return url!;
  }

  function readFeed(url: string): Promise<Response> {
    const file = new URL(url).pathname.replace("/calendar/", "");
    return outcome(() => feedLoader({ request: new Request(url), context, params: { file } })) as Promise<Response>;
  }

  it("holds every current date of the member without a login, and a new link ends the old one", async () => {
    expect(await feedUrl()).toBeNull();
    await invitedRequest("2027-03-14T14:00:00.000Z");
    await insertReferral({ status: "under_contract", expectedCloseDate: "2027-02-01T12:00:00.000Z" });
    await insertReferral({ status: "closed", closeDate: "2027-01-04T12:00:00.000Z", feeDue: "within 5 days of closing" });
    await context.services.store.referrals.insert(
      referralRecord(dana, olga, { status: "under_contract", expectedCloseDate: "2027-05-01T12:00:00.000Z" }),
    );
    const first = await makeLink();

    const response = await readFeed(first);
    expect(response.status).toBe(200);
    expect(response.headers.get("Content-Type")).toBe("text/calendar; charset=utf-8");
    const events = eventsIn(await response.text());
    expect(events.map((event) => event.summary).sort()).toEqual([
      "Expected closing: referral with Dana Reyes",
      "Referral fee due: referral with Dana Reyes",
      "Respond by: Starter home near Denton",
    ]);
    expect(events.find((event) => String(event.summary).startsWith("Respond by"))!.start.toISOString()).toBe("2027-03-14T14:00:00.000Z");

    const second = await makeLink();
    expect(second).not.toBe(first);
    expect((await readFeed(first)).status).toBe(404);
    expect((await readFeed(second)).status).toBe(200);
  });

  it("is 404 for a forged token, and a feed read too often is 429", async () => {
    const url = await makeLink();
    const forged = url.replace(/\.([\w-]+)\.ics$/, ".AAAA$1.ics");
    expect((await readFeed(forged)).status).toBe(404);
    expect((await readFeed("https://referrals.example/calendar/nothing.ics")).status).toBe(404);
    let last = 200;
    for (let read = 0; read < 61 && last === 200; read += 1) last = (await readFeed(url)).status;
    expect(last).toBe(429);
  });
});

describe("the feed with the high-volume tabs in PostgreSQL, on two instances", () => {
  const postgres = usePostgres();
  let deployment: ReturnType<typeof postgresDeployment>;
  beforeEach(async () => {
    deployment = postgresDeployment(await postgres.server().createDatabase());
  });
  afterEach(() => deployment.stopAll());

  it("a link made on one instance reads the database's invitations and referral steps on the other, and its renewal ends it there", async () => {
    const env = { APP_URL: "https://referrals.example", SESSION_SECRET: "calendar-test-secret-long-enough-for-the-config-check" };
    const [one, two] = [testContext({ store: deployment.instance() }, env), testContext({ store: deployment.instance() }, env)];
    await Promise.all([one.services.store.refresh(), two.services.store.refresh()]);
    const poster = await insertAgent(one, { fullName: "Grace Nguyen", email: "grace@example.com" });
    const member = await insertAgent(one, { fullName: "Maria Delgado", email: "maria@example.com" });
    const request = await one.services.store.requests.insert(
      requestRecord(poster, { title: "Starter home near Denton", respondBy: "2027-03-14T14:00:00.000Z" }),
    );
    await one.services.store.invitations.insert({
      id: `${request.id}-maria`,
      requestId: request.id,
      posterEmail: poster.email,
      agentEmail: member.email,
      status: "invited",
      reason: undefined,
      createdAt: new Date().toISOString(),
      answeredAt: undefined,
      remindedAt: undefined,
    });
    const cookie = await sessionCookie(one, member);
    const makeLink = async () => {
      const made = (await outcome(() =>
        settingsAction({ request: post("/settings/calendar", cookie, {}), context: one, params: {} }),
      )) as Response;
      expect(made.status).toBe(302);
      await Promise.all([one.services.store.refresh(), two.services.store.refresh()]);
      const page = (await settingsLoader({ request: get("/settings/calendar", cookie), context: one, params: {} })) as unknown as {
        data: { feedUrl: string };
      };
      return new URL(page.data.feedUrl);
    };
    const readOnTwo = (url: URL) =>
      outcome(() =>
        feedLoader({ request: new Request(url), context: two, params: { file: url.pathname.replace("/calendar/", "") } }),
      ) as Promise<Response>;

    const first = await makeLink();
    const response = await readOnTwo(first);
    expect(response.status).toBe(200);
    const [event] = eventsIn(await response.text());
    expect(event!.summary).toBe("Respond by: Starter home near Denton");
    expect(event!.start.toISOString()).toBe("2027-03-14T14:00:00.000Z");

    await makeLink();
    expect((await readOnTwo(first)).status).toBe(404);
  });
});
