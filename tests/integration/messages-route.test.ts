import type { AppLoadContext } from "@remix-run/node";
import { agentRecord } from "../support/records";
import { afterEach, describe, expect, it, vi } from "vitest";
import { conversationIdFor } from "../../app/domain/conversation";
import { MESSAGE_REQUIRED, MESSAGE_TOO_LONG } from "../../app/domain/message-box";
import { CANNOT_RECEIVE, contactInfoText, SEND_FAILED } from "../../app/domain/messages";
import { NOTICES } from "../../app/domain/notices";
import type { Agent } from "../../app/domain/workbook/tabs";
import { loader as rootLoader } from "../../app/root";
import { action, loader } from "../../app/routes/messages";
import { startMemberSession } from "../../app/server/auth/session.server";
import { memberRowId } from "../../app/server/messages/read-positions.server";
import { AGENT_NOT_FOUND } from "../../app/domain/directory-cards";
import { CANNOT_MESSAGE_SELF } from "../../app/server/messages/conversations.server";
import { dashboardMessages } from "../../app/server/messages/dashboard-messages.server";
import { StoreWriteError, type Store } from "../../app/server/store/store.server";
import { startFakeSendgrid } from "../mocks/sendgrid";
import { testContext, sentMails } from "../support/services";
import { editAgentRow, responseOf } from "./accounts-support";

const ann = agentRecord({
  id: "rec-ann",
  fullName: "Ann Archer",
  email: "ann@example.com",
  brokerage: "Archer Realty",
  city: "Austin",
  state: "TX",
  phone: "2145550100",
  passwordHash: "$2a$04$annannannannannannannu",
});
const bob = agentRecord({
  id: "rec-bob",
  fullName: "Bob Brooks",
  email: "bob@example.com",
  brokerage: "",
  city: "Tulsa",
  state: "OK",
  passwordHash: "$2a$04$bobbobbobbobbobbobbobu",
});
const cat = agentRecord({ id: "rec-cat", fullName: "Cat Cole", email: "cat@example.com", passwordHash: "$2a$04$catcatcatcatcatcatcatu" });
const pending = agentRecord({ id: "rec-pending", fullName: "Penny Pending", email: "penny@example.com", status: "pending" });
const annBob = conversationIdFor(ann.id, bob.id);

const opened: Store[] = [];
afterEach(async () => {
  vi.useRealTimers();
  await Promise.all(opened.splice(0).map((store) => store.stop()));
});

async function contextWith(
  agents: readonly Agent[],
  overrides: Parameters<typeof testContext>[0] = {},
  env: Record<string, string> = {},
): Promise<AppLoadContext> {
  const context = testContext(overrides, env);
  opened.push(context.services.store);
  await context.services.store.refresh();
  for (const agent of agents) if (!context.services.store.agents.get(agent.id)) await context.services.store.agents.insert(agent);
  return context;
}

async function cookieOf(context: AppLoadContext, agent: Agent): Promise<string> {
  const response = await startMemberSession(new Request("http://localhost/member-login"), context, agent, "/");
  return (response.headers.get("Set-Cookie") ?? "").split(";")[0]!;
}

function get(path: string, cookie: string): Request {
  return new Request(`http://localhost${path}`, { headers: { Cookie: cookie } });
}

function post(path: string, cookie: string, fields: Record<string, string>): Request {
  return new Request(`http://localhost${path}`, { method: "POST", headers: { Cookie: cookie }, body: new URLSearchParams(fields) });
}

/** The loader's or action's `data(body, init)`: its body and status. */
type Reply<T> = { data: T; init: ResponseInit | null };

/** The page as `agent` sees it; `flash` is the flash cookie an action left in the browser, when the test follows it. */
async function page(context: AppLoadContext, path: string, agent: Agent, flash?: string) {
  const cookie = [await cookieOf(context, agent), flash].filter(Boolean).join("; ");
  const result = (await loader({ request: get(path, cookie), context, params: {} })) as unknown as Reply<
    Awaited<ReturnType<typeof loader>>["data"]
  >;
  return { status: result.init?.status ?? 200, ...result.data };
}

type ActionBody = {
  intent: string;
  shareError?: string;
  result?: { error?: Record<string, string[]>; initialValue?: Record<string, unknown> };
};

