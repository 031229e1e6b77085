/**
 * Every write a client can repeat (contact messages, sign-ups, messages, responses,
 * posted requests, marks) is limited per IP address and per member: past the limit the
 * answer is 429 with Retry-After and the page's message, the input kept, nothing written.
 */
import type { AppLoadContext } from "@remix-run/node";
import { describe, expect, it, vi } from "vitest";
import { action as completeProfile } from "../../app/routes/complete-profile";
import { action as contactAction } from "../../app/routes/contact";
import { action as messagesAction } from "../../app/routes/messages";
import { action as postAction } from "../../app/routes/post-request";
import { action as markAction } from "../../app/routes/referral-requests.$id.mark";
import { action as respondAction } from "../../app/routes/referral-requests.$id.respond";
import { action as register } from "../../app/routes/register";
import type { Agent } from "../../app/domain/workbook/tabs";
import { insertAgent, postForm, testContext, sentMails } from "../support/services";
import { insertRequest, outcome, post, sessionCookie } from "./requests-support";

// Registrations hash a password with bcrypt (at the test cost, decision 0040) on a machine that may be busy.
vi.setConfig({ testTimeout: 60_000 });

type Reply = { data: { error?: Record<string, string[]>; initialValue?: Record<string, unknown> }; init: ResponseInit | null };

function at(context: AppLoadContext, clientIp: string): AppLoadContext {
  return { ...context, clientIp };
}

/** Checks a refusal: 429, Retry-After within the hour, the message on the form, the input kept. */
function expectTooMany(result: unknown, message: RegExp, kept: Record<string, unknown>) {
  const { data, init } = result as Reply;
  expect(init?.status).toBe(429);
  const retryAfter = Number(new Headers(init?.headers).get("Retry-After"));
  expect(retryAfter).toBeGreaterThan(0);
  expect(retryAfter).toBeLessThanOrEqual(3600);
  expect(data.error?.[""]?.[0]).toMatch(message);
  expect(data.initialValue).toMatchObject(kept);
}

const contactMessage = { name: "Dana Reyes", email: "dana@example.com", category: "general", subject: "Hello", message: "A question" };

describe("contact messages", () => {
  it("takes CONTACT_PER_IP_PER_HOUR from one address, then 429 with the message and the input kept", async () => {
    const context = at(testContext({}, { CONTACT_PER_IP_PER_HOUR: "2" }), "203.0.113.10");
    const send = (ctx: AppLoadContext, fields: Record<string, string>) =>
      outcome(() => contactAction({ request: postForm("/contact", fields), context: ctx, params: {} }));

    // Bad input costs nothing.
    expect(((await send(context, { ...contactMessage, email: "nope" })) as Reply).init?.status).toBe(400);
    expect(((await send(context, contactMessage)) as Response).status).toBe(302);
    expect(((await send(context, contactMessage)) as Response).status).toBe(302);
    expectTooMany(
      await send(context, { ...contactMessage, subject: "Third" }),
      /^Too many messages\. Please wait 60 minutes and try again\.$/,
      {
        subject: "Third",
        message: "A question",
      },
    );
    expect(context.services.store.contact.all()).toHaveLength(2);
    expect(await sentMails(context.services)).toHaveLength(2);
    // Another address is not affected.
    expect(((await send(at(context, "203.0.113.11"), contactMessage)) as Response).status).toBe(302);
  });
});

describe("registrations", () => {
  const profile = {
    password: "Correct-Horse-42",
    confirmPassword: "Correct-Horse-42",
    licenseNumber: "0654321",
    licenseState: "TX",
    brokerage: "Lone Star Realty",
    brokerLicenseNumber: "9001234",
    brokerEmail: "broker@lonestar.example",
    specialties: "Luxury",
  };

  async function signUp(context: AppLoadContext, email: string) {
    const started = (await outcome(() =>
      register({
        request: postForm("/register", { fullName: "Dana Reyes", email, phone: "214.555.0100", state: "TX", city: "Dallas" }),
        context,
        params: {},
      }),
    )) as Response;
    const cookie = (started.headers.get("Set-Cookie") ?? "").split(";")[0] ?? "";
    const body = new FormData();
    for (const [name, value] of Object.entries(profile)) body.append(name, value);
    return outcome(() =>
      completeProfile({
        request: new Request("http://localhost/complete-profile", { method: "POST", body, headers: { Cookie: cookie } }),
        context,
        params: {},
      }),
    );
  }

  it("completes REGISTRATIONS_PER_IP_PER_HOUR sign-ups from one address, then refuses with no row and no mail", async () => {
    const context = at(testContext({}, { REGISTRATIONS_PER_IP_PER_HOUR: "1" }), "203.0.113.20");
    await context.services.store.refresh();
    expect(((await signUp(context, "one@example.com")) as Response).headers.get("Location")).toBe("/welcome");
    const mailsBefore = (await sentMails(context.services)).length;

    const refused = await signUp(context, "two@example.com");
    expectTooMany(refused, /^Too many registrations\. Please wait/, { licenseNumber: "0654321", brokerage: "Lone Star Realty" });
    expect((refused as Reply).data.initialValue).not.toHaveProperty("password");
    expect(context.services.store.agents.by("email", "two@example.com")).toHaveLength(0);
    expect(await sentMails(context.services)).toHaveLength(mailsBefore);
  });
});

