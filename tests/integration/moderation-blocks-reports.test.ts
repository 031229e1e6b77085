/**
 * Members' blocks and reports, through the routes' loaders and actions: a block stops
 * messages and hides each member's requests and responses from the other until it is
 * lifted; a report is one Reports row and one staff mail, once per member and item.
 */
import type { AppLoadContext } from "@remix-run/node";
import { afterEach, describe, expect, it } from "vitest";
import { agentIdOf } from "../../app/domain/agent-id";
import { conversationIdFor } from "../../app/domain/conversation";
import { ALREADY_REPORTED, BLOCKED_CANNOT_MESSAGE } from "../../app/domain/moderation";
import { NOTICES } from "../../app/domain/notices";
import type { Agent } from "../../app/domain/workbook/tabs";
import { loader as profileLoader } from "../../app/routes/agent.$agentId";
import { loader as directoryLoader } from "../../app/routes/directory";
import { action as messagesAction, loader as messagesLoader } from "../../app/routes/messages";
import { loader as detailLoader } from "../../app/routes/referral-requests.$id._index";
import { loader as listLoader } from "../../app/routes/referral-requests._index";
import { action as reportAction, loader as reportLoader } from "../../app/routes/report";
import { action as blockAction, loader as blockedLoader } from "../../app/routes/settings.blocked";
import { dashboardData } from "../../app/server/referral-requests/dashboard-requests.server";
import { newId, type Store } from "../../app/server/store/store.server";
import { agentRecord } from "../support/records";
import { testContext, sentMails } from "../support/services";
import { get, insertRequest, outcome, post, sessionCookie } from "./requests-support";

const opened: Store[] = [];
afterEach(async () => {
  await Promise.all(opened.splice(0).map((store) => store.stop()));
});

type Network = { context: AppLoadContext; ann: Agent; bob: Agent; cat: Agent; cookies: Record<"ann" | "bob" | "cat", string> };

async function network(env: Record<string, string> = {}): Promise<Network> {
  const context = testContext({}, env);
  opened.push(context.services.store);
  await context.services.store.refresh();
  const [ann, bob, cat] = await Promise.all(
    (["Ann Archer", "Bob Brooks", "Cat Cole"] as const).map((fullName) =>
      context.services.store.agents.insert(agentRecord({ fullName, email: `${fullName.split(" ")[0]!.toLowerCase()}@example.com` })),
    ),
  );
  const cookies = {
    ann: await sessionCookie(context, ann!),
    bob: await sessionCookie(context, bob!),
    cat: await sessionCookie(context, cat!),
  };
  return { context, ann: ann!, bob: bob!, cat: cat!, cookies };
}

function block(n: Network, who: "ann" | "bob" | "cat", other: Agent, intent = "block") {
  return outcome(() =>
    blockAction({
      request: post("/settings/blocked", n.cookies[who], { intent, agent: other.id, back: "/member-dashboard" }),
      context: n.context,
      params: {},
    }),
  );
}

function sendMessage(n: Network, who: "ann" | "bob", to: Agent, text: string) {
  return outcome(() =>
    messagesAction({
      request: post(`/messages?to=${encodeURIComponent(to.email)}`, n.cookies[who], { text }),
      context: n.context,
      params: {},
    }),
  );
}

async function listedTitles(n: Network, who: "ann" | "bob"): Promise<string[]> {
  const page = (await listLoader({ request: get("/referral-requests", n.cookies[who]), context: n.context, params: {} })).data as {
    requests: { title: string }[];
  };
  return page.requests.map((request) => request.title);
}

function dashboardTitles(n: Network, member: Agent): string[] {
  return dashboardData(n.context.services, member, new URLSearchParams(), new Date()).live.requests.map((request) => request.title);
}

function statusOf(result: unknown): number | undefined {
  if (result instanceof Response) return result.status;
  return (result as { init?: { status?: number } | null }).init?.status ?? undefined;
}

