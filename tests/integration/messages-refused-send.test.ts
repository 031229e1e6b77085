/**
 * A message the store refuses is answered as refused through the whole app, not only by
 * the action: the page is rendered after the action, and its loader must not turn the
 * refusal into the redirect that means "stored".
 */
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import { SEND_FAILED } from "../../app/domain/messages";
import type { Agent } from "../../app/domain/workbook/tabs";
import { startFakeSheets, type FakeSheetsServer } from "../../scripts/lib/fake-sheets/server";
import { logIn, postForm, productionEnv, startBuiltServer, type BuiltServer } from "../../scripts/lib/built-server";
import { insertAgent, testContext } from "../support/services";

const PASSWORD = "correct horse battery";
let fake: FakeSheetsServer;
let server: BuiltServer;
let ann: Agent;
let bob: Agent;

beforeAll(async () => {
  fake = await startFakeSheets();
  fake.spreadsheet("refused-send");
  const env = {
    ...productionEnv(mkdtempSync(path.join(tmpdir(), "referral-refused-send-"))),
    // The fake Sheets server needs no credentials, which only a non-production mode allows.
    NODE_ENV: "test",
    GOOGLE_SHEETS_ID: "refused-send",
    GOOGLE_SHEETS_API_URL: fake.url,
  };
  const seed = testContext({}, env);
  await seed.services.store.refresh();
  ann = await insertAgent(seed, { fullName: "Ann Archer", email: "ann@example.com", password: PASSWORD });
  bob = await insertAgent(seed, { fullName: "Bob Brooks", email: "bob@example.com", password: PASSWORD });
  await seed.services.store.stop();
  server = await startBuiltServer(["node", "scripts/start.mjs"], env);
}, 180_000);

afterAll(async () => {
  server?.child.kill("SIGTERM");
  await server?.exited;
  await fake?.close();
});

it("answers a refused message to an agent the member already writes with as refused, never with the conversation's redirect", async () => {
  const cookie = await logIn(server.baseUrl, ann.email, PASSWORD);
  const send = (text: string) => postForm(server.baseUrl, `/messages?to=${bob.id}`, cookie, new URLSearchParams({ intent: "send", text }));

  const first = await send("First message");
  expect(first.status).toBe(302);
  expect(first.headers.get("location")).toMatch(/^\/messages\?conversation=/);

  // Every write refused from now on (a Viewer share: 403, not retried), so the next send fails at once.
  fake.share("refused-send", "reader");
  const refused = await send("Second message, not stored");
  const page = await refused.text();
  expect(refused.status).toBe(503);
  expect(page).toContain(SEND_FAILED);
  expect(page).toContain("Second message, not stored");
  expect(fake.spreadsheet("refused-send").rows("Messages").flat()).not.toContain("Second message, not stored");

  // A message refused before the store is asked (blank) keeps the page too.
  const blank = await send("  ");
  expect(blank.status).toBe(400);
}, 60_000);
