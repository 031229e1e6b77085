/**
 * How many Google Sheets calls the app makes while it serves page views: runs the
 * app's store (services from the real configuration, Sheets driver) on the fake Sheets
 * server, serves page views that read the replica the way loaders do, and counts the
 * calls the fake receives. Reads should stay at the refresh rate whatever the traffic.
 *
 *   npm run bench:sheets                              # 1,000 views a minute for one minute, compressed 6×
 *   npm run bench:sheets -- --views 5000 --compress 1 # five times the traffic, in real time
 *
 *   npm run bench:sheets -- --instances 2 --quota 60 --writes 200 --minutes 5
 *                          # two app instances on one workbook, behind Google's per-user quota
 *
 * Options: --views N (page views per app minute, 1000), --minutes N (app minutes, 1),
 * --refresh S (STORE_REFRESH_SECONDS, 10), --writes N (messages sent per app minute, 0),
 * --instances N (app instances sharing the workbook and the quota, 1), --quota N (the fake
 * answers 429 past N reads and N writes per app minute, as Google does per user; off when 0),
 * --compress K (run K times faster: refresh interval, duration, pacing and the quota window
 * all divided by K; the figures are given per app minute, and per real minute for the record).
 * Send times (p50, p99, max) are real milliseconds.
 */
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { WORKBOOK } from "../app/domain/workbook/tabs";
import { loadConfig } from "../app/server/config.server";
import { createServices } from "../app/server/services.server";
import { newId, type Store } from "../app/server/store/store.server";
import { startFakeSheets, type FakeSheetsServer } from "./lib/fake-sheets/server";

const { values: args } = parseArgs({
  options: {
    views: { type: "string", default: "1000" },
    minutes: { type: "string", default: "1" },
    refresh: { type: "string", default: "10" },
    writes: { type: "string", default: "0" },
    compress: { type: "string", default: "6" },
    instances: { type: "string", default: "1" },
    quota: { type: "string", default: "0" },
  },
});
const instanceCount = Number(args.instances);
const quotaPerMinute = Number(args.quota);
const viewsPerMinute = Number(args.views);
const appMinutes = Number(args.minutes);
const refreshSeconds = Number(args.refresh);
const writesPerMinute = Number(args.writes);
const compress = Number(args.compress);
for (const [name, value] of Object.entries({ viewsPerMinute, appMinutes, refreshSeconds, writesPerMinute, compress, instanceCount, quotaPerMinute })) {
  if (!Number.isFinite(value) || value < 0 || (name !== "writesPerMinute" && name !== "quotaPerMinute" && value === 0)) throw new Error(`Bad option ${name}: ${value}`);
}

const STATES = ["TX", "OK"] as const;
const CITIES = ["Dallas", "Austin", "Houston", "Tulsa", "Oklahoma City", "Norman"];

/** A network of about the demo's size: agents, open requests, conversations. */
async function seed(store: Store): Promise<void> {
  const createdAt = new Date().toISOString();
  // All at once: appends to a tab arriving together go in one call.
  const seeded: Promise<unknown>[] = [];
  for (let i = 0; i < 60; i += 1) {
    seeded.push(store.agents.insert({
      id: newId(),
      fullName: `Agent ${i}`,
      email: `agent${i}@example.com`,
      phone: "",
      state: STATES[i % 2]!,
      city: CITIES[i % CITIES.length]!,
      zipCode: "",
      licenseNumber: String(100000 + i),
      licenseState: STATES[i % 2]!,
      licenseExpiration: "",
      brokerage: "Bench Realty",
      brokerEmail: "",
      specialties: ["Residential", i % 3 === 0 ? "Luxury" : "Land"],
      bio: "",
      photoUrl: "",
      membershipType: i < 40 ? "founder" : "member",
      vipCode: "",
      status: i % 10 === 0 ? "pending" : "approved",
      statusNote: "",
      passwordHash: "",
      createdAt,
    }));
  }
  for (let i = 0; i < 30; i += 1) {
    seeded.push(store.requests.insert({
      id: newId(),
      requestType: (["referral", "listing", "buyer"] as const)[i % 3]!,
      title: `Request ${i}`,
      location: CITIES[i % CITIES.length]!,
      state: STATES[i % 2]!,
      specialty: "Residential",
      priceRange: "$200k - $400k",
      clientType: "",
      timeline: "1month",
      contactPreference: "email",
      listingAddress: "",
      listingMLS: "",
      description: "",
      urgent: i % 5 === 0,
      agentEmail: `agent${i}@example.com`,
      agentName: `Agent ${i}`,
      status: "active",
      responses: 0,
      createdAt,
    }));
  }
  await Promise.all(seeded);
  await Promise.all(Array.from({ length: 200 }, (_, i) => sendMessage(store, i)));
}

function sendMessage(store: Store, i: number) {
  return store.messages.insert({
    id: newId(),
    conversationId: `conversation-${i % 20}`,
    fromEmail: `agent${i % 60}@example.com`,
    toEmail: `agent${(i + 1) % 60}@example.com`,
    text: `Message ${i}`,
    createdAt: new Date().toISOString(),
  });
}

/** One page view: what the directory, dashboard, messages and landing loaders read. */
function pageView(store: Store, n: number): number {
  switch (n % 4) {
    case 0:
      return store.agents.by("status", "approved").filter((agent) => agent.state === STATES[n % 2]).length;
    case 1:
      return store.requests.by("status", "active").length + store.responses.by("toEmail", `agent${n % 60}@example.com`).length;
    case 2:
      return store.messages.by("conversationId", `conversation-${n % 20}`).length;
    default:
      return store.agents.all().filter((agent) => agent.membershipType === "founder").length;
  }
}

