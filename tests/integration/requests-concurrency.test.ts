/**
 * Writes that arrive together (sixteen members answering at once, a double-clicked
 * Interested) leave the workbook as if they had come one by one.
 */
import type { AppLoadContext } from "@remix-run/node";
import { beforeEach, describe, expect, it } from "vitest";
import { action as markAction } from "../../app/routes/referral-requests.$id.mark";
import { loader as detailLoader } from "../../app/routes/referral-requests.$id._index";
import { action as respondAction } from "../../app/routes/referral-requests.$id.respond";
import type { Agent } from "../../app/domain/workbook/tabs";
import { insertAgent, testContext } from "../support/services";
import { get, insertRequest, outcome, post, sessionCookie } from "./requests-support";

let context: AppLoadContext;
let maria: Agent;
let mariaCookie: string;

beforeEach(async () => {
  context = testContext();
  maria = await insertAgent(context, { fullName: "Maria Delgado", email: "maria@example.com", state: "OK" });
  mariaCookie = await sessionCookie(context, maria);
});

describe("concurrent responses", () => {
  it("counts every one of 16 responses sent at once, on the page and in the Requests row", async () => {
    const request = await insertRequest(context, maria);
    const responders = await Promise.all(
      Array.from({ length: 16 }, (_, i) => insertAgent(context, { fullName: `Agent ${i}`, email: `agent${i}@example.com` })),
    );
    const cookies = await Promise.all(responders.map((agent) => sessionCookie(context, agent)));

    const results = await Promise.all(
      cookies.map((cookie, i) =>
        outcome(() =>
          respondAction({
            request: post(`/referral-requests/${request.id}/respond`, cookie, { message: `Answer ${i}` }),
            context,
            params: { id: request.id },
          }),
        ),
      ),
    );
    expect(results.map((result) => (result as Response).status)).toEqual(Array(16).fill(302));

    expect(context.services.store.responses.by("requestId", request.id)).toHaveLength(16);
    expect(context.services.store.requests.get(request.id)?.responses).toBe(16);
    const page = (
      await detailLoader({
        request: get(`/referral-requests/${request.id}`, mariaCookie),
        context,
        params: { id: request.id },
      })
    ).data as {
      request: { responses: number };
    };
    expect(page.request.responses).toBe(16);
  });
});

describe("concurrent marks", () => {
  it("stores one Interested and one Save row when each is posted twice at once", async () => {
    const james = await insertAgent(context, { fullName: "James Whitfield", email: "james@example.com" });
    const jamesCookie = await sessionCookie(context, james);
    const request = await insertRequest(context, maria);
    const mark = (fields: Record<string, string>) =>
      outcome(() =>
        markAction({ request: post(`/referral-requests/${request.id}/mark`, jamesCookie, fields), context, params: { id: request.id } }),
      );

    await Promise.all([
      mark({ kind: "interested" }),
      mark({ kind: "interested" }),
      mark({ kind: "saved", on: "true" }),
      mark({ kind: "saved", on: "true" }),
    ]);

    const rows = context.services.store.marks.by("agentEmail", "james@example.com");
    expect(rows.map((row) => `${row.kind}:${row.status}`).sort()).toEqual(["interested:active", "saved:active"]);
  });
});
