import type { AppLoadContext } from "@remix-run/node";
import { beforeAll, describe, expect, it } from "vitest";
import { conversationIdFor } from "../../app/domain/conversation";
import type { Agent, ReferralRequest } from "../../app/domain/workbook/tabs";
import * as agentProfile from "../../app/routes/agent.$agentId";
import * as editProfile from "../../app/routes/edit-profile";
import * as dashboard from "../../app/routes/member-dashboard";
import * as dashboardLive from "../../app/routes/member-dashboard_.live";
import * as memberDirectory from "../../app/routes/member-directory";
import * as messages from "../../app/routes/messages";
import * as messageEvents from "../../app/routes/messages_.events";
import * as postRequest from "../../app/routes/post-request";
import * as requestDelete from "../../app/routes/referral-requests.$id.delete";
import * as requestEdit from "../../app/routes/referral-requests.$id.edit";
import * as requestDetail from "../../app/routes/referral-requests.$id._index";
import * as requestMark from "../../app/routes/referral-requests.$id.mark";
import * as requestRespond from "../../app/routes/referral-requests.$id.respond";
import * as requestList from "../../app/routes/referral-requests._index";
import * as referralList from "../../app/routes/referrals._index";
import * as referralCsv from "../../app/routes/referrals[.csv]";
import * as notificationSettings from "../../app/routes/settings.notifications";
import * as report from "../../app/routes/report";
import * as blocked from "../../app/routes/settings.blocked";
import * as calendarSettings from "../../app/routes/settings.calendar";
import * as requestCalendar from "../../app/routes/referral-requests.$id.calendar[.]ics";
import * as referralCalendar from "../../app/routes/referrals.$id.calendar[.]ics";
import * as requestPropose from "../../app/routes/referral-requests.$id.propose";
import * as referralPage from "../../app/routes/referrals.$id._index/route";
import * as referralAgreement from "../../app/routes/referrals.$id.agreement";
import * as referralPdf from "../../app/routes/referrals.$id.agreement[.]pdf";
import * as referralReview from "../../app/routes/referrals.$id.review";
import { proposalSchema } from "../../app/domain/referrals/agreement";
import { proposeReferral } from "../../app/server/referrals/referrals.server";
import { readOutbox } from "../../app/server/mail/mailer.server";
import { outboxDirectory } from "../../app/server/service-lifecycle.server";
import { get, insertRequest, outcome, post, sessionCookie } from "../integration/requests-support";
import { referralRecord, requestForm } from "../support/records";
import { insertAgent, testContext } from "../support/services";

type Actor = "visitor" | "pending" | "memberA" | "memberB";
const ACTORS: readonly Actor[] = ["visitor", "pending", "memberA", "memberB"];

/** What an actor must get: sent to log in, refused (403 or 404), or 401 for an event stream. */
type Refusal = "login" | "refused" | "unauthorized";

type Handler = (args: { request: Request; context: AppLoadContext; params: Record<string, string> }) => unknown;

type Case = {
  name: string;
  handler: Handler;
  request: (cookie: string) => Request;
  params?: () => Record<string, string>;
  /** Actors that must be turned away, and how. Others are allowed and not checked here. */
  refuse: Partial<Record<Actor, Refusal>>;
};

let context: AppLoadContext;
let memberA: Agent;
let memberB: Agent;
let memberC: Agent;
let requestOfA: ReferralRequest;
const cookies: Record<Actor, string> = { visitor: "", pending: "", memberA: "", memberB: "" };
let conversationAC = "";
let messageAC = "";
/** A referral between Ann and Cat, proposed on Cat's response to Ann's request: Bob is a third member. */
let referralAC = "";
let responseOfC = "";
/** A signed referral between Ann and Cat that ended with the fee received: its parties may review each other. */
let endedAC = "";
/** A referral between Ann and Cat under contract with an expected closing, and Cat's request Ann is invited to answer by a time. */
let datedAC = "";
let requestOfCInvitingA = "";

