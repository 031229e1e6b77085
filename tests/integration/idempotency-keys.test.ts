/**
 * A write a member was told had failed may be in the sheet anyway (the connection dropped
 * after Google stored it, and the check could not be answered). The form's key makes the
 * member's retry store nothing more and answer as if it had succeeded (docs/decisions/0032).
 * The retry sends the key as the refused page renders it (`retryValue`).
 */
import type { AppLoadContext } from "@remix-run/node";
import { afterEach, describe, expect, it, vi } from "vitest";
import { action as contactAction, loader as contactLoader } from "../../app/routes/contact";
import { action as postAction, loader as postLoader } from "../../app/routes/post-request";
import { action as respondAction, loader as respondLoader } from "../../app/routes/referral-requests.$id.respond";
import { newIdempotencyKey } from "../../app/server/idempotency-keys.server";
import { retryValue } from "../../app/domain/idempotency-key-text";
import { createAgent } from "../../app/server/registration/create-agent.server";
import { sendMessage } from "../../app/server/messages/send.server";
import { createReplica } from "../../app/server/store/replica.server";
import { createSheetsDriver } from "../../app/server/store/sheets-driver.server";
import { newId } from "../../app/server/store/store.server";
import { useFakeSheets } from "../support/fake-sheets";
import { requestForm } from "../support/records";
import { insertAgent, testContext } from "../support/services";
import { get, insertRequest, outcome, post, sessionCookie } from "./requests-support";

const { fake, opened } = useFakeSheets();
afterEach(() => vi.restoreAllMocks());

/** Services on a new workbook of the fake, retrying fast, with Maria's request and James to answer it. */
async function onSheets() {
  const spreadsheetId = `form-keys-${newId()}`;
  const book = fake.spreadsheet(spreadsheetId);
  const store = createReplica(
    createSheetsDriver({
      spreadsheetId,
      credentials: { kind: "fixedToken" },
      apiUrl: fake.url,
      retry: { attempts: 3, baseDelayMs: 1, maxDelayMs: 4 },
    }),
    { refreshSeconds: 60, log: { info: () => undefined, warn: () => undefined, error: () => undefined } },
  );
  opened.push(store);
  await store.refresh();
  const context: AppLoadContext = testContext({ store });
  const maria = await insertAgent(context, { fullName: "Maria Delgado", email: "maria@example.com", state: "OK" });
  const james = await insertAgent(context, { fullName: "James Whitfield", email: "james@example.com" });
  const request = await insertRequest(context, maria);
  return { book, context, request, maria, jamesCookie: await sessionCookie(context, james) };
}

/** The next append is stored but its answer lost, and the check for it cannot be read: the write is reported failed. */
function storedButReportedFailed() {
  vi.spyOn(console, "error").mockImplementation(() => undefined);
  let dropped = false;
  fake.dropNext(1, "after", (call) => call.kind === "spreadsheets.batchUpdate" && (dropped = true));
  fake.failNext(20, 503, (call) => dropped && call.kind === "values.batchGet");
}

const status = (result: unknown) =>
  (result as Response | { init: ResponseInit | null }) instanceof Response
    ? (result as Response).status
    : (result as { init: ResponseInit | null }).init?.status;

