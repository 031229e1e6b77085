/**
 * Invitations to respond: the poster's best-fit list and Invite, the rights and limits the
 * server checks, the mail and its setting, the invited agent's dashboard entry and Not a fit,
 * the reminder before Respond by (with a given clock), and the next five once it passed.
 */
import type { AppLoadContext } from "@remix-run/node";
import { beforeEach, describe, expect, it, vi } from "vitest";
import { INVITATION_REFUSALS, INVITATIONS_PER_POSTER_PER_DAY, INVITATIONS_PER_REQUEST } from "../../app/domain/invitations";
import type { Agent, Invitation, ReferralRequest } from "../../app/domain/workbook/tabs";
import { loader as dashboardLoader } from "../../app/routes/member-dashboard";
import { action as detailAction, loader as detailLoader } from "../../app/routes/referral-requests.$id._index";
import { action as editAction } from "../../app/routes/referral-requests.$id.edit";
import { action as notAFitAction, loader as notAFitLoader } from "../../app/routes/referral-requests.$id.not-a-fit";
import { action as respondAction } from "../../app/routes/referral-requests.$id.respond";
import { action as postAction } from "../../app/routes/post-request";
import { remindInvitedAgents } from "../../app/server/jobs/invitation-reminders.server";
import { StoreWriteError } from "../../app/server/store/store.server";
import { requestForm } from "../support/records";
import { insertAgent, sentMails, testContext } from "../support/services";
import { get, insertRequest, outcome, post, sessionCookie, type Rejection } from "./requests-support";

const HOUR = 60 * 60 * 1000;

let context: AppLoadContext;
let poster: Agent;
let posterCookie: string;
/** Approved Oklahoma City agents with the request's specialty, in the order they were added. */
let agents: Agent[];

/** An agent every version of the best-fit list finds for `requestRecord`'s request (Oklahoma City, OK, Residential). */
function okcAgent(index: number, fields: Partial<Agent> = {}): Promise<Agent> {
  return insertAgent(context, {
    fullName: `Agent ${String(index).padStart(2, "0")}`,
    email: `agent${index}@example.com`,
    state: "OK",
    city: "Oklahoma City",
    specialties: ["Residential"],
    placesServed: ["Oklahoma City, OK"],
    ...fields,
  });
}

beforeEach(async () => {
  context = testContext();
  poster = await insertAgent(context, { fullName: "Maria Delgado", email: "maria@example.com", state: "TX", city: "Dallas" });
  posterCookie = await sessionCookie(context, poster);
  agents = [];
  for (let index = 1; index <= 6; index += 1) agents.push(await okcAgent(index));
});

type Detail = Awaited<ReturnType<typeof detailLoader>>["data"];

async function detail(request: ReferralRequest, cookie = posterCookie): Promise<Detail> {
  return (await detailLoader({ request: get(`/referral-requests/${request.id}`, cookie), context, params: { id: request.id } })).data;
}

/** Posts the request page's Invite form for the agents (by row id), as a browser without JavaScript does. */
function invite(request: ReferralRequest, invited: readonly Agent[], cookie = posterCookie) {
  const body = new URLSearchParams(invited.map((agent) => ["agent", agent.id]));
  const httpRequest = new Request(`http://localhost/referral-requests/${request.id}?index`, {
    method: "POST",
    headers: { Cookie: cookie },
    body,
  });
  return outcome(() => detailAction({ request: httpRequest, context, params: { id: request.id } }));
}

async function refusal(answer: unknown): Promise<{ status: number; error: string }> {
  const response = answer as Response;
  return { status: response.status, error: ((await response.json()) as { error: string }).error };
}

function invitationRows(request: ReferralRequest): readonly Invitation[] {
  return context.services.store.invitations.by("requestId", request.id);
}

async function mailsTo(email: string) {
  return (await sentMails(context.services)).filter((mail) => mail.to === email);
}