beforeAll(async () => {
  context = testContext();
  await context.services.store.refresh();
  memberA = await insertAgent(context, { fullName: "Ann Archer" });
  memberB = await insertAgent(context, { fullName: "Bob Brooks" });
  memberC = await insertAgent(context, { fullName: "Cat Cole" });
  const pending = await insertAgent(context, { fullName: "Penny Pending", status: "pending" });
  requestOfA = await insertRequest(context, memberA, { title: "Ann's buyer" });
  cookies.memberA = await sessionCookie(context, memberA);
  cookies.memberB = await sessionCookie(context, memberB);
  cookies.pending = await sessionCookie(context, pending);
  conversationAC = conversationIdFor(memberA.id, memberC.id);
  const sent = await outcome(() =>
    messages.action({ request: post(`/messages?to=${memberC.id}`, cookies.memberA, { text: "Private to Cat" }), context, params: {} }),
  );
  expect((sent as Response).status).toBe(302);
  messageAC = context.services.store.messages.all()[0]!.id;
  responseOfC = (
    await context.services.store.responses.insert({
      id: "response-of-cat",
      requestId: requestOfA.id,
      fromEmail: memberC.email,
      fromName: memberC.fullName,
      toEmail: memberA.email,
      message: "I can help",
      createdAt: new Date().toISOString(),
    })
  ).id;
  const proposed = await proposeReferral(context.services, {
    requestId: requestOfA.id,
    responseId: responseOfC,
    member: memberA,
    input: proposalSchema.parse({ ...proposal, termMonths: 12 }),
    now: new Date(),
    link: () => "http://localhost/",
  });
  if (!proposed.ok) throw new Error(proposed.message);
  referralAC = proposed.referral.id;
  endedAC = (await context.services.store.referrals.insert(referralRecord(memberA, memberC, { status: "fee_received" }))).id;
  datedAC = (
    await context.services.store.referrals.insert(
      referralRecord(memberA, memberC, { status: "under_contract", expectedCloseDate: "2027-02-01T12:00:00.000Z" }),
    )
  ).id;
  requestOfCInvitingA = (await insertRequest(context, memberC, { respondBy: new Date(Date.now() + 86_400_000).toISOString() })).id;
  await context.services.store.invitations.insert({
    id: "invitation-of-ann",
    requestId: requestOfCInvitingA,
    posterEmail: memberC.email,
    agentEmail: memberA.email,
    status: "invited",
    reason: undefined,
    createdAt: new Date().toISOString(),
    answeredAt: undefined,
    remindedAt: undefined,
  });
});

const proposal = {
  referrer: "me",
  clientName: "Ana",
  side: "buyer",
  feeType: "percent",
  feePercent: "25",
  termMonths: "12",
  feeDue: "at closing",
};

const notMembers = { visitor: "login", pending: "login" } as const;
const onlyOwner = { visitor: "login", pending: "login", memberB: "refused" } as const;

const requestFields = requestForm({ title: "Changed by someone else", location: "Dallas", state: "TX", description: "Rewritten" });