/** Posts as `from`: a Response for a redirect or a 404, the reply and its status otherwise. */
async function send(
  context: AppLoadContext,
  path: string,
  from: Agent,
  fields: Record<string, string>,
): Promise<Response | Reply<ActionBody>> {
  try {
    return (await action({ request: post(path, await cookieOf(context, from), fields), context, params: {} })) as unknown as
      Response | Reply<ActionBody>;
  } catch (thrown) {
    if (thrown instanceof Response) return thrown;
    throw thrown;
  }
}

function refusal(outcome: Response | Reply<ActionBody>): Reply<ActionBody> {
  if (outcome instanceof Response) throw new Error(`Expected a refusal, got status ${outcome.status}`);
  return outcome;
}

function redirected(outcome: Response | Reply<ActionBody>): Response {
  if (!(outcome instanceof Response)) throw new Error(`Expected a redirect, got ${JSON.stringify(outcome)}`);
  return outcome;
}

function mailsTo(context: AppLoadContext, email: string) {
  return sentMails(context.services).then((mails) => mails.filter((mail) => mail.to === email));
}

describe("/messages: login and opening conversations", () => {
  it("sends visitors to log in and back afterwards", async () => {
    const context = await contextWith([ann]);
    const response = await responseOf(() => loader({ request: new Request("http://localhost/messages?to=rec-bob"), context, params: {} }));
    expect(response.headers.get("Location")).toBe(`/member-login?redirectTo=${encodeURIComponent("/messages?to=rec-bob")}`);
  });

  it("opens a new conversation from ?to= by any id form, listed first until its first message", async () => {
    const context = await contextWith([ann, bob]);
    for (const id of ["bob_example_com", "rec-bob"]) {
      const data = await page(context, `/messages?to=${id}`, ann);
      expect(data.status).toBe(200);
      expect(data.open).toMatchObject({ conversationId: annBob, messages: [], canSend: true, draftHref: `/messages?to=${id}` });
      expect(data.open?.partner).toMatchObject({
        fullName: "Bob Brooks",
        city: "Tulsa",
        state: "OK",
        profileHref: "/agent/bob_example_com",
      });
      expect(data.conversations).toEqual([]);
    }
    expect(context.services.store.messages.all()).toHaveLength(0);
  });

  it("refuses to open a conversation with oneself, an unknown agent or one not approved", async () => {
    const context = await contextWith([ann, pending]);
    expect(await page(context, "/messages?to=ann_example_com", ann)).toMatchObject({
      status: 400,
      refusal: CANNOT_MESSAGE_SELF,
      open: null,
    });
    expect(await page(context, "/messages?to=nobody_example_com", ann)).toMatchObject({
      status: 404,
      refusal: AGENT_NOT_FOUND,
      open: null,
    });
    expect(await page(context, "/messages?to=penny_example_com", ann)).toMatchObject({ status: 404, refusal: AGENT_NOT_FOUND, open: null });
  });

  it("refuses to send to oneself, an unknown agent or one not approved, storing nothing", async () => {
    const context = await contextWith([ann, pending]);
    for (const [to, status, message] of [
      ["ann_example_com", 400, CANNOT_MESSAGE_SELF],
      ["nobody_example_com", 404, AGENT_NOT_FOUND],
      ["rec-pending", 404, AGENT_NOT_FOUND],
    ] as const) {
      const reply = refusal(await send(context, `/messages?to=${to}`, ann, { intent: "send", text: "Hello" }));
      expect(reply.init?.status).toBe(status);
      expect(reply.data.result?.error?.[""]).toEqual([message]);
    }
    expect(context.services.store.messages.all()).toHaveLength(0);
  });

  it("answers 404 for a conversation the member is not part of, whoever's it is", async () => {
    const context = await contextWith([ann, bob, cat]);
    await send(context, "/messages?to=rec-bob", ann, { intent: "send", text: "Private" });
    for (const id of [annBob, conversationIdFor(bob.id, "rec-nobody"), "made-up", `${cat.id}--`]) {
      const response = await responseOf(async () =>
        loader({ request: get(`/messages?conversation=${encodeURIComponent(id)}`, await cookieOf(context, cat)), context, params: {} }),
      );
      expect(response.status).toBe(404);
      const posted = redirected(
        await send(context, `/messages?conversation=${encodeURIComponent(id)}`, cat, { intent: "send", text: "Hi" }),
      );
      expect(posted.status).toBe(404);
    }
    expect(context.services.store.messages.all().map((message) => message.text)).toEqual(["Private"]);
  });

  it("sends ?to= for an agent already in a conversation to that conversation's address", async () => {
    const context = await contextWith([ann, bob]);
    await send(context, "/messages?to=rec-bob", ann, { intent: "send", text: "First" });
    const response = await responseOf(async () =>
      loader({ request: get("/messages?to=bob_example_com", await cookieOf(context, ann)), context, params: {} }),
    );
    expect(response.status).toBe(302);
    expect(response.headers.get("Location")).toBe(`/messages?conversation=${encodeURIComponent(annBob)}`);
  });
});