async function dashboardInvitations(agent: Agent) {
  const cookie = await sessionCookie(context, agent);
  const data = await dashboardLoader({ request: get("/member-dashboard", cookie), context, params: {} });
  return data.invitations;
}

describe("the poster's best-fit agents", () => {
  it("lands the poster on the new request's page, which offers five agents with reasons and no one else's list", async () => {
    const answer = (await outcome(() =>
      postAction({
        request: post("/post-request?type=referral", posterCookie, requestForm({ respondByHours: "24" })),
        context,
        params: {},
      }),
    )) as Response;
    const [posted] = context.services.store.requests.all();
    expect(answer.headers.get("Location")).toBe(`/referral-requests/${posted!.id}`);
    expect(Date.parse(posted!.respondBy ?? "") - Date.parse(posted!.createdAt)).toBe(24 * HOUR);

    const page = await detail(posted!);
    expect(page.respondBy?.label).toMatch(/^[A-Z][a-z]{2} \d{1,2}, \d{1,2}:\d{2} [AP]M C[SD]T$/);
    expect(page.respondBy?.passed).toBe(false);
    expect(page.bestFit?.suggestions).toHaveLength(5);
    for (const suggestion of page.bestFit!.suggestions) {
      expect(suggestion.reasons.length).toBeGreaterThan(0);
      // The browser gets no e-mail addresses, only the profile's address.
      expect(suggestion).not.toHaveProperty("email");
      expect(suggestion.profileId).toMatch(/^agent\d_example_com$/);
    }
    expect(page.bestFit?.nextRound).toBe(false);

    // Another member opening the request sees no best-fit list.
    const other = await detail(posted!, await sessionCookie(context, agents[0]!));
    expect(other.bestFit).toBeNull();
  });

  it("refuses a Respond by outside 1 to 96 hours beside the field, keeping the input", async () => {
    for (const hours of ["0", "97", "2.5", "soon"]) {
      const answer = (await outcome(() =>
        postAction({
          request: post("/post-request?type=referral", posterCookie, requestForm({ respondByHours: hours })),
          context,
          params: {},
        }),
      )) as Rejection;
      expect(answer.init?.status).toBe(400);
      expect(answer.data.error).toEqual({ respondByHours: ["Please enter a number of hours from 1 to 96"] });
      expect(answer.data.initialValue).toMatchObject({ respondByHours: hours, title: "Relocating family needs an OKC agent" });
    }
    expect(context.services.store.requests.all()).toHaveLength(0);
  });

  it("keeps the deadline when an edit sends back the hours shown, moves it when they change, and clears it when blank", async () => {
    const now = Date.now();
    const request = await insertRequest(context, poster, { respondBy: new Date(now + 10 * HOUR - 60_000).toISOString() });
    const edit = (hours: string | undefined) =>
      outcome(() =>
        editAction({
          request: post(
            `/referral-requests/${request.id}/edit`,
            posterCookie,
            requestForm(hours === undefined ? {} : { respondByHours: hours }),
          ),
          context,
          params: { id: request.id },
        }),
      );
    const stored = () => context.services.store.requests.get(request.id)!.respondBy;
    const before = stored();
    await edit("10");
    expect(stored()).toBe(before);
    await edit("48");
    expect(Date.parse(stored() ?? "") - Date.now()).toBeGreaterThan(47 * HOUR);
    await edit(undefined);
    expect(stored()).toBeUndefined();
    const refused = (await edit("200")) as Rejection;
    expect(refused.init?.status).toBe(400);
    expect(refused.data.error).toEqual({ respondByHours: ["Please enter a number of hours from 1 to 96"] });
  });
});