describe("blocking another member", () => {
  it("refuses messages both ways, with the form's message, and stores none", async () => {
    const n = await network();
    expect(statusOf(await sendMessage(n, "bob", n.ann, "Before the block"))).toBe(302);
    expect(statusOf(await block(n, "ann", n.bob))).toBe(302);

    const fromBob = await sendMessage(n, "bob", n.ann, "After the block");
    expect(statusOf(fromBob)).toBe(403);
    expect(JSON.stringify((fromBob as { data: unknown }).data)).toContain(BLOCKED_CANNOT_MESSAGE);
    expect(statusOf(await sendMessage(n, "ann", n.bob, "Me neither"))).toBe(403);
    expect(n.context.services.store.messages.all().map((message) => message.text)).toEqual(["Before the block"]);

    // The conversation stays readable, without a message box.
    const conversation = conversationIdFor(n.ann.id, n.bob.id);
    const page = (await messagesLoader({
      request: get(`/messages?conversation=${conversation}`, n.cookies.bob),
      context: n.context,
      params: {},
    })) as {
      data: { open: { canSend: boolean; blocked: boolean; messages: unknown[] } };
    };
    expect(page.data.open).toMatchObject({ canSend: false, blocked: true });
    expect(page.data.open.messages).toHaveLength(1);
  });

  it("hides each one's requests and responses from the other, and the Send Message button, until unblocked", async () => {
    const n = await network();
    const annRequest = await insertRequest(n.context, n.ann, { title: "Ann's buyer" });
    const bobRequest = await insertRequest(n.context, n.bob, { title: "Bob's seller" });
    await insertRequest(n.context, n.cat, { title: "Cat's lease" });
    await n.context.services.store.responses.insert({
      id: newId(),
      requestId: annRequest.id,
      fromEmail: n.bob.email,
      fromName: n.bob.fullName,
      toEmail: n.ann.email,
      message: "I can help",
      createdAt: new Date().toISOString(),
    });
    expect(await listedTitles(n, "ann")).toEqual(expect.arrayContaining(["Bob's seller", "Cat's lease"]));

    await block(n, "ann", n.bob);

    expect(await listedTitles(n, "ann")).toEqual(["Cat's lease"]);
    expect((await listedTitles(n, "bob")).sort()).toEqual(["Cat's lease"]);
    expect(dashboardTitles(n, n.ann)).toEqual(["Cat's lease"]);
    expect(dashboardTitles(n, n.bob)).toEqual(["Cat's lease"]);
    // Cat, who blocked no one, still sees both.
    expect(dashboardTitles(n, n.cat).sort()).toEqual(["Ann's buyer", "Bob's seller"]);
    const bobsPage = await outcome(() =>
      detailLoader({ request: get("/x", n.cookies.ann), context: n.context, params: { id: bobRequest.id } }),
    );
    expect(statusOf(bobsPage)).toBe(404);
    const annsPage = (await detailLoader({ request: get("/x", n.cookies.ann), context: n.context, params: { id: annRequest.id } }))
      .data as {
      responses: unknown[];
    };
    expect(annsPage.responses).toEqual([]);

    const profile = (who: "ann" | "bob", of: Agent) =>
      profileLoader({ request: get("/x", n.cookies[who]), context: n.context, params: { agentId: agentIdOf(of) } }) as Promise<{
        blocked: boolean;
        blockedByMe: boolean;
      }>;
    expect(await outcome(() => profile("ann", n.bob))).toMatchObject({ blocked: true, blockedByMe: true });
    expect(await outcome(() => profile("bob", n.ann))).toMatchObject({ blocked: true, blockedByMe: false });

    const directoryCard = async (who: "ann" | "bob", of: Agent) => {
      const page = (await directoryLoader({
        request: get(`/directory?q=${encodeURIComponent(of.fullName)}`, n.cookies[who]),
        context: n.context,
        params: {},
      })) as {
        agents: { fullName: string; messageHref: string | null }[];
      };
      return page.agents.find((agent) => agent.fullName === of.fullName);
    };
    expect(await directoryCard("ann", n.bob)).toMatchObject({ messageHref: null });
    expect(await directoryCard("bob", n.ann)).toMatchObject({ messageHref: null });
    expect((await directoryCard("ann", n.cat))?.messageHref).toContain("/messages?to=");

    const settings = (await blockedLoader({ request: get("/settings/blocked", n.cookies.ann), context: n.context, params: {} })) as {
      blocked: { fullName: string }[];
    };
    expect(settings.blocked.map((agent) => agent.fullName)).toEqual(["Bob Brooks"]);

    await block(n, "ann", n.bob, "unblock");
    expect((await listedTitles(n, "ann")).sort()).toEqual(["Bob's seller", "Cat's lease"]);
    expect(statusOf(await sendMessage(n, "bob", n.ann, "Hello again"))).toBe(302);
    const after = (await blockedLoader({ request: get("/settings/blocked", n.cookies.ann), context: n.context, params: {} })) as {
      blocked: unknown[];
    };
    expect(after.blocked).toEqual([]);
    // The tab keeps the history: one row, now removed.
    expect(n.context.services.store.blocks.all()).toMatchObject([
      { blockerEmail: n.ann.email, blockedEmail: n.bob.email, status: "removed" },
    ]);
  });

  it("acts for the member logged in only, and answers odd input with 400 or 404", async () => {
    const n = await network();
    await block(n, "ann", n.bob);
    // Bob cannot lift Ann's block: his unblock of Ann only concerns blocks he made.
    expect(statusOf(await block(n, "bob", n.ann, "unblock"))).toBe(302);
    expect(n.context.services.store.blocks.all()).toMatchObject([{ blockerEmail: n.ann.email, status: "active" }]);

    expect(statusOf(await block(n, "ann", agentRecord({ id: "no-such-agent" })))).toBe(404);
    expect(statusOf(await block(n, "ann", n.ann))).toBe(400);
    expect(statusOf(await block(n, "ann", n.bob, "explode"))).toBe(400);
    const foreignBack = await outcome(() =>
      blockAction({
        request: post("/settings/blocked", n.cookies.cat, { intent: "block", agent: n.bob.id, back: "//evil.example/" }),
        context: n.context,
        params: {},
      }),
    );
    expect((foreignBack as Response).headers.get("Location")).toBe("/settings/blocked");
  });
});