describe("/messages: sending", () => {
  it("stores the trimmed text, redirects to the conversation and shows it to both members", async () => {
    const context = await contextWith([ann, bob]);
    const response = redirected(
      await send(context, "/messages?to=rec-bob", ann, { intent: "send", text: "  Hello Bob\r\n<b>second</b> line  " }),
    );
    expect(response.status).toBe(302);
    expect(response.headers.get("Location")).toBe(`/messages?conversation=${encodeURIComponent(annBob)}`);
    const [stored] = context.services.store.messages.all();
    expect(stored).toMatchObject({
      conversationId: annBob,
      fromEmail: "ann@example.com",
      toEmail: "bob@example.com",
      text: "Hello Bob\n<b>second</b> line",
    });

    const annView = await page(context, `/messages?conversation=${annBob}`, ann);
    expect(annView.open?.messages).toEqual([
      { id: stored!.id, text: "Hello Bob\n<b>second</b> line", createdAt: stored!.createdAt, fromMe: true, byEmail: false },
    ]);
    const bobView = await page(context, `/messages?conversation=${annBob}`, bob);
    expect(bobView.open?.messages?.[0]).toMatchObject({ fromMe: false, text: "Hello Bob\n<b>second</b> line" });
    expect(bobView.conversations[0]).toMatchObject({
      conversationId: annBob,
      partner: { fullName: "Ann Archer" },
      preview: "Hello Bob <b>second</b> line",
      lastFromMe: false,
    });
  });

  it("stores a message without the control characters in it, and tells the sender beside the box that they were removed", async () => {
    const context = await contextWith([ann, bob]);
    const response = redirected(
      await send(context, "/messages?to=rec-bob", ann, { intent: "send", text: "Hello\u0000 Bob\u0007!\r\nBye\u001b" }),
    );
    const location = `/messages?conversation=${encodeURIComponent(annBob)}`;
    expect(response.headers.get("Location")).toBe(location);
    expect(context.services.store.messages.all().map((message) => message.text)).toEqual(["Hello Bob!\nBye"]);
    const flash = response.headers.get("Set-Cookie")?.split(";")[0];
    expect(flash).toMatch(/^__flash=/);
    const annView = await page(context, location, ann, flash);
    expect(annView.notice).toBe(NOTICES.cleaned);
    // Once: the same address loaded again (a reload, or a link someone was sent) says nothing.
    expect((await page(context, location, ann)).notice).toBeNull();

    // A message with none is sent with no notice.
    const plain = redirected(await send(context, `/messages?conversation=${annBob}`, ann, { intent: "send", text: "Plain\ttext" }));
    expect(plain.headers.get("Location")).toBe(`/messages?conversation=${encodeURIComponent(annBob)}`);
    expect(plain.headers.get("Set-Cookie")).toBeNull();
    expect((await page(context, plain.headers.get("Location")!, ann)).notice).toBeNull();
  });

  it("refuses blank and over-long text with the input kept", async () => {
    const context = await contextWith([ann, bob]);
    const blank = refusal(await send(context, "/messages?to=rec-bob", ann, { intent: "send", text: " \r\n " }));
    expect(blank.init?.status).toBe(400);
    expect(blank.data.result?.error?.text).toEqual([MESSAGE_REQUIRED]);
    const long = refusal(await send(context, "/messages?to=rec-bob", ann, { intent: "send", text: "a".repeat(5_001) }));
    expect(long.init?.status).toBe(400);
    expect(long.data.result?.error?.text).toEqual([MESSAGE_TOO_LONG]);
    expect(long.data.result?.initialValue?.text).toBe("a".repeat(5_001));
    expect(context.services.store.messages.all()).toHaveLength(0);
  });

  it("says so and keeps the text when the message cannot be stored, mailing nobody", async () => {
    const context = await contextWith([ann, bob]);
    vi.spyOn(context.services.store.messages, "insertOnce").mockRejectedValue(
      new StoreWriteError("Messages", { cause: new Error("quota exceeded") }),
    );
    const errors = vi.spyOn(console, "error").mockImplementation(() => undefined);
    const reply = refusal(await send(context, "/messages?to=rec-bob", ann, { intent: "send", text: "Not lost" }));
    expect(reply.init?.status).toBe(503);
    expect(reply.data.result?.error?.[""]).toEqual([SEND_FAILED]);
    expect(reply.data.result?.initialValue?.text).toBe("Not lost");
    expect(await mailsTo(context, "bob@example.com")).toHaveLength(0);
    errors.mockRestore();
  });

  it("shares the member's contact info as a message", async () => {
    const context = await contextWith([ann, bob]);
    const response = redirected(await send(context, "/messages?to=rec-bob", ann, { intent: "share" }));
    expect(response.status).toBe(302);
    const [stored] = context.services.store.messages.all();
    expect(stored?.text).toBe(contactInfoText(ann));
    expect(stored?.text).toContain("Phone: (214) 555-0100");
    expect(stored?.text).toContain("Email: ann@example.com");
    expect(stored?.text).toContain("Brokerage: Archer Realty");
  });

  it("keeps the history readable but refuses new messages once the other agent is no longer approved", async () => {
    const context = await contextWith([ann, bob]);
    await send(context, "/messages?to=rec-bob", ann, { intent: "send", text: "Before" });
    await editAgentRow(context, bob.id, { status: "rejected" });
    const data = await page(context, `/messages?conversation=${annBob}`, ann);
    expect(data.open).toMatchObject({ canSend: false, messages: [{ text: "Before" }] });
    const reply = refusal(await send(context, `/messages?conversation=${annBob}`, ann, { intent: "send", text: "After" }));
    expect(reply.init?.status).toBe(400);
    expect(reply.data.result?.error?.[""]).toEqual([CANNOT_RECEIVE]);
    expect(context.services.store.messages.all()).toHaveLength(1);
  });
});