const cases: Case[] = [
  {
    name: "GET /referral-requests/:id/calendar.ics (a Respond by not theirs)",
    handler: requestCalendar.loader as Handler,
    request: (c) => get(`/referral-requests/${requestOfCInvitingA}/calendar.ics`, c),
    params: () => ({ id: requestOfCInvitingA }),
    refuse: onlyOwner,
  },
  {
    name: "GET /referrals/:id/calendar.ics (someone else's referral)",
    handler: referralCalendar.loader as Handler,
    request: (c) => get(`/referrals/${datedAC}/calendar.ics`, c),
    params: () => ({ id: datedAC }),
    refuse: onlyOwner,
  },
  {
    name: "GET /settings/calendar",
    handler: calendarSettings.loader as Handler,
    request: (c) => get("/settings/calendar", c),
    refuse: notMembers,
  },
  {
    name: "POST /settings/calendar",
    handler: calendarSettings.action as Handler,
    request: (c) => post("/settings/calendar", c, {}),
    refuse: notMembers,
  },
  {
    name: "GET /referral-requests/:id/propose (someone else's response)",
    handler: requestPropose.loader as Handler,
    request: (c) => get(`/referral-requests/${requestOfA.id}/propose?response=${responseOfC}`, c),
    params: () => ({ id: requestOfA.id }),
    refuse: onlyOwner,
  },
  {
    name: "POST /referral-requests/:id/propose (someone else's response)",
    handler: requestPropose.action as Handler,
    request: (c) => post(`/referral-requests/${requestOfA.id}/propose?response=${responseOfC}`, c, proposal),
    params: () => ({ id: requestOfA.id }),
    refuse: onlyOwner,
  },
  {
    name: "GET /referrals/:id",
    handler: referralPage.loader as Handler,
    request: (c) => get(`/referrals/${referralAC}`, c),
    params: () => ({ id: referralAC }),
    refuse: onlyOwner,
  },
  {
    name: "POST /referrals/:id",
    handler: referralPage.action as Handler,
    request: (c) => post(`/referrals/${referralAC}`, c, { intent: "introduced" }),
    params: () => ({ id: referralAC }),
    refuse: onlyOwner,
  },
  {
    name: "GET /referrals/:id/agreement",
    handler: referralAgreement.loader as Handler,
    request: (c) => get(`/referrals/${referralAC}/agreement`, c),
    params: () => ({ id: referralAC }),
    refuse: onlyOwner,
  },
  {
    name: "GET /referrals/:id/agreement.pdf",
    handler: referralPdf.loader as Handler,
    request: (c) => get(`/referrals/${referralAC}/agreement.pdf`, c),
    params: () => ({ id: referralAC }),
    refuse: onlyOwner,
  },
  {
    name: "GET /referrals/:id/review",
    handler: referralReview.loader as Handler,
    request: (c) => get(`/referrals/${endedAC}/review`, c),
    params: () => ({ id: endedAC }),
    refuse: onlyOwner,
  },
  {
    name: "POST /referrals/:id/review",
    handler: referralReview.action as Handler,
    request: (c) =>
      post(`/referrals/${endedAC}/review`, c, { intent: "review", overall: "1", communication: "1", clientCare: "1", feeAsAgreed: "1" }),
    params: () => ({ id: endedAC }),
    refuse: onlyOwner,
  },
  { name: "GET /member-dashboard", handler: dashboard.loader as Handler, request: (c) => get("/member-dashboard", c), refuse: notMembers },
  {
    name: "GET /member-dashboard/live",
    handler: dashboardLive.loader as Handler,
    request: (c) => get(`/member-dashboard/live?since=${encodeURIComponent(new Date().toISOString())}`, c),
    refuse: notMembers,
  },
  {
    name: "GET /member-directory",
    handler: memberDirectory.loader as Handler,
    request: (c) => get("/member-directory", c),
    refuse: notMembers,
  },
  {
    name: "GET /agent/:id",
    handler: agentProfile.loader as Handler,
    request: (c) => get(`/agent/${memberA.id}`, c),
    params: () => ({ agentId: memberA.id }),
    refuse: notMembers,
  },
  { name: "GET /edit-profile", handler: editProfile.loader as Handler, request: (c) => get("/edit-profile", c), refuse: notMembers },
  {
    name: "GET /settings/notifications",
    handler: notificationSettings.loader as Handler,
    request: (c) => get("/settings/notifications", c),
    refuse: notMembers,
  },
  {
    name: "POST /settings/notifications",
    handler: notificationSettings.action as Handler,
    request: (c) => post("/settings/notifications", c, { on: "messages" }),
    refuse: notMembers,
  },
  {
    name: "POST /edit-profile",
    handler: editProfile.action as Handler,
    request: (c) => post("/edit-profile", c, { fullName: "Taken over", city: "Dallas", state: "TX", password: "correct horse battery" }),
    refuse: notMembers,
  },
  { name: "GET /messages", handler: messages.loader as Handler, request: (c) => get("/messages", c), refuse: notMembers },
  {
    name: "GET /messages?conversation= (someone else's)",
    handler: messages.loader as Handler,
    request: (c) => get(`/messages?conversation=${conversationAC}`, c),
    refuse: onlyOwner,
  },
  {
    name: "POST /messages?to=",
    handler: messages.action as Handler,
    request: (c) => post(`/messages?to=${memberA.id}`, c, { text: "hello" }),
    refuse: notMembers,
  },
  {
    name: "POST /messages?conversation= (someone else's)",
    handler: messages.action as Handler,
    request: (c) => post(`/messages?conversation=${conversationAC}`, c, { text: "butting in" }),
    refuse: onlyOwner,
  },
  {
    name: "GET /messages/events",
    handler: messageEvents.loader as Handler,
    request: (c) => get("/messages/events", c),
    refuse: { visitor: "unauthorized", pending: "unauthorized" },
  },
  { name: "GET /post-request", handler: postRequest.loader as Handler, request: (c) => get("/post-request", c), refuse: notMembers },
  {
    name: "POST /post-request",
    handler: postRequest.action as Handler,
    request: (c) => post("/post-request", c, requestFields),
    refuse: notMembers,
  },
  {
    name: "GET /referral-requests",
    handler: requestList.loader as Handler,
    request: (c) => get("/referral-requests", c),
    refuse: notMembers,
  },
  {
    name: "GET /referral-requests/:id",
    handler: requestDetail.loader as Handler,
    request: (c) => get(`/referral-requests/${requestOfA.id}`, c),
    params: () => ({ id: requestOfA.id }),
    refuse: notMembers,
  },
  {
    name: "GET /referral-requests/:id/edit",
    handler: requestEdit.loader as Handler,
    request: (c) => get(`/referral-requests/${requestOfA.id}/edit`, c),
    params: () => ({ id: requestOfA.id }),
    refuse: onlyOwner,
  },
  {
    name: "POST /referral-requests/:id/edit",
    handler: requestEdit.action as Handler,
    request: (c) => post(`/referral-requests/${requestOfA.id}/edit`, c, requestFields),
    params: () => ({ id: requestOfA.id }),
    refuse: onlyOwner,
  },
  {
    name: "GET /referral-requests/:id/delete",
    handler: requestDelete.loader as Handler,
    request: (c) => get(`/referral-requests/${requestOfA.id}/delete`, c),
    params: () => ({ id: requestOfA.id }),
    refuse: onlyOwner,
  },
  {
    name: "POST /referral-requests/:id/delete",
    handler: requestDelete.action as Handler,
    request: (c) => post(`/referral-requests/${requestOfA.id}/delete`, c, {}),
    params: () => ({ id: requestOfA.id }),
    refuse: onlyOwner,
  },
  {
    name: "GET /referral-requests/:id/respond",
    handler: requestRespond.loader as Handler,
    request: (c) => get(`/referral-requests/${requestOfA.id}/respond`, c),
    params: () => ({ id: requestOfA.id }),
    refuse: notMembers,
  },
  {
    name: "POST /referral-requests/:id/respond",
    handler: requestRespond.action as Handler,
    request: (c) => post(`/referral-requests/${requestOfA.id}/respond`, c, { message: "I can help" }),
    params: () => ({ id: requestOfA.id }),
    refuse: notMembers,
  },
  {
    name: "POST /referral-requests/:id/mark",
    handler: requestMark.action as Handler,
    request: (c) => post(`/referral-requests/${requestOfA.id}/mark`, c, { kind: "saved", on: "true" }),
    params: () => ({ id: requestOfA.id }),
    refuse: notMembers,
  },
  {
    name: "POST /referral-requests/:id/mark (unknown request)",
    handler: requestMark.action as Handler,
    request: (c) => post("/referral-requests/no-such-id/mark", c, { kind: "saved", on: "true" }),
    params: () => ({ id: "no-such-id" }),
    refuse: { ...notMembers, memberA: "refused", memberB: "refused" },
  },
  { name: "GET /referrals", handler: referralList.loader as Handler, request: (c) => get("/referrals", c), refuse: notMembers },
  { name: "GET /referrals.csv", handler: referralCsv.loader as Handler, request: (c) => get("/referrals.csv", c), refuse: notMembers },
  { name: "GET /settings/blocked", handler: blocked.loader as Handler, request: (c) => get("/settings/blocked", c), refuse: notMembers },
  {
    name: "POST /settings/blocked",
    handler: blocked.action as Handler,
    request: (c) => post("/settings/blocked", c, { intent: "block", agent: memberC.id }),
    refuse: notMembers,
  },
  {
    name: "GET /report (a request)",
    handler: report.loader as Handler,
    request: (c) => get(`/report?kind=request&id=${requestOfA.id}`, c),
    refuse: { ...notMembers, memberA: "refused" },
  },
  {
    name: "POST /report (someone else's message)",
    handler: report.action as Handler,
    request: (c) => post(`/report?kind=message&id=${messageAC}`, c, { reason: "spam" }),
    refuse: { ...notMembers, memberA: "refused", memberB: "refused" },
  },
];

