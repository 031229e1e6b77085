import type { AppLoadContext } from "@remix-run/node";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { action as markAction } from "../../app/routes/referral-requests.$id.mark";
import { StoreWriteError } from "../../app/server/store/store.server";
import { insertRequest, outcome, post, sessionCookie } from "../integration/requests-support";
import { insertAgent, testContext } from "../support/services";

/** The store as it is when the spreadsheet refuses every write to the Marks tab. */
function refusingMarks(context: AppLoadContext): AppLoadContext {
  const { store } = context.services;
  const refuse = async (): Promise<never> => {
    throw new StoreWriteError("Marks", { cause: new Error("quota exceeded") });
  };
  const marks = { ...store.marks, insert: refuse, update: refuse };
  return { ...context, services: { ...context.services, store: { ...store, marks } } };
}

describe("the mark action when the store refuses the write", () => {
  // The refusal is logged for the operator; the test keeps the output quiet.
  beforeEach(() => {
    vi.spyOn(console, "error").mockImplementation(() => undefined);
  });
  afterEach(() => {
    vi.restoreAllMocks();
  });

  async function setUp() {
    const context = testContext();
    const poster = await insertAgent(context);
    const member = await insertAgent(context);
    const request = await insertRequest(context, poster);
    return { context: refusingMarks(context), cookie: await sessionCookie(context, member), id: request.id };
  }

  it("answers the page's script with a message and 503, not 500", async () => {
    const { context, cookie, id } = await setUp();
    const answer = (await outcome(() =>
      markAction({ request: post(`/referral-requests/${id}/mark`, cookie, { kind: "saved", on: "true" }), context, params: { id } }),
    )) as Response;
    expect(answer.status).toBe(503);
    expect(await answer.json()).toEqual({ error: "Your choice could not be saved just now. Please try again in a moment." });
  });

  it("answers a plain form with a readable page and 503", async () => {
    const { context, cookie, id } = await setUp();
    const fields = { kind: "interested", redirectTo: "/member-dashboard" };
    const answer = (await outcome(() =>
      markAction({ request: post(`/referral-requests/${id}/mark`, cookie, fields), context, params: { id } }),
    )) as Response;
    expect(answer.status).toBe(503);
    expect(answer.headers.get("Content-Type")).toContain("text/html");
    const page = await answer.text();
    expect(page).toContain("Your choice could not be saved just now. Please try again in a moment.");
    expect(page).toContain('href="/member-dashboard"');
  });
});
