/**
 * Staff moderate from the spreadsheet: on the fake Sheets server, staff type `hidden` in a
 * request's status or a report's itemStatus, or `suspended` in an agent's status, and
 * after the app's next refresh every page leaves the item, or the agent's content and
 * sessions, out.
 */
import type { AppLoadContext } from "@remix-run/node";
import { describe, expect, it } from "vitest";
import { agentIdOf } from "../../app/domain/agent-id";
import { conversationIdFor } from "../../app/domain/conversation";
import type { Agent } from "../../app/domain/workbook/tabs";
import { loader as profileLoader } from "../../app/routes/agent.$agentId";
import { action as messagesAction, loader as messagesLoader } from "../../app/routes/messages";
import { loader as detailLoader } from "../../app/routes/referral-requests.$id._index";
import { loader as listLoader } from "../../app/routes/referral-requests._index";
import { action as reportAction } from "../../app/routes/report";
import { LOGIN_MESSAGES } from "../../app/domain/auth";
import { checkLogin } from "../../app/server/accounts/login.server";
import { watchAgentDecisions } from "../../app/server/jobs/decision-mails.server";
import { createReplicaServices } from "../../app/server/service-lifecycle.server";
import type { Mail } from "../../app/server/mail/mailer.server";
import { dashboardData } from "../../app/server/referral-requests/dashboard-requests.server";
import { newId } from "../../app/server/store/store.server";
import { useFakeSheets, openSheetsStore } from "../support/fake-sheets";
import { createSendClaims } from "../../app/server/send-claims.server";
import { agentRecord } from "../support/records";
import { collectingNotifier, insertAgent, testContext } from "../support/services";
import { get, insertRequest, outcome, post, sessionCookie } from "./requests-support";

const { fake, opened } = useFakeSheets();

async function network() {
  const { store, spreadsheetId } = await openSheetsStore(fake, "moderation");
  opened.push(store);
  const context: AppLoadContext = testContext({ ...createReplicaServices(store) });
  const ann = await store.agents.insert(agentRecord({ fullName: "Ann Archer", email: "ann@example.com" }));
  const bob = await store.agents.insert(agentRecord({ fullName: "Bob Brooks", email: "bob@example.com" }));
  const cookies = { ann: await sessionCookie(context, ann), bob: await sessionCookie(context, bob) };
  const book = fake.spreadsheet(spreadsheetId);
  /** Types into a cell as staff do, then lets the app's refresh read it. */
  const staffTypes = async (tab: string, id: string, header: string, text: string) => {
    book.typeCell(tab, { id, header }, text);
    await store.refresh();
  };
  return { context, store, ann, bob, cookies, staffTypes };
}

type Net = Awaited<ReturnType<typeof network>>;

async function listed(n: Net, who: "ann" | "bob", tab = "all"): Promise<string[]> {
  const page = (await listLoader({ request: get(`/referral-requests?tab=${tab}`, n.cookies[who]), context: n.context, params: {} }))
    .data as {
    requests: { title: string }[];
  };
  return page.requests.map((request) => request.title);
}

async function sendFromBob(n: Net, text: string) {
  await messagesAction({
    request: post(`/messages?to=${encodeURIComponent(n.ann.email)}`, n.cookies.bob, { text }),
    context: n.context,
    params: {},
  });
}

async function annThread(n: Net): Promise<string[]> {
  const conversation = conversationIdFor(n.ann.id, n.bob.id);
  const page = (await messagesLoader({
    request: get(`/messages?conversation=${conversation}`, n.cookies.ann),
    context: n.context,
    params: {},
  })) as {
    data: { open: { messages: { text: string }[] }; conversations: { preview: string }[]; unreadMessages: number };
  };
  return page.data.open.messages.map((message) => message.text);
}

function statusOf(result: unknown): number | undefined {
  return result instanceof Response ? result.status : undefined;
}