describe("inviting", () => {
  it("stores one row and sends one mail per agent, however often the form is sent", async () => {
    const request = await insertRequest(context, poster, { respondBy: new Date(Date.now() + 24 * HOUR).toISOString() });
    const answer = (await invite(request, [agents[0]!])) as Response;
    expect(answer.status).toBe(302);
    expect(answer.headers.get("Location")).toBe(`/referral-requests/${request.id}#best-fit`);
    expect(answer.headers.get("Set-Cookie"), "the notice rides in the flash cookie, not the address").toMatch(/^__flash=/);
    await invite(request, [agents[0]!]);
    await invite(request, [agents[0]!, agents[1]!]);
    expect(invitationRows(request).map((row) => [row.agentEmail, row.posterEmail, row.status])).toEqual([
      [agents[0]!.email, poster.email, "invited"],
      [agents[1]!.email, poster.email, "invited"],
    ]);
    const mails = await mailsTo(agents[0]!.email);
    expect(mails).toHaveLength(1);
    expect(mails[0]?.subject).toBe("Maria Delgado invites you to respond: Relocating family needs an OKC agent");
    for (const text of ["Oklahoma City, OK", "Residential", "Respond by", `/referral-requests/${request.id}`, "Not a fit", "/unsubscribe"])
      expect(mails[0]?.text).toContain(text);
    expect(await mailsTo(agents[1]!.email)).toHaveLength(1);

    const page = await detail(request);
    expect(page.bestFit?.invited.map((agent) => [agent.fullName, agent.standing])).toEqual([
      ["Agent 01", "invited"],
      ["Agent 02", "invited"],
    ]);
    // The first round is five: three more are offered, none of them invited already.
    expect(page.bestFit?.suggestions).toHaveLength(3);
    expect(page.bestFit?.suggestions.map((agent) => agent.fullName)).not.toContain("Agent 01");
  });

  it("answers 503 when a row cannot be written, mails the agents whose rows were stored, and invites the rest on a retry", async () => {
    const request = await insertRequest(context, poster);
    const insertOnce = context.services.store.invitations.insertOnce.bind(context.services.store.invitations);
    const refusing = vi
      .spyOn(context.services.store.invitations, "insertOnce")
      .mockImplementation((record, options) =>
        record.agentEmail === agents[1]!.email
          ? Promise.reject(new StoreWriteError("Invitations", { cause: new Error("quota exceeded") }))
          : insertOnce(record, options),
      );
    expect(await refusal(await invite(request, [agents[0]!, agents[1]!]))).toEqual({ status: 503, error: INVITATION_REFUSALS.failed });
    expect(invitationRows(request).map((row) => row.agentEmail)).toEqual([agents[0]!.email]);
    expect(await mailsTo(agents[0]!.email)).toHaveLength(1);
    refusing.mockRestore();

    expect(await invite(request, [agents[0]!, agents[1]!])).toBeInstanceOf(Response);
    expect(invitationRows(request).map((row) => row.agentEmail)).toEqual([agents[0]!.email, agents[1]!.email]);
    expect(await mailsTo(agents[0]!.email)).toHaveLength(1);
    expect(await mailsTo(agents[1]!.email)).toHaveLength(1);
  });

  it("lets only the poster of a live request invite, and never the poster, a suspended or a blocked agent", async () => {
    const request = await insertRequest(context, poster);
    const outsiderCookie = await sessionCookie(context, agents[5]!);
    expect(await refusal(await invite(request, [agents[0]!], outsiderCookie))).toEqual({
      status: 403,
      error: INVITATION_REFUSALS.notPoster,
    });

    const suspended = await okcAgent(20, { status: "suspended" });
    const blocker = await okcAgent(21);
    const blockedByPoster = await okcAgent(22);
    const now = new Date().toISOString();
    await context.services.store.blocks.insert({
      id: "b1",
      blockerEmail: blocker.email,
      blockedEmail: poster.email,
      status: "active",
      createdAt: now,
      updatedAt: undefined,
    });
    await context.services.store.blocks.insert({
      id: "b2",
      blockerEmail: poster.email,
      blockedEmail: blockedByPoster.email,
      status: "active",
      createdAt: now,
      updatedAt: undefined,
    });
    for (const agent of [suspended, blocker, blockedByPoster, poster])
      expect(await refusal(await invite(request, [agent]))).toEqual({ status: 403, error: INVITATION_REFUSALS.notInvitable });
    expect(invitationRows(request)).toEqual([]);

    // An agent id that names no one (a row deleted since the page loaded, or typed by hand) is not "invited".
    const nobody = { ...agents[0]!, id: "rec-nobody" };
    expect(await refusal(await invite(request, [nobody]))).toEqual({ status: 404, error: INVITATION_REFUSALS.unknownAgent });
    expect(await refusal(await invite(request, [agents[0]!, nobody]))).toEqual({ status: 404, error: INVITATION_REFUSALS.unknownAgent });
    expect(invitationRows(request)).toEqual([]);
    expect(await refusal(await invite(request, []))).toEqual({ status: 404, error: INVITATION_REFUSALS.unknownAgent });

    const closed = await insertRequest(context, poster, { status: "expired" });
    expect(await refusal(await invite(closed, [agents[0]!]))).toEqual({ status: 409, error: INVITATION_REFUSALS.closed });
    expect(invitationRows(closed)).toEqual([]);
  });

  it(`stops a request at ${INVITATIONS_PER_REQUEST} invitations and a poster at ${INVITATIONS_PER_POSTER_PER_DAY} a day`, async () => {
    const many: Agent[] = [...agents];
    for (let index = 7; index <= 32; index += 1) many.push(await okcAgent(index));
    const first = await insertRequest(context, poster);
    expect(await invite(first, many.slice(0, INVITATIONS_PER_REQUEST))).toBeInstanceOf(Response);
    expect(invitationRows(first)).toHaveLength(INVITATIONS_PER_REQUEST);
    expect(await refusal(await invite(first, [many[20]!]))).toEqual({ status: 429, error: INVITATION_REFUSALS.requestLimit });
    expect(invitationRows(first)).toHaveLength(INVITATIONS_PER_REQUEST);

    const second = await insertRequest(context, poster);
    await invite(second, many.slice(15, 30));
    expect(invitationRows(second)).toHaveLength(15);
    const third = await insertRequest(context, poster);
    expect(await refusal(await invite(third, [many[30]!]))).toEqual({ status: 429, error: INVITATION_REFUSALS.posterLimit });
    expect(invitationRows(third)).toEqual([]);
  });

  it("sends no mail to an agent who turned invitations off, and still shows the invitation on their dashboard", async () => {
    const quiet = await okcAgent(30, { mailOff: ["invitations"] });
    const request = await insertRequest(context, poster);
    await invite(request, [quiet]);
    expect(invitationRows(request)).toHaveLength(1);
    expect(await mailsTo(quiet.email)).toEqual([]);
    expect((await dashboardInvitations(quiet)).map((entry) => [entry.title, entry.posterName])).toEqual([
      ["Relocating family needs an OKC agent", "Maria Delgado"],
    ]);
  });
});