describe("reporting to staff", () => {
  function report(n: Network, who: "ann" | "bob" | "cat", kind: string, id: string, fields: Record<string, string> = { reason: "spam" }) {
    const url = `/report?kind=${kind}&id=${encodeURIComponent(id)}`;
    return outcome(() => reportAction({ request: post(url, n.cookies[who], fields), context: n.context, params: {} }));
  }
  const staffMails = async (n: Network) => (await sentMails(n.context.services)).filter((mail) => mail.to === "support@example.test");

  it("stores one row and sends staff one mail; a second report of the item is told it was already reported", async () => {
    const n = await network();
    const request = await insertRequest(n.context, n.bob, { title: "Too good to be true" });
    const first = await report(n, "ann", "request", request.id, { reason: "spam", note: "Posted\u0000 five times" });
    expect((first as Response).headers.get("Location")).toBe(`/report?kind=request&id=${request.id}`);
    const flash = (first as Response).headers.get("Set-Cookie")?.split(";")[0];

    expect(n.context.services.store.reports.all()).toMatchObject([
      {
        kind: "request",
        itemId: request.id,
        link: `http://localhost/referral-requests/${request.id}`,
        reporterEmail: n.ann.email,
        reportedEmail: n.bob.email,
        reason: "spam",
        note: "Posted five times",
        status: "open",
        itemStatus: "visible",
      },
    ]);
    const mails = await staffMails(n);
    expect(mails).toHaveLength(1);
    expect(mails[0]!.text).toContain("Too good to be true");
    expect(mails[0]!.text).toContain(n.bob.email);

    const second = await report(n, "ann", "request", request.id, { reason: "other" });
    expect((second as Response).headers.get("Location")).toBe(`/report?kind=request&id=${request.id}`);
    expect((second as Response).headers.get("Set-Cookie")).toBeNull();
    expect(n.context.services.store.reports.all()).toHaveLength(1);
    expect(await staffMails(n)).toHaveLength(1);
    // The first report's own page says it was sent, once (with the flash cookie it set); every later load, that it was already reported.
    const sent = await reportLoader({
      request: get(`/report?kind=request&id=${request.id}`, `${n.cookies.ann}; ${flash}`),
      context: n.context,
      params: {},
    });
    expect(sent.data.notice).toBe(NOTICES.reported);
    const page = await reportLoader({
      request: get(`/report?kind=request&id=${request.id}`, n.cookies.ann),
      context: n.context,
      params: {},
    });
    expect(page.data.notice).toBe(ALREADY_REPORTED);
  });

  it("reports profiles, messages received and responses to one's own requests", async () => {
    const n = await network();
    await sendMessage(n, "bob", n.ann, "Buy my course");
    const message = n.context.services.store.messages.all()[0]!;
    const annRequest = await insertRequest(n.context, n.ann);
    const response = await n.context.services.store.responses.insert({
      id: newId(),
      requestId: annRequest.id,
      fromEmail: n.bob.email,
      fromName: n.bob.fullName,
      toEmail: n.ann.email,
      message: "Spam",
      createdAt: new Date().toISOString(),
    });
    expect(statusOf(await report(n, "ann", "message", message.id, { reason: "harassment" }))).toBe(302);
    expect(statusOf(await report(n, "ann", "response", response.id, { reason: "spam" }))).toBe(302);
    expect(statusOf(await report(n, "ann", "profile", n.bob.email, { reason: "fake-license" }))).toBe(302);
    expect(n.context.services.store.reports.all().map((row) => [row.kind, row.reportedEmail])).toEqual([
      ["message", n.bob.email],
      ["response", n.bob.email],
      ["profile", n.bob.email],
    ]);
    expect(await staffMails(n)).toHaveLength(3);
  });

  it("answers items the member cannot see, odd ids and bad input with 404 or 400, never 500", async () => {
    const n = await network();
    await sendMessage(n, "bob", n.ann, "Private");
    const message = n.context.services.store.messages.all()[0]!;
    const ownRequest = await insertRequest(n.context, n.cat);
    // Someone else's message, one's own message, one's own request, nonsense.
    expect(statusOf(await report(n, "cat", "message", message.id))).toBe(404);
    expect(statusOf(await report(n, "bob", "message", message.id))).toBe(404);
    expect(statusOf(await report(n, "cat", "request", ownRequest.id))).toBe(404);
    expect(statusOf(await report(n, "ann", "bogus", "1"))).toBe(404);
    expect(statusOf(await report(n, "ann", "request", "../../etc"))).toBe(404);
    expect(statusOf(await report(n, "ann", "profile", "x".repeat(500)))).toBe(404);
    const loaderAnswer = await outcome(() =>
      reportLoader({ request: get("/report?kind=message", n.cookies.ann), context: n.context, params: {} }),
    );
    expect(statusOf(loaderAnswer)).toBe(404);

    const noReason = await report(n, "ann", "message", message.id, { reason: "" });
    expect(statusOf(noReason)).toBe(400);
    expect(JSON.stringify(noReason)).toContain("Please choose a reason");
    const longNote = await report(n, "ann", "message", message.id, { reason: "spam", note: "x".repeat(1001) });
    expect(statusOf(longNote)).toBe(400);
    expect(JSON.stringify(longNote)).toContain("Please keep the note under 1,000 characters");
    expect(n.context.services.store.reports.all()).toEqual([]);
  });

  it("is rate-limited like the other writes", async () => {
    const n = await network({ REPORTS_PER_MEMBER_PER_HOUR: "1" });
    const first = await insertRequest(n.context, n.bob);
    const second = await insertRequest(n.context, n.cat);
    expect(statusOf(await report(n, "ann", "request", first.id))).toBe(302);
    const refused = await report(n, "ann", "request", second.id);
    expect(statusOf(refused)).toBe(429);
    expect(JSON.stringify(refused)).toContain("Too many reports");
    expect(n.context.services.store.reports.all()).toHaveLength(1);
  });
});