describe("member writes", () => {
  async function members(env: Record<string, string>) {
    const context = at(testContext({}, env), "198.51.100.40");
    await context.services.store.refresh();
    const maria = await insertAgent(context, { id: "rec-maria", fullName: "Maria Delgado", email: "maria@example.com" });
    const james = await insertAgent(context, { id: "rec-james", fullName: "James Whitfield", email: "james@example.com" });
    return { context, maria, james, jamesCookie: await sessionCookie(context, james) };
  }

  it("limits messages per member", async () => {
    const { context, jamesCookie } = await members({ MESSAGES_PER_MEMBER_PER_HOUR: "2" });
    const send = (text: string) =>
      outcome(() => messagesAction({ request: post("/messages?to=rec-maria", jamesCookie, { text }), context, params: {} }));
    expect(((await send("one")) as Response).status).toBe(302);
    expect(((await send("two")) as Response).status).toBe(302);
    const refused = (await send("three")) as { data: { result: Reply["data"] }; init: ResponseInit };
    expect(refused.init.status).toBe(429);
    expect(new Headers(refused.init.headers).get("Retry-After")).toMatch(/^\d+$/);
    expect(refused.data.result.error?.[""]?.[0]).toMatch(/^Too many messages\. Please wait/);
    expect(refused.data.result.initialValue).toMatchObject({ text: "three" });
    expect(context.services.store.messages.all()).toHaveLength(2);
  });

  it("slows a burst of messages: past MESSAGES_PER_MEMBER_PER_MINUTE, 429 with the wait beside the box and the text kept", async () => {
    const { context, jamesCookie } = await members({ MESSAGES_PER_MEMBER_PER_MINUTE: "3" });
    const send = (text: string) =>
      outcome(() => messagesAction({ request: post("/messages?to=rec-maria", jamesCookie, { text }), context, params: {} }));
    for (const text of ["one", "two", "three"]) expect(((await send(text)) as Response).status).toBe(302);
    const refused = (await send("four")) as { data: { result: Reply["data"] }; init: ResponseInit };
    expect(refused.init.status).toBe(429);
    expect(Number(new Headers(refused.init.headers).get("Retry-After"))).toBeLessThanOrEqual(60);
    expect(refused.data.result.error?.[""]?.[0]).toBe("Too many messages. Please wait 1 minute and try again.");
    expect(refused.data.result.initialValue).toMatchObject({ text: "four" });
    expect(context.services.store.messages.all()).toHaveLength(3);
  });

  it("lets a fast typist through: the per-minute default is 20 messages", async () => {
    const { context, jamesCookie } = await members({});
    expect(context.services.config.writeLimits.messagesPerMemberPerMinute).toBe(20);
    const send = (text: string) =>
      outcome(() => messagesAction({ request: post("/messages?to=rec-maria", jamesCookie, { text }), context, params: {} }));
    for (let i = 0; i < 20; i += 1) expect(((await send(`quick ${i}`)) as Response).status).toBe(302);
    expect(((await send("twenty-first")) as { init: ResponseInit }).init.status).toBe(429);
  });

  it("limits responses per member", async () => {
    const { context, maria, jamesCookie } = await members({ RESPONSES_PER_MEMBER_PER_HOUR: "1" });
    const first = await insertRequest(context, maria);
    const second = await insertRequest(context, maria);
    const respond = (id: string, message: string) =>
      outcome(() =>
        respondAction({ request: post(`/referral-requests/${id}/respond`, jamesCookie, { message }), context, params: { id } }),
      );
    expect(((await respond(first.id, "I can help")) as Response).status).toBe(302);
    expectTooMany(await respond(second.id, "Me too"), /^Too many responses\. Please wait/, { message: "Me too" });
    expect(context.services.store.responses.all()).toHaveLength(1);
  });

  it("limits posted requests per member", async () => {
    const { context, jamesCookie } = await members({ REQUESTS_PER_MEMBER_PER_HOUR: "1" });
    const fields = {
      requestType: "buyer",
      title: "Buyer for Tulsa",
      location: "Tulsa",
      state: "OK",
      specialty: "Residential",
      priceRange: "$200k - $400k",
      description: "Pre-approved.",
    };
    const postOne = (title: string) =>
      outcome(() => postAction({ request: post("/post-request", jamesCookie, { ...fields, title }), context, params: {} }));
    expect(((await postOne("First")) as Response).status).toBe(302);
    expectTooMany(await postOne("Second"), /^Too many requests posted\. Please wait/, { title: "Second", location: "Tulsa" });
    expect(context.services.store.requests.all()).toHaveLength(1);
  });

  it("limits marks per member, with a message for the page", async () => {
    const { context, maria, jamesCookie } = await members({ MARKS_PER_MEMBER_PER_HOUR: "1" });
    const request = await insertRequest(context, maria);
    const mark = (fields: Record<string, string>) =>
      outcome(() =>
        markAction({ request: post(`/referral-requests/${request.id}/mark`, jamesCookie, fields), context, params: { id: request.id } }),
      );
    expect(((await mark({ kind: "interested" })) as Response).status).toBe(200);
    const refused = (await mark({ kind: "saved", on: "true" })) as Response;
    expect(refused.status).toBe(429);
    expect(refused.headers.get("Retry-After")).toMatch(/^\d+$/);
    expect(await refused.json()).toMatchObject({ error: expect.stringMatching(/^Too many changes\. Please wait/) });
    // Without JavaScript the form's post gets a page with the message and a way back.
    const plain = (await mark({ kind: "saved", on: "true", redirectTo: "/member-dashboard" })) as Response;
    expect(plain.status).toBe(429);
    expect(plain.headers.get("Retry-After")).toMatch(/^\d+$/);
    const page = await plain.text();
    expect(page).toMatch(/<p role="alert">Too many changes\. Please wait/);
    expect(page).toContain('<a href="/member-dashboard">Go back</a>');
    expect(context.services.store.marks.all()).toHaveLength(1);
  });

  it("limits every member's writes from one address together", async () => {
    const { context, maria, james } = await members({ MEMBER_WRITES_PER_IP_PER_HOUR: "2" });
    const request = await insertRequest(context, maria);
    const cat = await insertAgent(context, { fullName: "Cat Cole", email: "cat@example.com" });
    const respond = (agent: Agent, ctx: AppLoadContext) =>
      sessionCookie(ctx, agent).then((cookie) =>
        outcome(() =>
          respondAction({
            request: post(`/referral-requests/${request.id}/respond`, cookie, { message: "Hello" }),
            context: ctx,
            params: { id: request.id },
          }),
        ),
      );
    expect(((await respond(james, context)) as Response).status).toBe(302);
    expect(((await respond(cat, context)) as Response).status).toBe(302);
    expect(((await respond(james, context)) as Reply).init?.status).toBe(429);
    expect(((await respond(cat, at(context, "198.51.100.41"))) as Response).status).toBe(302);
  });
});