describe("answering an invitation", () => {
  it("lists it on the dashboard until the agent answers Not a fit, which the poster reads with the reason", async () => {
    const older = await insertRequest(context, poster, { title: "Older request" });
    const request = await insertRequest(context, poster, { respondBy: new Date(Date.now() + 30 * HOUR).toISOString() });
    await invite(older, [agents[0]!]);
    await invite(request, [agents[0]!]);
    await context.services.store.invitations.update(invitationRows(older)[0]!.id, { createdAt: new Date(Date.now() - HOUR).toISOString() });
    const entries = await dashboardInvitations(agents[0]!);
    expect(entries.map((entry) => entry.title)).toEqual(["Relocating family needs an OKC agent", "Older request"]);
    expect(entries[0]?.respondBy).toBeTruthy();
    expect(entries[1]?.respondBy).toBeNull();

    const cookie = await sessionCookie(context, agents[0]!);
    expect((await detail(request, cookie)).invitedToAnswer).toBe(true);
    expect((await detail(request, await sessionCookie(context, agents[1]!))).invitedToAnswer).toBe(false);
    const tooLong = (await outcome(() =>
      notAFitAction({
        request: post(`/referral-requests/${request.id}/not-a-fit`, cookie, { reason: "x".repeat(301) }),
        context,
        params: { id: request.id },
      }),
    )) as Rejection;
    expect(tooLong.init?.status).toBe(400);
    expect(tooLong.data.error).toEqual({ reason: ["Please keep the reason to at most 300 characters"] });
    expect(tooLong.data.initialValue).toMatchObject({ reason: "x".repeat(301) });
    expect(invitationRows(request)[0]?.status).toBe("invited");

    const answer = (await outcome(() =>
      notAFitAction({
        request: post(`/referral-requests/${request.id}/not-a-fit`, cookie, { reason: "I only work south of the river." }),
        context,
        params: { id: request.id },
      }),
    )) as Response;
    expect(answer.headers.get("Location")).toBe("/member-dashboard#invitations");
    expect(invitationRows(request)[0]).toMatchObject({ status: "declined", reason: "I only work south of the river." });
    expect((await dashboardInvitations(agents[0]!)).map((entry) => entry.title)).toEqual(["Older request"]);
    expect((await detail(request, cookie)).invitedToAnswer).toBe(false);

    const page = await detail(request);
    expect(page.bestFit?.invited).toMatchObject([
      { fullName: "Agent 01", standing: "declined", reason: "I only work south of the river." },
    ]);
  });

  it("answers 404 to a member who was not invited", async () => {
    const request = await insertRequest(context, poster);
    const cookie = await sessionCookie(context, agents[1]!);
    const shown = await outcome(() =>
      notAFitLoader({ request: get(`/referral-requests/${request.id}/not-a-fit`, cookie), context, params: { id: request.id } }),
    );
    expect((shown as Response).status).toBe(404);
    const sent = await outcome(() =>
      notAFitAction({ request: post(`/referral-requests/${request.id}/not-a-fit`, cookie, {}), context, params: { id: request.id } }),
    );
    expect((sent as Response).status).toBe(404);
  });

  it("closes the invitation once the agent responds, and the poster reads Responded", async () => {
    const request = await insertRequest(context, poster);
    await invite(request, [agents[0]!]);
    const cookie = await sessionCookie(context, agents[0]!);
    await respondAction({
      request: post(`/referral-requests/${request.id}/respond`, cookie, { message: "Glad to help." }),
      context,
      params: { id: request.id },
    });
    expect(await dashboardInvitations(agents[0]!)).toEqual([]);
    expect((await detail(request)).bestFit?.invited).toMatchObject([{ fullName: "Agent 01", standing: "responded" }]);
  });
});

