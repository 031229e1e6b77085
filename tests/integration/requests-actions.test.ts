import type { AppLoadContext } from "@remix-run/node";
import { beforeEach, describe, expect, it } from "vitest";
import { action as deleteAction, loader as deleteLoader } from "../../app/routes/referral-requests.$id.delete";
import { action as editAction, loader as editLoader } from "../../app/routes/referral-requests.$id.edit";
import { action as respondAction, loader as respondLoader } from "../../app/routes/referral-requests.$id.respond";
import { loader as detailLoader } from "../../app/routes/referral-requests.$id._index";
import { loader as listLoader } from "../../app/routes/referral-requests._index";
import { action as postAction } from "../../app/routes/post-request";
import { NOTICES } from "../../app/domain/notices";
import type { Agent } from "../../app/domain/workbook/tabs";
import { expireOverdueRequests } from "../../app/server/jobs/request-expiry.server";
import { startServices, stopServices } from "../../app/server/service-lifecycle.server";
import { insertAgent, testContext, sentMails } from "../support/services";
import { get, insertRequest, outcome, post, sessionCookie, type Rejection } from "./requests-support";

const DAY = 24 * 60 * 60 * 1000;

let context: AppLoadContext;
let maria: Agent;
let james: Agent;
let mariaCookie: string;
let jamesCookie: string;

beforeEach(async () => {
  context = testContext();
  maria = await insertAgent(context, { fullName: "Maria Delgado", email: "maria@example.com", state: "OK" });
  james = await insertAgent(context, { fullName: "James Whitfield", email: "james@example.com", brokerage: "Hill Country Homes" });
  mariaCookie = await sessionCookie(context, maria);
  jamesCookie = await sessionCookie(context, james);
});

const listing = {
  requestType: "listing",
  title: "Updated 4-bed with pool",
  location: "Dallas",
  state: "TX",
  specialty: "Residential",
  priceRange: "$400k - $600k",
  listingAddress: "4182 Blue Sage Dr",
  listingMLS: "20581234",
  clientType: "seller",
  timeline: "2weeks",
  contactPreference: "email",
  description: "=SUM(A1:A9) <script>alert(1)</script>",
  urgent: "on",
};

function postRequest(cookie: string, fields: Record<string, string>, url = "/post-request?type=listing") {
  return outcome(() => postAction({ request: post(url, cookie, fields), context, params: {} }));
}

function requestRows() {
  return context.services.store.requests.all();
}

/** The name=value of a response's Set-Cookie, as the browser sends it back. */
function cookieSet(headers: Headers | undefined): string {
  return headers?.get("Set-Cookie")?.split(";")[0] ?? "";
}

/**
 * Follows an action's redirect in the member's browser: the notice the page there shows with the
 * flash cookie the action set, then what the same page shows on the next load, with the cookie
 * that first page committed.
 */
async function noticesAfterRedirect(result: unknown, cookie: string): Promise<[string | null, string | null]> {
  const response = result as Response;
  const url = new URL(response.headers.get("Location") ?? "", "http://localhost");
  const id = /^\/referral-requests\/([^/]+)$/.exec(url.pathname)?.[1];
  const load = async (flash: string) => {
    const request = get(url.pathname + url.search, `${cookie}; ${flash}`);
    const page = id ? await detailLoader({ request, context, params: { id } }) : await listLoader({ request, context, params: {} });
    return { notice: page.data.notice, flash: cookieSet(page.init?.headers as Headers | undefined) };
  };
  const first = await load(cookieSet(response.headers));
  const second = await load(first.flash);
  return [first.notice, second.notice];
}

async function mailsTo(email: string) {
  return (await sentMails(context.services)).filter((mail) => mail.to === email);
}