describe("staff moderation in the sheet", () => {
  it("a request set to hidden leaves every list, count and page, its poster's included", async () => {
    const n = await network();
    const request = await insertRequest(n.context, n.bob, { title: "Spammy listing" });
    expect(await listed(n, "ann")).toEqual(["Spammy listing"]);

    await n.staffTypes("Requests", request.id, "status", "hidden");
    // The row still reads (an unknown status would drop it as invalid, which hides it by accident).
    expect(n.store.health().invalidRows).toEqual([]);
    expect(n.store.requests.get(request.id)?.status).toBe("hidden");

    expect(await listed(n, "ann")).toEqual([]);
    expect(await listed(n, "bob", "mine")).toEqual([]);
    expect(dashboardData(n.context.services, n.ann, new URLSearchParams(), new Date()).live.total).toBe(0);
    expect(dashboardData(n.context.services, n.ann, new URLSearchParams(), new Date()).tiles.referral).toBe(0);
    for (const who of ["ann", "bob"] as const) {
      const page = await outcome(() =>
        detailLoader({ request: get("/x", n.cookies[who]), context: n.context, params: { id: request.id } }),
      );
      expect(statusOf(page)).toBe(404);
    }
  });

  it("a message hidden from its report's itemStatus leaves the thread, the list's preview and the unread count", async () => {
    const n = await network();
    await sendFromBob(n, "Hello Ann");
    await sendFromBob(n, "Abusive words");
    const abusive = n.store.messages.all().find((message) => message.text === "Abusive words")!;
    await reportAction({
      request: post(`/report?kind=message&id=${abusive.id}`, n.cookies.ann, { reason: "harassment" }),
      context: n.context,
      params: {},
    });
    const report = n.store.reports.all()[0]!;
    expect(await annThread(n)).toEqual(["Hello Ann", "Abusive words"]);

    await n.staffTypes("Reports", report.id, "itemStatus", "hidden");

    expect(await annThread(n)).toEqual(["Hello Ann"]);
    const conversation = conversationIdFor(n.ann.id, n.bob.id);
    const bobsPage = (await messagesLoader({
      request: get(`/messages?conversation=${conversation}`, n.cookies.bob),
      context: n.context,
      params: {},
    })) as {
      data: { open: { messages: { text: string }[] }; conversations: { preview: string }[] };
    };
    expect(bobsPage.data.open.messages.map((message) => message.text)).toEqual(["Hello Ann"]);
    expect(bobsPage.data.conversations[0]!.preview).toBe("Hello Ann");
  });

  it("a suspended agent's session ends and their requests, responses, messages and profile disappear", async () => {
    const n = await network();
    const bobRequest = await insertRequest(n.context, n.bob, { title: "Bob's seller" });
    const annRequest = await insertRequest(n.context, n.ann, { title: "Ann's buyer" });
    await n.store.responses.insert({
      id: newId(),
      requestId: annRequest.id,
      fromEmail: n.bob.email,
      fromName: n.bob.fullName,
      toEmail: n.ann.email,
      message: "Pick me",
      createdAt: new Date().toISOString(),
    });
    await sendFromBob(n, "Hi from Bob");
    const mails: Mail[] = [];
    const claims = createSendClaims({ store: n.store });
    const decisions = watchAgentDecisions({
      store: n.store,
      notifier: collectingNotifier(mails, claims),
      config: n.context.services.config,
    });

    await n.staffTypes("Agents", n.bob.id, "status", "suspended");
    await decisions.stop();
    expect(n.store.health().invalidRows).toEqual([]);
    expect(n.store.agents.get(n.bob.id)?.status).toBe("suspended");

    const bobsNextPage = await outcome(() =>
      listLoader({ request: get("/referral-requests", n.cookies.bob), context: n.context, params: {} }),
    );
    expect(statusOf(bobsNextPage)).toBe(302);
    expect((bobsNextPage as Response).headers.get("Location")).toContain("/member-login");
    expect(await listed(n, "ann")).toEqual([]);
    expect(
      statusOf(await outcome(() => detailLoader({ request: get("/x", n.cookies.ann), context: n.context, params: { id: bobRequest.id } }))),
    ).toBe(404);
    const annsPage = (await detailLoader({ request: get("/x", n.cookies.ann), context: n.context, params: { id: annRequest.id } }))
      .data as {
      responses: unknown[];
      request: { responses: number };
    };
    expect(annsPage.responses).toEqual([]);
    expect(annsPage.request.responses).toBe(0);
    // Bob's messages were all there was: the conversation with a suspended agent no longer opens.
    expect(statusOf(await outcome(() => annThread(n)))).toBe(404);
    const profile = await outcome(() =>
      profileLoader({ request: get("/x", n.cookies.ann), context: n.context, params: { agentId: agentIdOf(n.bob) } }),
    );
    expect(statusOf(profile)).toBe(404);
    expect(n.context.services.directory.current().ids.find(agentIdOf(n.bob))).toBeNull();
    // Suspension is not a decision on an application: no approval or rejection mail.
    expect(mails).toEqual([]);
  });

  it("a pending applicant suspended by staff is not mailed as if rejected", async () => {
    const n = await network();
    const applicant: Agent = await n.store.agents.insert(agentRecord({ fullName: "Pat Pending", status: "pending" }));
    const mails: Mail[] = [];
    const claims = createSendClaims({ store: n.store });
    const decisions = watchAgentDecisions({
      store: n.store,
      notifier: collectingNotifier(mails, claims),
      config: n.context.services.config,
    });
    await n.store.refresh();
    await n.staffTypes("Agents", applicant.id, "status", "suspended");
    await decisions.stop();
    expect(mails).toEqual([]);
  });

  it("a suspended agent cannot log in again, and is told to contact support", async () => {
    const n = await network();
    const dee = await insertAgent(n.context, { fullName: "Dee Dunn", email: "dee@example.com", password: "dee's password" });
    await n.staffTypes("Agents", dee.id, "status", "suspended");
    expect(await checkLogin(n.context.services, "dee@example.com", "dee's password")).toEqual({
      ok: false,
      message: LOGIN_MESSAGES.suspended,
    });
  });
});