describe("the reminder before Respond by", () => {
  const START = new Date("2026-11-20T15:00:00.000Z");
  const at = (hours: number) => new Date(START.getTime() + hours * HOUR);

  function pass(now: Date) {
    const { store, notifier, config, sendClaims } = context.services;
    return remindInvitedAgents({ store, notifier, config, claims: sendClaims }, now);
  }

  async function invitedAt(request: ReferralRequest, agent: Agent) {
    return context.services.store.invitations.insert({
      id: `${request.id}-${agent.id}`,
      requestId: request.id,
      posterEmail: poster.email,
      agentEmail: agent.email,
      status: "invited",
      reason: "",
      createdAt: START.toISOString(),
      answeredAt: undefined,
      remindedAt: undefined,
    });
  }

  it("reminds each agent still to answer once, two hours before a 24-hour deadline, and skips those who answered", async () => {
    const request = await insertRequest(context, poster, { createdAt: START.toISOString(), respondBy: at(24).toISOString() });
    const [waiting, declined, responded] = agents;
    const waitingInvitation = await invitedAt(request, waiting!);
    const declinedInvitation = await invitedAt(request, declined!);
    await invitedAt(request, responded!);
    await context.services.store.invitations.update(declinedInvitation.id, { status: "declined" });
    await context.services.store.responses.insert({
      id: "r1",
      requestId: request.id,
      fromEmail: responded!.email,
      fromName: responded!.fullName,
      toEmail: poster.email,
      message: "Glad to help.",
      createdAt: at(1).toISOString(),
    });

    expect(await pass(at(21.9))).toBe(0);
    expect(await pass(at(22))).toBe(1);
    expect(await pass(at(23))).toBe(0);
    expect(context.services.store.invitations.get(waitingInvitation.id)?.remindedAt).toBe(at(22).toISOString());
    const mails = await mailsTo(waiting!.email);
    expect(mails).toHaveLength(1);
    expect(mails[0]?.subject).toMatch(/^Reminder: respond by Nov 21, 9:00 AM CST: Relocating family needs an OKC agent$/);
    expect(mails[0]?.text).toContain(`/referral-requests/${request.id}`);
    expect(await mailsTo(declined!.email)).toEqual([]);
    expect(await mailsTo(responded!.email)).toEqual([]);
    // Past the deadline, nobody is reminded.
    expect(await pass(at(25))).toBe(0);
  });

  it("reminds with a quarter of a short window left, and mails no one who turned invitations off", async () => {
    const request = await insertRequest(context, poster, { createdAt: START.toISOString(), respondBy: at(4).toISOString() });
    const quiet = await okcAgent(40, { mailOff: ["invitations"] });
    const invitation = await invitedAt(request, agents[0]!);
    await invitedAt(request, quiet);
    expect(await pass(at(2.9))).toBe(0);
    expect(await pass(at(3))).toBe(2);
    expect(context.services.store.invitations.get(invitation.id)?.remindedAt).toBe(at(3).toISOString());
    expect(await mailsTo(agents[0]!.email)).toHaveLength(1);
    expect(await mailsTo(quiet.email)).toEqual([]);
  });
});