describe("/messages: notification mail", () => {
  it("mails the recipient the sender's name, brokerage, place, a 100-character preview and the link", async () => {
    const context = await contextWith([ann, bob], {}, { APP_URL: "https://referrals.example" });
    const text = `${"word ".repeat(30)}<script>alert(1)</script>`;
    await send(context, "/messages?to=rec-bob", ann, { intent: "send", text });
    const [mail, ...others] = await mailsTo(context, "bob@example.com");
    expect(others).toHaveLength(0);
    expect(mail?.subject).toBe("New message from Ann Archer on Red River Referrals");
    expect(mail?.text).toContain("From: Ann Archer");
    expect(mail?.text).toContain("Brokerage: Archer Realty");
    expect(mail?.text).toContain("Location: Austin, TX");
    expect(mail?.text).toContain(`Message: ${"word ".repeat(20).trim()}…`);
    expect(mail?.text).toContain(`Read and reply: https://referrals.example/messages?conversation=${encodeURIComponent(annBob)}`);
    expect(mail?.text).not.toContain("ann@example.com");
    expect(mail?.replyTo).toBeUndefined();
  });

  it("mails at most once per conversation and recipient in 10 minutes, decided from the stored time", async () => {
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(new Date("2026-03-01T12:00:00.000Z"));
    const context = await contextWith([ann, bob]);
    const path = `/messages?conversation=${annBob}`;
    await send(context, path, ann, { intent: "send", text: "One" });
    vi.setSystemTime(new Date("2026-03-01T12:05:00.000Z"));
    await send(context, path, ann, { intent: "send", text: "Two" });
    vi.setSystemTime(new Date("2026-03-01T12:09:59.000Z"));
    await send(context, path, ann, { intent: "send", text: "Three" });
    expect((await mailsTo(context, "bob@example.com")).map((mail) => mail.text.match(/Message: (\w+)/)?.[1])).toEqual(["One"]);
    expect(context.services.store.conversationMembers.get(memberRowId(annBob, "bob@example.com"))?.lastNotifiedAt).toBe(
      "2026-03-01T12:00:00.000Z",
    );

    // Bob answering is a first mail to Ann: each member's inbox has its own 10 minutes.
    await send(context, path, bob, { intent: "send", text: "Reply" });
    expect(await mailsTo(context, "ann@example.com")).toHaveLength(1);

    // A restarted app (a new replica of the same store) still knows Bob was mailed at 12:00.
    const restarted = await contextWith([], {}, { DATA_DIR: context.services.config.dataDir });
    vi.setSystemTime(new Date("2026-03-01T12:09:59.500Z"));
    await send(restarted, path, ann, { intent: "send", text: "Four" });
    vi.setSystemTime(new Date("2026-03-01T12:10:00.000Z"));
    await send(restarted, path, ann, { intent: "send", text: "Five" });
    await restarted.services.notifier.idle();
    expect((await mailsTo(context, "bob@example.com")).map((mail) => mail.text.match(/Message: (\w+)/)?.[1]).sort()).toEqual([
      "Five",
      "One",
    ]);
  });

  it("keeps the message when SendGrid refuses the notice on every try, and delivers it to SendGrid with the next message", async () => {
    const sendgrid = await startFakeSendgrid("SG.test-key");
    try {
      for (let i = 0; i < 3; i += 1) sendgrid.refuseNext(429);
      const errors = vi.spyOn(console, "error").mockImplementation(() => undefined);
      const context = await contextWith(
        [ann, bob],
        {},
        { SENDGRID_API_KEY: "SG.test-key", SENDGRID_API_URL: sendgrid.url, MAIL_FROM: "no-reply@example.test" },
      );
      const response = redirected(await send(context, "/messages?to=rec-bob", ann, { intent: "send", text: "Kept" }));
      expect(response.status).toBe(302);
      expect(context.services.store.messages.all().map((message) => message.text)).toEqual(["Kept"]);
      await context.services.notifier.idle();
      expect(context.services.store.conversationMembers.get(memberRowId(annBob, "bob@example.com"))?.lastNotifiedAt).toBeUndefined();
      expect(errors).toHaveBeenCalledWith(
        expect.stringContaining("could not be sent"),
        expect.objectContaining({ message: "SendGrid refused the mail: status 429" }),
      );
      expect(sendgrid.mails).toEqual([]);

      await send(context, `/messages?conversation=${annBob}`, ann, { intent: "send", text: "Again" });
      await context.services.notifier.idle();
      expect(sendgrid.mails).toHaveLength(1);
      expect(sendgrid.mails[0]).toMatchObject({
        from: "no-reply@example.test",
        to: ["bob@example.com"],
        subject: expect.stringMatching(/^New message from /) as string,
      });
      expect(sendgrid.mails[0]?.text).toContain("Message: Again");
      expect(sendgrid.mails[0]?.html).toContain("Again");
      errors.mockRestore();
    } finally {
      await sendgrid.close();
    }
  });
});