describe("posting a request", () => {
  it("stores it active with no responses, expiring in 30 days, exactly as typed, then shows its page with the notice", async () => {
    const before = Date.now();
    const result = await postRequest(mariaCookie, listing);
    expect(result).toBeInstanceOf(Response);
    const [row] = requestRows();
    expect((result as Response).headers.get("Location")).toBe(`/referral-requests/${row!.id}`);
    expect(await noticesAfterRedirect(result, mariaCookie)).toEqual([NOTICES.posted, null]);
    expect(row).toMatchObject({
      requestType: "listing",
      title: "Updated 4-bed with pool",
      listingAddress: "4182 Blue Sage Dr",
      listingMLS: "20581234",
      // A listing has no client type.
      clientType: "",
      description: "=SUM(A1:A9) <script>alert(1)</script>",
      urgent: true,
      agentEmail: "maria@example.com",
      agentName: "Maria Delgado",
      status: "active",
      responses: 0,
    });
    expect(Date.parse(row!.createdAt)).toBeGreaterThanOrEqual(before);
    expect(Date.parse(row!.expiresAt!) - Date.parse(row!.createdAt)).toBe(30 * DAY);
  });

  it("answers missing fields with 400, the product's messages and the input kept, and stores nothing", async () => {
    const result = (await postRequest(mariaCookie, { requestType: "referral", title: "Kept title" })) as Rejection;
    expect(result.init?.status).toBe(400);
    expect(result.data.error).toMatchObject({ location: ["City/Area is required"], description: ["Description is required"] });
    expect(result.data.initialValue).toMatchObject({ title: "Kept title" });
    expect(requestRows()).toHaveLength(0);
  });

  it("sends a visitor to the login page and stores nothing", async () => {
    const result = await postRequest("", listing);
    expect((result as Response).headers.get("Location")).toBe("/member-login?redirectTo=%2Fpost-request%3Ftype%3Dlisting");
    expect(requestRows()).toHaveLength(0);
  });
});

describe("responding", () => {
  function respond(cookie: string, id: string, message: string) {
    return outcome(() =>
      respondAction({ request: post(`/referral-requests/${id}/respond`, cookie, { message }), context, params: { id } }),
    );
  }

  it("stores the response, adds one to the count and mails the poster the message and a link", async () => {
    const request = await insertRequest(context, maria);
    const result = await respond(jamesCookie, request.id, "I cover Moore and Midwest City.\n<b>Call me</b>");
    expect((result as Response).headers.get("Location")).toBe("/referral-requests");
    expect(await noticesAfterRedirect(result, jamesCookie)).toEqual([NOTICES.responded, null]);
    expect(context.services.store.responses.all()).toMatchObject([
      {
        requestId: request.id,
        fromEmail: "james@example.com",
        fromName: "James Whitfield",
        toEmail: "maria@example.com",
        message: "I cover Moore and Midwest City.\n<b>Call me</b>",
      },
    ]);
    expect(context.services.store.requests.get(request.id)?.responses).toBe(1);
    const [mail] = await mailsTo("maria@example.com");
    expect(mail?.replyTo).toBe("james@example.com");
    expect(mail?.subject).toBe("New response to your request: Relocating family needs an OKC agent");
    expect(mail?.text).toContain("I cover Moore and Midwest City.");
    expect(mail?.text).toContain(`http://localhost/referral-requests/${request.id}`);
    expect(mail?.html).toContain("&lt;b&gt;Call me&lt;/b&gt;");

    await respond(jamesCookie, request.id, "One more thing");
    expect(context.services.store.requests.get(request.id)?.responses).toBe(2);
  });

  it("asks for a message", async () => {
    const request = await insertRequest(context, maria);
    const result = (await respond(jamesCookie, request.id, "   ")) as Rejection;
    expect(result.init?.status).toBe(400);
    expect(result.data.error?.message).toEqual(["Please enter a message"]);
    expect(context.services.store.responses.all()).toHaveLength(0);
  });

  it("refuses responses to a deleted or expired request, and to one's own, storing nothing", async () => {
    const deleted = await insertRequest(context, maria, { status: "deleted" });
    const expired = await insertRequest(context, maria, { createdAt: new Date(Date.now() - 31 * DAY).toISOString() });
    const own = await insertRequest(context, james);
    expect(
      await outcome(() => respondAction({ request: post(`/x`, jamesCookie, { message: "Hi" }), context, params: { id: deleted.id } })),
    ).toMatchObject({ status: 404 });
    const closed = (await respond(jamesCookie, expired.id, "Hi")) as Rejection;
    expect(closed.init?.status).toBe(409);
    expect(closed.data.error?.[""]).toEqual(["This request is no longer open for responses."]);
    expect(((await respond(jamesCookie, own.id, "Hi")) as Rejection).init?.status).toBe(403);
    expect(context.services.store.responses.all()).toHaveLength(0);
    expect(await mailsTo("maria@example.com")).toHaveLength(0);
  });

  it("shows the respond page to members and 404 for an unknown id", async () => {
    const request = await insertRequest(context, maria);
    const page = (await respondLoader({
      request: get(`/referral-requests/${request.id}/respond`, jamesCookie),
      context,
      params: { id: request.id },
    })) as { live: boolean };
    expect(page.live).toBe(true);
    expect(await outcome(() => respondLoader({ request: get("/x", jamesCookie), context, params: { id: "nope" } }))).toMatchObject({
      status: 404,
    });
  });
});

