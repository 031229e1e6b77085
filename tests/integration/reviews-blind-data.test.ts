/**
 * The double-blind rule as a party's browser meets it, on the production build: before
 * publication, nothing a party who has not written is sent may depend on whether, or when,
 * the other party wrote. Each page and data request is fetched before and after the other
 * party's review and must come back the same, byte for byte (docs/decisions/0044).
 */
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { agentIdOf } from "../../app/domain/agent-id";
import type { Agent, Referral } from "../../app/domain/workbook/tabs";
import { readOutbox } from "../../app/server/mail/mailer.server";
import { logIn, postForm, productionEnv, startBuiltServer, type BuiltServer } from "../../scripts/lib/built-server";
import { referralRecord } from "../support/records";
import { insertAgent, testContext } from "../support/services";

const PASSWORD = "correct horse battery";

let server: BuiltServer;
let outbox = "";
let ann: Agent;
let bob: Agent;
let referral: Referral;
const cookies = { ann: "", bob: "" };

beforeAll(async () => {
  const dataDir = mkdtempSync(path.join(tmpdir(), "referral-review-blind-"));
  outbox = path.join(dataDir, "outbox");
  const env = {
    ...productionEnv(dataDir),
    NODE_ENV: "test",
    STORE_REFRESH_SECONDS: "0.2",
  };
  // Ann referred a client to Bob; the fee was received, so each may review the other.
  const context = testContext({}, env);
  await context.services.store.refresh();
  ann = await insertAgent(context, { fullName: "Ann Archer", email: "ann@example.com", password: PASSWORD });
  bob = await insertAgent(context, { fullName: "Bob Brooks", email: "bob@example.com", password: PASSWORD });
  referral = await context.services.store.referrals.insert(referralRecord(ann, bob, { status: "fee_received" }));
  await context.services.store.stop();
  server = await startBuiltServer(["node", "build/server/server.js"], env);
  cookies.ann = await logIn(server.baseUrl, ann.email, PASSWORD);
  cookies.bob = await logIn(server.baseUrl, bob.email, PASSWORD);
}, 180_000);

afterAll(() => {
  server?.child.kill("SIGKILL");
});

const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g;
const ISO_TIME = /\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z/g;

/**
 * An answer with what differs on every request masked: the script nonce, the fresh form
 * keys (random UUIDs) and the clock read while answering (the dashboard's "as of"). The ids
 * the pages name anyway (the referral's, the agents') are kept, and a masked value still
 * shows where it stands, so an extra id, time or field still differs. A time from before
 * the request, such as when the other party wrote, is never masked.
 */
async function fetched(address: string, cookie: string): Promise<string> {
  const asked = Date.now();
  const response = await fetch(`${server.baseUrl}${address}`, { headers: { Cookie: cookie } });
  const body = await response.text();
  const answered = Date.now();
  expect([address, response.status]).toEqual([address, 200]);
  const nonce = /<script nonce="([^"]+)"/.exec(body)?.[1];
  const kept = new Set([referral.id, ann.id, bob.id]);
  const readWhileAnswering = (time: string) => Date.parse(time) >= asked && Date.parse(time) <= answered;
  return (nonce ? body.replaceAll(nonce, "NONCE") : body)
    .replace(UUID, (id) => (kept.has(id) ? id : "FORM-KEY"))
    .replace(ISO_TIME, (time) => (readWhileAnswering(time) ? "NOW" : time));
}

const reviewPath = () => `/referrals/${referral.id}/review`;

/** Every place a party could learn of the other's review from: pages, their data requests, lists and figures. */
function surfaces(): string[] {
  const review = reviewPath();
  const referralPage = `/referrals/${referral.id}`;
  const profile = `/agent/${agentIdOf(bob)}`;
  return [
    review,
    `${review}.data`,
    `${review}?_data=${encodeURIComponent("routes/referrals.$id.review")}`,
    referralPage,
    `${referralPage}.data`,
    "/member-dashboard",
    "/member-dashboard.data",
    "/referrals",
    "/referrals.data",
    `/referrals.csv?year=${new Date(referral.createdAt).getUTCFullYear()}`,
    profile,
    `${profile}.data`,
  ];
}

/** The mails Bob was sent: their subjects and texts. */
async function bobsMails(): Promise<string[]> {
  return (await readOutbox(outbox)).filter((mail) => mail.to === bob.email).map((mail) => `${mail.subject}\n${mail.text}`);
}

/** Waits until `ready` holds, checking every tenth of a second for up to ten seconds. */
async function until(ready: () => Promise<boolean>): Promise<void> {
  for (let tries = 0; tries < 100 && !(await ready()); tries += 1) await new Promise((resolve) => setTimeout(resolve, 100));
}

async function bobSees(): Promise<Record<string, string>> {
  const seen: Record<string, string> = {};
  for (const address of surfaces()) seen[address] = await fetched(address, cookies.bob);
  return seen;
}

/** Ann writes her review through the page's form, as her browser posts it. */
async function annWrites(): Promise<void> {
  const page = await (await fetch(`${server.baseUrl}${reviewPath()}`, { headers: { Cookie: cookies.ann } })).text();
  const idempotencyKey = /name="idempotencyKey" value="([^"]+)"/.exec(page)?.[1] ?? "";
  const body = new URLSearchParams({
    intent: "review",
    idempotencyKey,
    overall: "5",
    communication: "5",
    clientCare: "4",
    feeAsAgreed: "5",
    text: "Ann on Bob: paid the fee on time.",
  });
  const posted = await postForm(server.baseUrl, reviewPath(), cookies.ann, body);
  expect(posted.status).toBe(302);
}

describe("a party who has not written their review", { timeout: 60_000 }, () => {
  it("is sent the same pages and data whether or not the other party wrote theirs", async () => {
    // The ended referral's invitation to review, sent after the server's first refresh.
    await until(async () => (await bobsMails()).length > 0);
    const mailsBefore = await bobsMails();
    expect(mailsBefore).toEqual([expect.stringContaining("Review your referral with Ann Archer")]);
    const before = await bobSees();
    expect(before[`${reviewPath()}.data`]).toContain('"canWrite",true');

    await annWrites();
    // The post answers once the review is stored and in this instance's replica.
    const annData = await fetched(`${reviewPath()}.data`, cookies.ann);
    expect(annData).toContain("Ann on Bob: paid the fee on time.");

    const after = await bobSees();
    expect(after).toEqual(before);
    // Several refreshes later, still no mail of hers.
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    expect(await bobsMails()).toEqual(mailsBefore);
  });
});