describe("/messages: read state", () => {
  it("counts unread messages until the thread is opened, and remembers it across restarts", async () => {
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(new Date("2026-03-01T12:00:00.000Z"));
    const context = await contextWith([ann, bob, cat]);
    await send(context, "/messages?to=rec-bob", ann, { intent: "send", text: "One" });
    vi.setSystemTime(new Date("2026-03-01T12:01:00.000Z"));
    await send(context, `/messages?conversation=${annBob}`, ann, { intent: "send", text: "Two" });
    vi.setSystemTime(new Date("2026-03-01T12:02:00.000Z"));
    await send(context, "/messages?to=rec-bob", cat, { intent: "send", text: "From Cat" });

    const bobCookie = await cookieOf(context, bob);
    const header = async (ctx: AppLoadContext) =>
      (await rootLoader({ request: get("/", bobCookie), context: ctx, params: {} })).unreadMessages;
    expect(await header(context)).toBe(3);
    const list = await page(context, "/messages", bob);
    expect(list.conversations.map((item) => [item.partner.fullName, item.unread])).toEqual([
      ["Cat Cole", 1],
      ["Ann Archer", 2],
    ]);
    expect(await dashboardMessages(context.services, bob, new Date())).toMatchObject({ unreadTotal: 3, conversationCount: 2 });

    const thread = await page(context, `/messages?conversation=${annBob}`, bob);
    expect(thread.conversations.find((item) => item.conversationId === annBob)?.unread).toBe(0);
    // The page's own count, taken after marking: the header shows it rather than the root's, counted alongside.
    expect(thread.unreadMessages).toBe(1);
    expect(context.services.store.conversationMembers.get(memberRowId(annBob, "bob@example.com"))?.lastReadAt).toBe(
      "2026-03-01T12:01:00.000Z",
    );
    expect(await header(context)).toBe(1);
    // Ann's own messages never count for her.
    const annCookie = await cookieOf(context, ann);
    expect((await rootLoader({ request: get("/", annCookie), context, params: {} })).unreadMessages).toBe(0);

    const restarted = await contextWith([], {}, { DATA_DIR: context.services.config.dataDir });
    expect(await header(restarted)).toBe(1);

    vi.setSystemTime(new Date("2026-03-01T12:03:00.000Z"));
    await send(restarted, `/messages?conversation=${annBob}`, ann, { intent: "send", text: "Three" });
    expect(await header(restarted)).toBe(2);
  });

  it("writes nothing when a thread already read is opened again", async () => {
    const context = await contextWith([ann, bob]);
    await send(context, "/messages?to=rec-bob", ann, { intent: "send", text: "One" });
    await page(context, `/messages?conversation=${annBob}`, bob);
    const update = vi.spyOn(context.services.store.conversationMembers, "update");
    const insert = vi.spyOn(context.services.store.conversationMembers, "insert");
    await page(context, `/messages?conversation=${annBob}`, bob);
    expect(update).not.toHaveBeenCalled();
    expect(insert).not.toHaveBeenCalled();
  });

  it("costs no read-position write when a sender reloads the thread after each of many quick sends, and one when the other reads them", async () => {
    const context = await contextWith([ann, bob]);
    await send(context, "/messages?to=rec-bob", bob, { intent: "send", text: "Hello Ann" });
    await page(context, `/messages?conversation=${annBob}`, ann);
    const update = vi.spyOn(context.services.store.conversationMembers, "update");
    const insert = vi.spyOn(context.services.store.conversationMembers, "insert");
    const readWrites = () =>
      [...update.mock.calls, ...insert.mock.calls].filter(([first, second]) => JSON.stringify([first, second]).includes("lastReadAt"))
        .length;
    for (const text of ["One", "Two", "Three", "Four", "Five"]) {
      await send(context, `/messages?conversation=${annBob}`, ann, { intent: "send", text });
      // The redirect after each send shows Ann the thread again.
      await page(context, `/messages?conversation=${annBob}`, ann);
    }
    expect(readWrites()).toBe(0);
    const annCookie = await cookieOf(context, ann);
    expect((await rootLoader({ request: get("/", annCookie), context, params: {} })).unreadMessages).toBe(0);

    for (let look = 0; look < 5; look += 1) await page(context, `/messages?conversation=${annBob}`, bob);
    expect(readWrites()).toBeLessThanOrEqual(1);
    const bobCookie = await cookieOf(context, bob);
    expect((await rootLoader({ request: get("/", bobCookie), context, params: {} })).unreadMessages).toBe(0);
  });

  it("writes a reader's position at most once per interval while messages keep arriving, counting them read at once", async () => {
    vi.useFakeTimers({ toFake: ["Date", "setTimeout", "clearTimeout"] });
    vi.setSystemTime(new Date("2026-03-01T12:00:00.000Z"));
    const context = await contextWith([ann, bob]);
    const { store } = context.services;
    const update = vi.spyOn(store.conversationMembers, "update");
    const insert = vi.spyOn(store.conversationMembers, "insert");
    const readWrites = () =>
      [...update.mock.calls, ...insert.mock.calls].filter((call) => JSON.stringify(call).includes("lastReadAt")).length;
    const bobCookie = await cookieOf(context, bob);
    const bobUnread = async () => (await rootLoader({ request: get("/", bobCookie), context, params: {} })).unreadMessages;

    for (const [second, text] of [
      [0, "One"],
      [2, "Two"],
      [4, "Three"],
      [6, "Four"],
      [8, "Five"],
    ] as const) {
      vi.setSystemTime(new Date(Date.UTC(2026, 2, 1, 12, 0, second)));
      await send(context, `/messages?${second === 0 ? "to=rec-bob" : `conversation=${annBob}`}`, ann, { intent: "send", text });
      expect(await bobUnread()).toBe(1);
      await page(context, `/messages?conversation=${annBob}`, bob);
      expect(await bobUnread()).toBe(0);
    }
    // Five quick reads: the first is written, the others wait for the end of the interval.
    expect(readWrites()).toBe(1);
    await vi.advanceTimersByTimeAsync(30_000);
    expect(readWrites()).toBe(2);
    expect(store.conversationMembers.get(memberRowId(annBob, "bob@example.com"))?.lastReadAt).toBe("2026-03-01T12:00:08.000Z");
    expect(await bobUnread()).toBe(0);
  });

  it("shows the dashboard card's empty state data for a member without messages", async () => {
    const context = await contextWith([ann]);
    const now = new Date();
    expect(await dashboardMessages(context.services, ann, now)).toEqual({
      conversations: [],
      unreadTotal: 0,
      conversationCount: 0,
      now: now.toISOString(),
    });
  });
});