describe("a retry after a write reported failed but stored", { timeout: 30_000 }, () => {
  it("stores one response and answers the retry as sent", async () => {
    const { book, context, request, jamesCookie } = await onSheets();
    const page = (await respondLoader({
      request: get(`/referral-requests/${request.id}/respond`, jamesCookie),
      context,
      params: { id: request.id },
    })) as {
      idempotencyKey: string;
    };
    const send = (idempotencyKey: string) =>
      outcome(() =>
        respondAction({
          request: post(`/referral-requests/${request.id}/respond`, jamesCookie, { idempotencyKey, message: "I can help." }),
          context,
          params: { id: request.id },
        }),
      );

    storedButReportedFailed();
    expect(status(await send(page.idempotencyKey))).toBe(503);
    fake.clearFaults();
    expect(book.rows("Responses").slice(1)).toHaveLength(1);

    expect(status(await send(retryValue(page.idempotencyKey)!))).toBe(302);
    expect(book.rows("Responses").slice(1)).toHaveLength(1);
    expect(context.services.store.responses.by("requestId", request.id)).toHaveLength(1);
  });

  it("stores one request and answers the retry as posted", async () => {
    const { book, context, jamesCookie } = await onSheets();
    const page = (await postLoader({ request: get("/post-request?type=referral", jamesCookie), context, params: {} })) as {
      idempotencyKey: string;
    };
    const send = (idempotencyKey: string) =>
      outcome(() =>
        postAction({
          request: post("/post-request?type=referral", jamesCookie, requestForm({ idempotencyKey, title: "Family moving to Tulsa" })),
          context,
          params: {},
        }),
      );
    const posted = () => book.rows("Requests").filter((row) => row.includes("Family moving to Tulsa"));

    storedButReportedFailed();
    expect(status(await send(page.idempotencyKey))).toBe(503);
    fake.clearFaults();
    expect(posted()).toHaveLength(1);

    expect(status(await send(retryValue(page.idempotencyKey)!))).toBe(302);
    expect(posted()).toHaveLength(1);
  });

  it("stores one message when the same message form is sent again", async () => {
    const { book, context, maria } = await onSheets();
    const james = context.services.store.agents.by("email", "james@example.com")[0]!;
    const key = newIdempotencyKey();
    const send = (retry: boolean) =>
      sendMessage(context.services, {
        sender: james,
        recipient: maria,
        conversationId: "conversation-1",
        text: "Are you free Monday?",
        idempotencyKey: { key, retry },
        request: new Request("http://localhost/messages"),
      });

    storedButReportedFailed();
    await expect(send(false)).rejects.toThrow();
    fake.clearFaults();
    expect(book.rows("Messages").slice(1)).toHaveLength(1);

    await send(true);
    expect(book.rows("Messages").slice(1)).toHaveLength(1);

    // A first submission costs no read call: only a retry looks past the replica.
    const reads = () => fake.calls.filter((call) => call.kind === "values.batchGet").length;
    const before = reads();
    await sendMessage(context.services, {
      sender: james,
      recipient: maria,
      conversationId: "conversation-1",
      text: "And Tuesday?",
      idempotencyKey: { key: newIdempotencyKey(), retry: false },
      request: new Request("http://localhost/messages"),
    });
    expect(reads()).toBe(before);
    expect(book.rows("Messages").slice(1)).toHaveLength(2);
  });

  it("stores one support message and answers the retry as sent", async () => {
    const { book, context } = await onSheets();
    const page = (await contactLoader({ request: new Request("http://localhost/contact"), context, params: {} })) as {
      idempotencyKey: string;
    };
    const form = {
      name: "Dana Reyes",
      email: "dana@example.com",
      category: "general",
      subject: "Hello",
      message: "A question.",
    };
    const send = (idempotencyKey: string) =>
      outcome(() =>
        contactAction({
          request: new Request("http://localhost/contact", { method: "POST", body: new URLSearchParams({ ...form, idempotencyKey }) }),
          context,
          params: {},
        }),
      );

    storedButReportedFailed();
    expect(status(await send(page.idempotencyKey))).toBe(503);
    fake.clearFaults();
    expect(book.rows("Contact").slice(1)).toHaveLength(1);

    expect(status(await send(retryValue(page.idempotencyKey)!))).toBe(302);
    expect(book.rows("Contact").slice(1)).toHaveLength(1);
  });

  it("stores one agent when the same registration draft is sent again", async () => {
    const { book, context } = await onSheets();
    const draft = {
      fullName: "Dana Reyes",
      email: "dana@example.com",
      phone: "(214) 555-0100",
      state: "TX" as const,
      city: "Dallas",
      key: newIdempotencyKey(),
    };
    const profile = {
      password: "Correct-Horse-42",
      licenseNumber: "654321",
      licenseState: "TX" as const,
      licenseExpiration: undefined,
      brokerage: "Lone Star Realty",
      brokerLicenseNumber: "9001234",
      brokerEmail: "broker@lonestar.example",
      brokerFrom: "member" as const,
      specialties: ["Residential" as const],
      bio: undefined,
      photoUrl: undefined,
    };
    const register = () => createAgent(context.services, draft, profile);
    const danaRows = () => book.rows("Agents").filter((row) => row.includes("dana@example.com"));

    storedButReportedFailed();
    await expect(register()).rejects.toThrow();
    fake.clearFaults();
    expect(danaRows()).toHaveLength(1);

    const agent = await register();
    expect(agent.id).toBe(draft.key);
    expect(danaRows()).toHaveLength(1);
    // Once the replica has read the row, the same draft is still answered with its agent, not "already registered".
    await context.services.store.refresh();
    expect((await register()).id).toBe(draft.key);
  });
});