describe("editing and deleting", () => {
  const edited = {
    title: "Now a 5-bed",
    location: "Edmond",
    state: "OK",
    specialty: "Luxury",
    priceRange: "$600k - $800k",
    clientType: "seller",
    description: "Bigger.",
  };

  it("lets the owner edit every field but the type", async () => {
    const request = await insertRequest(context, maria);
    const result = await outcome(() =>
      editAction({ request: post("/x", mariaCookie, { ...edited, requestType: "buyer" }), context, params: { id: request.id } }),
    );
    expect((result as Response).headers.get("Location")).toBe("/referral-requests?tab=mine");
    expect(await noticesAfterRedirect(result, mariaCookie)).toEqual([NOTICES.updated, null]);
    expect(context.services.store.requests.get(request.id)).toMatchObject({ ...edited, requestType: "referral", status: "active" });
    expect(context.services.store.requests.get(request.id)?.updatedAt).toBeDefined();
  });

  it("answers a blank title or description with the product's message and keeps the input", async () => {
    const request = await insertRequest(context, maria);
    const result = (await outcome(() =>
      editAction({ request: post("/x", mariaCookie, { ...edited, title: "" }), context, params: { id: request.id } }),
    )) as Rejection;
    expect(result.init?.status).toBe(400);
    expect(result.data.error?.title).toEqual(["Please fill in all required fields"]);
    expect(result.data.initialValue).toMatchObject({ location: "Edmond" });
    expect(context.services.store.requests.get(request.id)?.title).toBe(request.title);
  });

  it("gives another member 403 on edit and delete, page and POST alike, and changes nothing", async () => {
    const request = await insertRequest(context, maria);
    const params = { id: request.id };
    expect(await outcome(() => editAction({ request: post("/x", jamesCookie, edited), context, params }))).toMatchObject({ status: 403 });
    expect(await outcome(() => deleteAction({ request: post("/x", jamesCookie, {}), context, params }))).toMatchObject({ status: 403 });
    expect(await outcome(() => editLoader({ request: get("/x", jamesCookie), context, params }))).toMatchObject({ status: 403 });
    expect(await outcome(() => deleteLoader({ request: get("/x", jamesCookie), context, params }))).toMatchObject({ status: 403 });
    expect(context.services.store.requests.get(request.id)).toEqual(request);
  });

  it("soft-deletes for the owner: the row stays with status deleted and leaves the lists", async () => {
    const request = await insertRequest(context, maria);
    const result = await outcome(() => deleteAction({ request: post("/x", mariaCookie, {}), context, params: { id: request.id } }));
    expect((result as Response).headers.get("Location")).toBe("/referral-requests?tab=mine");
    expect(await noticesAfterRedirect(result, mariaCookie)).toEqual([NOTICES.deleted, null]);
    expect(context.services.store.requests.get(request.id)).toMatchObject({ status: "deleted", title: request.title });
    const mine = (await listLoader({ request: get("/referral-requests?tab=mine", mariaCookie), context, params: {} })).data as {
      counts: { mine: number };
    };
    expect(mine.counts.mine).toBe(0);
    // Gone for others, still readable by its owner.
    expect(await outcome(() => detailLoader({ request: get("/x", jamesCookie), context, params: { id: request.id } }))).toMatchObject({
      status: 404,
    });
    expect((await detailLoader({ request: get("/x", mariaCookie), context, params: { id: request.id } })).data).toMatchObject({
      live: false,
    });
  });

  it("answers an unknown id with 404", async () => {
    for (const run of [
      () => editLoader({ request: get("/x", mariaCookie), context, params: { id: "nope" } }),
      () => deleteAction({ request: post("/x", mariaCookie, {}), context, params: { id: "nope" } }),
      () => detailLoader({ request: get("/x", mariaCookie), context, params: { id: "nope" } }),
    ]) {
      expect(await outcome(run)).toMatchObject({ status: 404 });
    }
  });
});