describe("response mails", () => {
  it("mail the poster at most once per request every 10 minutes, like message mails", async () => {
    vi.useFakeTimers({ toFake: ["Date"] });
    try {
      const start = Date.UTC(2026, 10, 23, 15);
      vi.setSystemTime(start);
      const context = testContext();
      const maria = await insertAgent(context, { fullName: "Maria Delgado", email: "maria@example.com" });
      const request = await insertRequest(context, maria);
      const responders = await Promise.all(
        [1, 2, 3].map((i) => insertAgent(context, { fullName: `Agent ${i}`, email: `agent${i}@example.com` })),
      );
      const respond = async (agent: Agent) => {
        const cookie = await sessionCookie(context, agent);
        return outcome(() =>
          respondAction({
            request: post(`/referral-requests/${request.id}/respond`, cookie, { message: `From ${agent.fullName}` }),
            context,
            params: { id: request.id },
          }),
        );
      };
      const mailsToMaria = async () => (await sentMails(context.services)).filter((mail) => mail.to === "maria@example.com");

      await Promise.all([respond(responders[0]!), respond(responders[1]!)]);
      expect(await mailsToMaria()).toHaveLength(1);
      vi.setSystemTime(start + 9 * 60_000);
      await respond(responders[2]!);
      expect(await mailsToMaria()).toHaveLength(1);
      vi.setSystemTime(start + 10 * 60_000);
      await respond(responders[0]!);
      expect(await mailsToMaria()).toHaveLength(2);
      // Every response is stored and counted all the same.
      expect(context.services.store.responses.by("requestId", request.id)).toHaveLength(4);
    } finally {
      vi.useRealTimers();
    }
  });
});