/** Every row of every tab, and every mail sent: what a refused request must leave as it was. */
async function snapshot(): Promise<string> {
  const { store, config, notifier } = context.services;
  // The mails an earlier step queued, and their throttle stamps, land first.
  await notifier.idle();
  const tabs = [
    store.agents,
    store.requests,
    store.responses,
    store.messages,
    store.conversationMembers,
    store.contact,
    store.marks,
    store.blocks,
    store.reports,
  ].map((tab) => tab.all());
  const mails = await readOutbox(outboxDirectory(config));
  return JSON.stringify({ tabs, mails: mails.length });
}

async function statusOf(answer: unknown): Promise<{ status: number; location: string | null }> {
  if (answer instanceof Response) return { status: answer.status, location: answer.headers.get("Location") };
  const init = (answer as { init?: ResponseInit | null } | null)?.init;
  return { status: init?.status ?? 200, location: null };
}

describe("authorization matrix: visitor, pending agent, member A, member B × every member route and action", { timeout: 60_000 }, () => {
  for (const entry of cases) {
    for (const actor of ACTORS) {
      const expected = entry.refuse[actor];
      if (!expected) continue;
      it(`${entry.name} as ${actor}: ${expected}, nothing changed`, async () => {
        const before = await snapshot();
        const answer = await outcome(() =>
          entry.handler({ request: entry.request(cookies[actor]), context, params: entry.params?.() ?? {} }),
        );
        const { status, location } = await statusOf(answer);
        if (expected === "login") {
          expect(status).toBe(302);
          expect(location).toMatch(/^\/member-login\?redirectTo=/);
        } else if (expected === "unauthorized") {
          expect(status).toBe(401);
        } else {
          expect([403, 404]).toContain(status);
        }
        expect(await snapshot()).toBe(before);
      });
    }
  }

  // The control: the same pages open for the member they belong to, so the refusals above are not an app that refuses everyone.
  for (const entry of cases.filter(
    (candidate) => candidate.name.startsWith("GET") && candidate.handler !== (messageEvents.loader as Handler) && !candidate.refuse.memberA,
  )) {
    it(`${entry.name} as memberA: answered`, async () => {
      const answer = await outcome(() =>
        entry.handler({ request: entry.request(cookies.memberA), context, params: entry.params?.() ?? {} }),
      );
      const { status, location } = await statusOf(answer);
      // A profile first sends the browser to its canonical address: a redirect on the page, not to the login.
      if (status === 302) expect(location).toMatch(/^\/agent\//);
      else expect(status).toBe(200);
    });
  }

  it("covers every member route module", () => {
    const covered = new Set(cases.map((entry) => entry.handler));
    for (const module of [
      agentProfile,
      editProfile,
      dashboard,
      dashboardLive,
      memberDirectory,
      messages,
      messageEvents,
      postRequest,
      requestDelete,
      requestEdit,
      requestDetail,
      requestMark,
      requestRespond,
      requestList,
      referralList,
      referralCsv,
      notificationSettings,
      report,
      blocked,
    ]) {
      const { loader, action } = module as { loader?: Handler; action?: Handler };
      expect([loader, action].some((handler) => handler !== undefined && covered.has(handler))).toBe(true);
    }
  });
});