describe("the next five", () => {
  it("offers five more, leaving out everyone invited, once Respond by passed with no response", async () => {
    for (let index = 7; index <= 12; index += 1) agents.push(await okcAgent(index));
    const request = await insertRequest(context, poster, { respondBy: new Date(Date.now() + HOUR).toISOString() });
    await invite(request, agents.slice(0, 5));
    let page = await detail(request);
    expect(page.bestFit?.suggestions).toEqual([]);
    expect(page.bestFit?.nextRound).toBe(false);

    // The hour passes: the invitations were sent before the deadline, which is now behind.
    for (const row of invitationRows(request))
      await context.services.store.invitations.update(row.id, { createdAt: new Date(Date.now() - 2 * HOUR).toISOString() });
    await context.services.store.requests.update(request.id, { respondBy: new Date(Date.now() - 60_000).toISOString() });
    page = await detail(request);
    expect(page.respondBy?.passed).toBe(true);
    expect(page.bestFit?.nextRound).toBe(true);
    const next = page.bestFit!.suggestions.map((agent) => agent.fullName);
    expect(next).toHaveLength(5);
    expect(next.some((name) => agents.slice(0, 5).some((agent) => agent.fullName === name))).toBe(false);

    // Two of them invited: the round offers the other three, and no one invited before.
    const byName = (name: string) => agents.find((agent) => agent.fullName === name)!;
    await invite(request, next.slice(0, 2).map(byName));
    page = await detail(request);
    expect(page.bestFit?.suggestions.map((agent) => agent.fullName)).toEqual(next.slice(2));

    // A response ends the search: no next five.
    const cookie = await sessionCookie(context, agents[0]!);
    await respondAction({
      request: post(`/referral-requests/${request.id}/respond`, cookie, { message: "Still here." }),
      context,
      params: { id: request.id },
    });
    page = await detail(request);
    expect(page.bestFit?.suggestions).toEqual([]);
    expect(page.bestFit?.nextRound).toBe(false);
  });
});