describe("the requests page", () => {
  type ListPage = Awaited<ReturnType<typeof listLoader>>["data"];
  const list = async (url: string, cookie = jamesCookie): Promise<ListPage> =>
    (await listLoader({ request: get(url, cookie), context, params: {} })).data;

  it("lists other members' requests under All and the member's own under My Requests, with filters and search", async () => {
    await insertRequest(context, maria, { title: "OKC buyer" });
    await insertRequest(context, maria, {
      title: "Dallas listing",
      requestType: "listing",
      state: "TX",
      location: "Dallas",
      clientType: "",
    });
    await insertRequest(context, james, { title: "Mine" });
    const all = await list("/referral-requests");
    expect(all.counts).toEqual({ all: 2, mine: 1 });
    expect(all.requests.map((r) => r.title).sort()).toEqual(["Dallas listing", "OKC buyer"]);
    expect((await list("/referral-requests?tab=mine")).requests.map((r) => r.title)).toEqual(["Mine"]);
    expect((await list("/referral-requests?type=listing")).requests.map((r) => r.title)).toEqual(["Dallas listing"]);
    expect((await list("/referral-requests?q=dallas")).requests.map((r) => r.title)).toEqual(["Dallas listing"]);
    expect((await list("/referral-requests?state=OK&clientType=buyer")).requests.map((r) => r.title)).toEqual(["OKC buyer"]);
  });

  it("shows every response on the detail page to the owner, and a responder only their own", async () => {
    const request = await insertRequest(context, maria);
    await respondAction({ request: post("/x", jamesCookie, { message: "Happy to help" }), context, params: { id: request.id } });
    const owner = (await detailLoader({ request: get("/x", mariaCookie), context, params: { id: request.id } })).data;
    expect(owner.responses).toMatchObject([{ fromName: "James Whitfield", message: "Happy to help", fromAgentId: "james_example_com" }]);
    const other = (await detailLoader({ request: get("/x", jamesCookie), context, params: { id: request.id } })).data;
    expect(other.responses).toMatchObject([{ fromName: "James Whitfield", message: "Happy to help", canPropose: true }]);
    const third = await insertAgent(context, { fullName: "Olivia Stone", email: "olivia@example.com" });
    const thirdView = (await detailLoader({ request: get("/x", await sessionCookie(context, third)), context, params: { id: request.id } }))
      .data;
    expect(thirdView.responses).toEqual([]);
    expect(other.request).toMatchObject({ agentId: "maria_example_com", isOwn: false, responses: 1 });
    expect(JSON.stringify(other)).not.toContain("maria@example.com");
  });
});

describe("expiry", () => {
  it("stops listing a request past its expiry and marks it expired, keeping the row", async () => {
    const old = await insertRequest(context, maria, { title: "Old one", createdAt: new Date(Date.now() - 31 * DAY).toISOString() });
    await insertRequest(context, maria, { title: "Fresh one" });
    const page = (await listLoader({ request: get("/referral-requests", jamesCookie), context, params: {} })).data as {
      requests: { title: string }[];
    };
    expect(page.requests.map((r) => r.title)).toEqual(["Fresh one"]);
    await expireOverdueRequests(context.services.store, new Date());
    expect(context.services.store.requests.get(old.id)).toMatchObject({ status: "expired", title: "Old one" });
    expect(context.services.store.requests.all()).toHaveLength(2);
  });

  it("is written by the store's refresh job, without any page being loaded", async () => {
    const refreshing = testContext({}, { STORE_REFRESH_SECONDS: "0.05" });
    const { store } = refreshing.services;
    await store.refresh();
    const owner = await insertAgent(refreshing, { email: "owner@example.com" });
    const old = await insertRequest(refreshing, owner, { createdAt: new Date(Date.now() - 40 * DAY).toISOString() });
    const fresh = await insertRequest(refreshing, owner, { title: "Fresh one" });
    startServices(refreshing.services);
    try {
      await expect.poll(() => store.requests.get(old.id)?.status).toBe("expired");
      expect(store.requests.get(fresh.id)?.status).toBe("active");
    } finally {
      await stopServices(refreshing.services);
    }
  });
});