const sleep = (milliseconds: number) => new Promise((resolve) => setTimeout(resolve, milliseconds));

/** Refresh reads are the batch reads of every tab; everything else is made by the messages sent (a header read, then the append). */
function countCalls(fake: FakeSheetsServer, from: number, tabCount: number) {
  const calls = fake.calls.slice(from);
  const refresh = calls.filter((call) => call.kind === "values.batchGet" && call.ranges >= tabCount).length;
  return { refresh, byWrites: calls.length - refresh, total: calls.length };
}

async function main() {
  const fake = await startFakeSheets();
  fake.spreadsheet("bench");
  const config = loadConfig({
    NODE_ENV: "test",
    DATA_DIR: mkdtempSync(path.join(tmpdir(), "bench-sheets-")),
    GOOGLE_SHEETS_ID: "bench",
    GOOGLE_SHEETS_API_URL: fake.url,
    STORE_REFRESH_SECONDS: String(refreshSeconds / compress),
  });
  const stores = Array.from({ length: instanceCount }, () => createServices(config).store);
  const [store] = stores as [Store, ...Store[]];
  for (const instance of stores) await instance.refresh();
  await seed(store);
  // The quota starts once the workbook is seeded, as on a site that has been running.
  if (quotaPerMinute > 0) fake.setQuota({ readsPerWindow: quotaPerMinute, writesPerWindow: quotaPerMinute, windowMs: 60_000 / compress });
  for (const instance of stores) instance.start();

  const realMs = (appMinutes * 60_000) / compress;
  const totalViews = Math.round(viewsPerMinute * appMinutes);
  const totalWrites = Math.round(writesPerMinute * appMinutes);
  console.log(`Fake Sheets at ${fake.url}; store driver: ${store.driver}; ${instanceCount} instance(s)` + (quotaPerMinute > 0 ? `; quota ${quotaPerMinute} reads + ${quotaPerMinute} writes per app minute` : ""));
  console.log(
    `Serving ${totalViews} page views and ${totalWrites} messages over ${appMinutes} app minute(s), refresh every ${refreshSeconds} s` +
      (compress === 1 ? "" : ` (compressed ${compress}×: ${(realMs / 1000).toFixed(1)} s real, refresh every ${(refreshSeconds / compress).toFixed(2)} s real)`),
  );

  const firstCall = fake.calls.length;
  const started = performance.now();
  let served = 0;
  let written = 0;
  let failedWrites = 0;
  const sendTimes: number[] = [];
  const pendingWrites: Promise<unknown>[] = [];
  const timedSend = async (instance: Store, i: number) => {
    const sendStarted = performance.now();
    try {
      await sendMessage(instance, i);
      sendTimes.push(performance.now() - sendStarted);
    } catch {
      failedWrites += 1;
    }
  };
  // Paced in 10 ms ticks: each tick serves the views and writes due by then, spread over the instances.
  while (served < totalViews || written < totalWrites) {
    const elapsed = performance.now() - started;
    const share = Math.min(1, elapsed / realMs);
    for (; served < Math.floor(totalViews * share); served += 1) pageView(stores[served % instanceCount]!, served);
    for (; written < Math.floor(totalWrites * share); written += 1) pendingWrites.push(timedSend(stores[written % instanceCount]!, 1000 + written));
    if (share >= 1) break;
    await sleep(10);
  }
  await Promise.all(pendingWrites);
  const elapsedMs = performance.now() - started;
  const calls = countCalls(fake, firstCall, Object.keys(WORKBOOK).length);
  const rejected = fake.quotaRefusals();
  for (const instance of stores) await instance.stop();
  await fake.close();

  sendTimes.sort((a, b) => a - b);
  const percentile = (p: number) => (sendTimes.length === 0 ? 0 : sendTimes[Math.min(sendTimes.length - 1, Math.floor((p / 100) * sendTimes.length))]!);
  console.log(
    `Send times (real ms): p50 ${percentile(50).toFixed(0)}, p99 ${percentile(99).toFixed(0)}, max ${(sendTimes.at(-1) ?? 0).toFixed(0)}; ` +
      `429 answers from the quota: ${rejected}`,
  );
  const appMinutesRun = (elapsedMs * compress) / 60_000;
  const realMinutesRun = elapsedMs / 60_000;
  const perAppMinute = (count: number) => (count / appMinutesRun).toFixed(1);
  console.log(`Served ${served} page views (${(served / appMinutesRun).toFixed(0)} per app minute); sent ${written - failedWrites} messages, ${failedWrites} failed`);
  console.log(`Sheets calls: ${calls.total} (${calls.refresh} refresh reads, ${calls.byWrites} made by the ${written} messages sent)`);
  console.log(
    `Sheets calls per app minute: ${perAppMinute(calls.total)} — refresh reads ${perAppMinute(calls.refresh)} for a refresh rate of ${(60 / refreshSeconds).toFixed(1)} per minute; ` +
      `made by messages ${perAppMinute(calls.byWrites)}`,
  );
  if (compress !== 1) {
    console.log(`(per real minute: ${(calls.total / realMinutesRun).toFixed(1)} calls for a real refresh rate of ${((60 * compress) / refreshSeconds).toFixed(1)} per minute)`);
  }
  console.log(`Without the replica, one read per page view would be ${viewsPerMinute} read calls per minute, over the 300-a-minute project quota.`);
}

await main();
