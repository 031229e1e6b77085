import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import Database from "better-sqlite3";
import type { AppLoadContext } from "@remix-run/node";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { conversationIdFor } from "../../app/domain/conversation";
import { DEMO_EMAIL_DOMAIN } from "../../scripts/lib/demo-network";
import { SPECIALTIES } from "../../app/domain/enums";
import { SERVICE_RADII } from "../../app/domain/places/service-radius";
import { agreementText } from "../../app/domain/referrals/agreement-text";
import { referralFeeCents } from "../../app/domain/referrals/money";
import {
  checkStep,
  OPEN_PIPELINE_STATUSES,
  REFERRAL_STATUSES,
  type PipelineStep,
  type ReferralStatus,
} from "../../app/domain/referrals/status";
import type { Agent, Referral } from "../../app/domain/workbook/tabs";
import { loader as dashboardLoader } from "../../app/routes/member-dashboard";
import { loader as referralLoader } from "../../app/routes/referrals.$id._index/route";
import { loader as agreementLoader } from "../../app/routes/referrals.$id.agreement";
import { loader as pdfLoader } from "../../app/routes/referrals.$id.agreement[.]pdf";
import { loader as listLoader } from "../../app/routes/referrals._index";
import { loader as reviewLoader } from "../../app/routes/referrals.$id.review";
import { loader as editProfileLoader } from "../../app/routes/edit-profile";
import { loader as inviteLoader } from "../../app/routes/invite";
import { loader as requestPageLoader } from "../../app/routes/referral-requests.$id._index";
import { hashPassword, verifyPassword } from "../../app/server/auth/password.server";
import { loadConfig } from "../../app/server/config.server";
import { findPlace } from "../../app/server/places/places.server";
import { listConversations } from "../../app/server/messages/conversations.server";
import { agreementHash } from "../../app/server/referrals/agreement-text.server";
import { brokerStanding, hasSigned, isInForce } from "../../app/domain/referrals/broker-signoff";
import { isReviewable, reviewStanding } from "../../app/domain/reviews";
import { profileReviews, reviewsToWrite } from "../../app/server/reviews/reviews.server";
import { isPastDeadline } from "../../app/domain/invitations";
import { bestFitSection } from "../../app/server/invitations/best-fit-section.server";
import { invitationsToAnswer } from "../../app/server/invitations/invitations.server";
import { createReplicaServices, createServices, stopServices } from "../../app/server/service-lifecycle.server";
import { createStoreFromConfig, type Store } from "../../app/server/store/store.server";
import { createPush } from "../../app/server/push/push.server";
import { createWriteQueues } from "../../app/server/store/write-queues.server";
import { startFakeSheets } from "../../scripts/lib/fake-sheets/server";
import { openSheetsStore } from "../support/fake-sheets";
import { pdfText } from "../support/pdf-text";
import { seedDemo, type SeedOptions } from "../../scripts/lib/seed-demo";
import { usePostgres } from "../support/postgres";
import { agentRecord } from "../support/records";
import { testConfig } from "../support/services";
import { runStoreCommand } from "../support/store-command";
import { get, sessionCookie } from "./requests-support";

const NOW = new Date("2025-03-14T15:00:00.000Z");
const postgres = usePostgres();
const PASSWORD = "demo-test-pass-4821";
const CONFIG = testConfig();

const opened: Store[] = [];
afterEach(async () => {
  await Promise.all(opened.splice(0).map((store) => store.stop()));
});

function tempDataDir(): string {
  return mkdtempSync(path.join(tmpdir(), "seed-demo-test-"));
}

/** The SQLite store in `dataDir`, read; the caller stops it. */
async function loadStore(dataDir = tempDataDir()): Promise<{ store: Store; dataDir: string }> {
  const store = createStoreFromConfig(loadConfig({ NODE_ENV: "test", DATA_DIR: dataDir }));
  await store.refresh();
  return { store, dataDir };
}

/** The SQLite store in `dataDir`, read, and stopped after the test. */
async function openStore(dataDir = tempDataDir()): Promise<{ store: Store; dataDir: string }> {
  const loaded = await loadStore(dataDir);
  opened.push(loaded.store);
  return loaded;
}

function options(overrides: Partial<SeedOptions> = {}): SeedOptions {
  return { now: NOW, newPassword: () => PASSWORD, hashPassword: (plain) => hashPassword(CONFIG, plain), ...overrides };
}

/** Every cell of every table in the SQLite file, as a person with the sqlite3 shell would see them. */
function allCells(dataDir: string): Record<string, Record<string, unknown>[]> {
  const db = new Database(path.join(dataDir, "store.sqlite"), { readonly: true });
  try {
    const tables = db.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").all() as { name: string }[];
    return Object.fromEntries(
      tables.map(({ name }) => [name, db.prepare(`SELECT * FROM "${name}" ORDER BY rowid`).all() as Record<string, unknown>[]]),
    );
  } finally {
    db.close();
  }
}

describe("seedDemo", { timeout: 30_000 }, () => {
  it("fills an empty store with a demo network that covers every part of the app", async () => {
    const { store, dataDir } = await openStore();
    const outcome = await seedDemo(store, options());
    expect(outcome).toMatchObject({ status: "seeded", loginEmail: `maria.delgado@${DEMO_EMAIL_DOMAIN}`, password: PASSWORD });

    // Read back by a fresh replica: every row the seed wrote is valid.
    const { store: reread } = await openStore(dataDir);
    expect(reread.health().invalidRows).toEqual([]);
    const agents = reread.agents.all();
    const approved = reread.agents.by("status", "approved");
    expect(approved).toHaveLength(42);
    expect(reread.agents.by("status", "pending").length).toBeGreaterThanOrEqual(3);
    expect(new Set(approved.flatMap((agent) => agent.specialties))).toEqual(new Set(SPECIALTIES));
    expect(new Set(approved.map((agent) => agent.state))).toEqual(new Set(["TX", "OK"]));
    for (const city of [
      "Houston",
      "Dallas",
      "Austin",
      "San Antonio",
      "Fort Worth",
      "El Paso",
      "Lubbock",
      "Amarillo",
      "Tyler",
      "Waco",
      "McKinney",
      "Frisco",
      "Oklahoma City",
      "Tulsa",
      "Norman",
      "Edmond",
      "Broken Arrow",
      "Lawton",
      "Stillwater",
      "Enid",
    ]) {
      expect(
        approved.some((agent) => agent.city === city),
        city,
      ).toBe(true);
    }
    const memberships = new Set(approved.map((agent) => agent.membershipType));
    expect(memberships).toEqual(new Set(["founder", "vip", "member"]));

    // Places served from the place list, in both states, with radii of every size; a few agents list none.
    const serving = approved.filter((agent) => agent.placesServed.length > 0);
    expect(serving.length).toBeGreaterThanOrEqual(30);
    expect(serving.length).toBeLessThan(approved.length);
    for (const label of serving.flatMap((agent) => agent.placesServed)) expect(findPlace(label), label).toBeDefined();
    expect(new Set(serving.flatMap((agent) => agent.placesServed.map((label) => label.slice(-2))))).toEqual(new Set(["TX", "OK"]));
    expect(new Set(serving.map((agent) => agent.serviceRadius))).toEqual(new Set(SERVICE_RADII));

    // Fictional contact details only, each agent its own.
    expect(new Set(agents.map((agent) => agent.email)).size).toBe(agents.length);
    expect(new Set(agents.map((agent) => agent.phone)).size).toBe(agents.length);
    for (const agent of agents) {
      expect(agent.email.endsWith(`@${DEMO_EMAIL_DOMAIN}`)).toBe(true);
      expect(agent.phone).toMatch(/^\(\d{3}\) 555-01\d\d$/);
      expect(agent.fullName && agent.brokerage && agent.bio && agent.licenseNumber && agent.zipCode).toBeTruthy();
      expect(agent.bio.length).toBeLessThanOrEqual(600);
    }

    // Requests of every type, with the fields each type needs.
    const active = reread.requests.by("status", "active");
    expect(new Set(active.map((request) => request.requestType))).toEqual(new Set(["referral", "listing", "buyer"]));
    for (const request of active) {
      expect(
        request.title &&
          request.location &&
          request.specialty &&
          request.priceRange &&
          request.timeline &&
          request.contactPreference &&
          request.description,
      ).toBeTruthy();
      expect(Date.parse(request.createdAt)).toBeLessThanOrEqual(NOW.getTime());
      expect(Date.parse(request.expiresAt ?? "")).toBeGreaterThan(NOW.getTime());
      if (request.requestType === "listing") expect(request.listingAddress && request.listingMLS).toBeTruthy();
      if (request.requestType === "referral") expect(["buyer", "seller"]).toContain(request.clientType);
      const owner = reread.agents.by("email", request.agentEmail)[0];
      expect(owner?.status).toBe("approved");
      expect(request.agentName).toBe(owner?.fullName);
    }

    // Responses match their request's count and go to its owner, from someone else.
    const responses = reread.responses.all();
    expect(responses.length).toBeGreaterThanOrEqual(3);
    for (const request of reread.requests.all()) {
      expect(request.responses).toBe(reread.responses.by("requestId", request.id).length);
    }
    for (const response of responses) {
      const request = reread.requests.get(response.requestId);
      expect(response.toEmail).toBe(request?.agentEmail);
      expect(response.fromEmail).not.toBe(request?.agentEmail);
      expect(Date.parse(response.createdAt)).toBeGreaterThan(Date.parse(request?.createdAt ?? ""));
    }

    // Conversations are keyed by the two agents' ids, and the demo login has some.
    const messages = reread.messages.all();
    for (const message of messages) {
      const [from] = reread.agents.by("email", message.fromEmail);
      const [to] = reread.agents.by("email", message.toEmail);
      expect(message.conversationId).toBe(conversationIdFor(from!.id, to!.id));
    }
    const conversations = new Set(messages.map((message) => message.conversationId));
    expect(conversations.size).toBeGreaterThanOrEqual(3);
    const login = reread.agents.by("email", outcome.status === "seeded" ? outcome.loginEmail : "")[0]!;
    expect(login.status).toBe("approved");
    // The messaging pages show the login's conversations, one with an unread reply.
    const inbox = await listConversations(createReplicaServices(reread), login);
    expect(inbox).toHaveLength(3);
    expect(inbox.map((conversation) => conversation.unread)).toEqual([1, 0, 0]);
    expect(inbox[0]?.partner.fullName).toBe("Sarah Whitlock");
    expect(reread.requests.by("agentEmail", login.email).length).toBeGreaterThan(0);
    expect(await verifyPassword(PASSWORD, login.passwordHash)).toBe(true);

    // The password is kept only as a hash.
    const cells = JSON.stringify(allCells(dataDir));
    expect(cells).not.toContain(PASSWORD);
    // Every address anywhere in the demo is on the reserved .example domain: no mail can reach a real person.
    const addresses = cells.match(/[\w.+-]+@[\w.-]+/g) ?? [];
    expect(addresses.length).toBeGreaterThan(0);
    expect(addresses.filter((address) => !address.endsWith(".example"))).toEqual([]);
  });

  it("changes nothing when run again, and says so", async () => {
    const { store, dataDir } = await openStore();
    await seedDemo(store, options());
    const before = allCells(dataDir);
    expect(before.Referrals!.length).toBeGreaterThan(0);
    expect(before.ReferralEvents!.length).toBeGreaterThan(0);
    const again = await seedDemo(store, options({ now: new Date(NOW.getTime() + 86_400_000), newPassword: () => "another-password" }));
    expect(again).toEqual({ status: "unchanged", loginEmail: `maria.delgado@${DEMO_EMAIL_DOMAIN}` });
    expect(allCells(dataDir)).toEqual(before);
  });

  it("fills a store whose high-volume tabs are in PostgreSQL, and changes nothing when run again", async () => {
    const databaseUrl = await postgres.server().createDatabase();
    const config = loadConfig({ NODE_ENV: "test", DATA_DIR: tempDataDir(), DATABASE_URL: databaseUrl });
    const store = createStoreFromConfig(config);
    opened.push(store);
    const first = await seedDemo(store, options());
    expect(first.status).toBe("seeded");
    const stored = (await store.messages.readStored()).length;
    expect(first.status === "seeded" && first.added.messages).toBe(stored);
    expect(stored).toBeGreaterThan(0);
    expect(await seedDemo(store, options())).toEqual({ status: "unchanged", loginEmail: `maria.delgado@${DEMO_EMAIL_DOMAIN}` });
  });

  it("gives the same records for the same time", async () => {
    const first = await openStore();
    const second = await openStore();
    await seedDemo(first.store, options());
    await seedDemo(second.store, options());
    // Each store hashed the password with its own salt; everything else is the same.
    const withoutHashes = (dataDir: string) => allCells(dataDir).Agents!.map(({ passwordHash: _hash, ...agent }) => agent);
    expect(withoutHashes(first.dataDir)).toEqual(withoutHashes(second.dataDir));
    expect(allCells(first.dataDir).Messages).toEqual(allCells(second.dataDir).Messages);
    expect(allCells(first.dataDir).Requests).toEqual(allCells(second.dataDir).Requests);
    expect(allCells(first.dataDir).Referrals).toEqual(allCells(second.dataDir).Referrals);
    expect(allCells(first.dataDir).ReferralEvents).toEqual(allCells(second.dataDir).ReferralEvents);
  });

  it("refuses a store that holds anything but the demo, and writes nothing", async () => {
    const { store, dataDir } = await openStore();
    await store.agents.insert(agentRecord({ fullName: "Real Agent" }));
    const before = allCells(dataDir);
    const outcome = await seedDemo(store, options());
    expect(outcome.status).toBe("refused");
    expect(outcome.status === "refused" && outcome.reason).toMatch(
      /^The store already holds 1 agent and 0 requests and is not the demo network/,
    );
    expect(allCells(dataDir)).toEqual(before);
  });

  it("completes a seed that stopped part way, reusing the password already set", async () => {
    const { store, dataDir } = await openStore();
    let writes = 0;
    const insert = store.agents.insert.bind(store.agents);
    const refusing = vi.spyOn(store.agents, "insert").mockImplementation((record) => {
      writes += 1;
      return writes > 10 ? Promise.reject(new Error("quota exceeded")) : insert(record);
    });
    await expect(seedDemo(store, options())).rejects.toThrow("quota exceeded");
    expect(store.agents.all()).toHaveLength(10);
    refusing.mockRestore();

    const outcome = await seedDemo(store, options({ newPassword: () => "must-not-be-used" }));
    expect(outcome).toMatchObject({
      status: "completed",
      added: { agents: 39, requests: 33, referrals: 16, invitations: 7, outreach: 7, suppressions: 2 },
      password: undefined,
    });
    const { store: reread } = await openStore(dataDir);
    expect(reread.agents.all()).toHaveLength(49);
    const hashes = new Set(reread.agents.all().map((agent) => agent.passwordHash));
    expect(hashes.size).toBe(1);
    expect(await verifyPassword(PASSWORD, [...hashes][0]!)).toBe(true);
    expect(await seedDemo(reread, options())).toMatchObject({ status: "unchanged" });
  });
});

const REFERRALS_NOW = new Date("2026-11-23T12:00:00.000Z");
const LOGIN_EMAIL = `maria.delgado@${DEMO_EMAIL_DOMAIN}`;
const UNSIGNED: readonly ReferralStatus[] = ["proposed", "declined", "withdrawn"];
const CLOSED: readonly ReferralStatus[] = ["closed", "fee_paid", "fee_received"];

function isParty(referral: Referral, email: string): boolean {
  return referral.referringEmail === email || referral.receivingEmail === email;
}

/** The status a referral's timeline leads to, each step checked as the app checks it: from the right status, by the right party. */
function replayedStatus(referral: Referral, steps: readonly { step: string; byEmail: string }[]): ReferralStatus {
  let status: ReferralStatus = "proposed";
  for (const { step, byEmail } of steps) {
    if (step === "proposed" || step === "accepted" || step.startsWith("broker-")) continue;
    if (step === "cda") {
      // A commission disbursement authorization changes no status: it is sent from under contract until the fee is paid.
      expect(["under_contract", "closed"]).toContain(status);
      continue;
    }
    if (step === "signed" || step === "declined" || step === "withdrawn") {
      expect(status).toBe("proposed");
    } else if (step === "expired") {
      expect(OPEN_PIPELINE_STATUSES).toContain(status);
    } else {
      const party = byEmail === referral.referringEmail ? "referring" : "receiving";
      expect(checkStep(status, step as PipelineStep, party), `${step} from ${status}`).toEqual({ ok: true });
    }
    status = step as ReferralStatus;
  }
  return status;
}

describe("the demo's referrals", { timeout: 30_000 }, () => {
  // One seeded store read by every test here: a seed costs seconds, and these tests only read
  // (the loaders' own services open the same file).
  let seeded: { store: Store; dataDir: string };
  beforeAll(async () => {
    seeded = await loadStore();
    await seedDemo(seeded.store, options({ now: REFERRALS_NOW }));
  });
  afterAll(async () => {
    await seeded.store.stop();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it("are agreements the app itself would have made, in every status, each of them for the demo login", async () => {
    const { store } = seeded;
    const referrals = store.referrals.all();
    expect(new Set(referrals.map((referral) => referral.status))).toEqual(new Set(REFERRAL_STATUSES));
    const logins = referrals.filter((referral) => isParty(referral, LOGIN_EMAIL));
    expect(new Set(logins.map((referral) => referral.status))).toEqual(new Set(REFERRAL_STATUSES));
    expect(logins.some((referral) => referral.referringEmail === LOGIN_EMAIL)).toBe(true);
    expect(logins.some((referral) => referral.receivingEmail === LOGIN_EMAIL)).toBe(true);

    for (const referral of referrals) {
      const at = `${referral.referringName} to ${referral.receivingName}, ${referral.status}`;
      // Proposed on a stored response, between the request's poster and the agent who responded.
      const request = store.requests.get(referral.requestId)!;
      const response = store.responses.get(referral.responseId ?? "")!;
      expect(response.requestId, at).toBe(request.id);
      expect(new Set([referral.referringEmail, referral.receivingEmail]), at).toEqual(new Set([request.agentEmail, response.fromEmail]));
      expect(isParty(referral, referral.proposedByEmail), at).toBe(true);

      // The parties and their brokers as their profiles have them.
      const referring = store.agents.by("email", referral.referringEmail)[0]!;
      const receiving = store.agents.by("email", referral.receivingEmail)[0]!;
      expect([referral.referringName, referral.receivingName]).toEqual([referring.fullName, receiving.fullName]);
      expect([referral.referringBrokerage, referral.referringBrokerLicense]).toEqual([referring.brokerage, referring.brokerLicenseNumber]);
      expect([referral.receivingBrokerage, referral.receivingBrokerLicense]).toEqual([receiving.brokerage, receiving.brokerLicenseNumber]);
      expect(agreementText(referral)).not.toContain("(not given)");

      // Both signatures and both brokers' sign-offs cover the agreement's text, as soon as it is signed (in force).
      expect(referral.agreementHash, at).toBe(agreementHash(referral));
      const signed = !UNSIGNED.includes(referral.status);
      expect(hasSigned(referral, "referring") && hasSigned(referral, "receiving"), at).toBe(signed);
      const signoffs = store.brokerSignoffs.by("referralId", referral.id);
      expect(
        signoffs.every((row) => row.agreementHash === referral.agreementHash),
        at,
      ).toBe(true);
      if (signed) expect(isInForce(referral, signoffs, new Date(referral.signedAt!)), at).toBe(true);
      expect(referral.signedAt !== undefined && referral.termEndsAt !== undefined, at).toBe(signed);

      // The fee from the sale: the share of the gross commission, or the flat amount.
      expect(referral.grossCommission !== undefined, at).toBe(CLOSED.includes(referral.status));
      if (referral.grossCommission !== undefined) {
        const fee = referral.feeType === "flat" ? { feeFlat: referral.feeFlat } : { feePercent: referral.feePercent };
        expect(referral.feeAmount, at).toBe(referralFeeCents(fee, referral.grossCommission));
        expect(referral.salePrice! > referral.grossCommission * 20, at).toBe(true);
      }

      // A timeline the app would accept, after the response and the parties joined, and before now.
      const events = [...store.referralEvents.by("referralId", referral.id)].sort((a, b) => a.createdAt.localeCompare(b.createdAt));
      expect(replayedStatus(referral, events), at).toBe(referral.status);
      const joined = Math.max(Date.parse(referring.createdAt), Date.parse(receiving.createdAt));
      const times = [joined, ...[response.createdAt, referral.createdAt, ...events.map((event) => event.createdAt)].map(Date.parse)];
      expect(times, at).toEqual([...times].sort((a, b) => a - b));
      const latest = Date.parse(events.at(-1)!.createdAt);
      expect(latest, at).toBeLessThanOrEqual(REFERRALS_NOW.getTime());
      expect(Date.parse(referral.updatedAt ?? referral.createdAt), at).toBe(latest);
      // The app's next pass expires none of them, and the one it expired had its term end.
      if (OPEN_PIPELINE_STATUSES.includes(referral.status)) expect(Date.parse(referral.termEndsAt!), at).toBeGreaterThan(latest);
      if (referral.status === "expired") expect(Date.parse(referral.termEndsAt!), at).toBeLessThan(latest);
      if (referral.status === "under_contract")
        expect(Date.parse(referral.expectedCloseDate!), at).toBeGreaterThan(REFERRALS_NOW.getTime());
    }
    // Brokers signed off every way: attested, approved through the link, and one link still waiting.
    const standings = referrals.flatMap((referral) =>
      (["referring", "receiving"] as const).map((side) =>
        brokerStanding(referral, store.brokerSignoffs.by("referralId", referral.id), side, REFERRALS_NOW),
      ),
    );
    expect(standings.some((standing) => standing.state === "attested")).toBe(true);
    expect(standings.some((standing) => standing.state === "approved")).toBe(true);
    expect(standings.some((standing) => standing.state === "requested" && !standing.expired)).toBe(true);
  });

  it("show on /referrals, the dashboard, each referral's page, the printable agreement and the PDF for the demo login", async () => {
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(REFERRALS_NOW);
    const { dataDir } = seeded;
    const services = createServices(loadConfig({ NODE_ENV: "test", DATA_DIR: dataDir }));
    try {
      await services.store.refresh();
      const context: AppLoadContext = { services, nonce: "test-nonce" };
      const login: Agent = services.store.agents.by("email", LOGIN_EMAIL)[0]!;
      const cookie = await sessionCookie(context, login);
      const args = (url: string, params: Record<string, string> = {}) => ({ request: get(url, cookie), context, params });

      const list = (await listLoader(args("/referrals"))) as Awaited<ReturnType<typeof listLoader>>;
      const mine = services.store.referrals.all().filter((referral) => isParty(referral, LOGIN_EMAIL));
      expect(list.total).toBe(mine.length);
      expect(list.totals.expected.cents).toBeGreaterThan(0);
      expect(list.totals.receivedThisYear.cents).toBeGreaterThan(0);
      const dashboard = (await dashboardLoader(args("/member-dashboard"))) as Awaited<ReturnType<typeof dashboardLoader>>;
      expect(dashboard.referrals.total).toBe(mine.length);
      expect(dashboard.referrals.open.length).toBeGreaterThan(0);

      for (const row of list.referrals) {
        const referral = services.store.referrals.get(row.id)!;
        const page = (await referralLoader(args(`/referrals/${row.id}`, { id: row.id }))) as Awaited<ReturnType<typeof referralLoader>>;
        const signed = !UNSIGNED.includes(referral.status);
        expect(
          page.referral.acceptances.map((acceptance) => acceptance.signed),
          row.status,
        ).toEqual(signed ? [true, true] : [hasSigned(referral, "referring"), hasSigned(referral, "receiving")]);
        expect(page.referral.timeline.length).toBeGreaterThan(0);
        // The text shown is the one signed, or, while the login can still sign, the one their signature would cover.
        expect(page.referral.hash).toBe(referral.agreementHash);
        const agreement = (await agreementLoader(args(`/referrals/${row.id}/agreement`, { id: row.id }))) as Awaited<
          ReturnType<typeof agreementLoader>
        >;
        expect(agreement.text).toBe(page.referral.text);
        const pdf = (await pdfLoader(args(`/referrals/${row.id}/agreement.pdf`, { id: row.id }))) as Response;
        expect(pdf.status).toBe(200);
        expect(pdf.headers.get("Content-Type")).toBe("application/pdf");
        const printed = await pdfText(new Uint8Array(await pdf.arrayBuffer()));
        expect(printed).toContain(`refers the client "${referral.clientName}"`);
        if (signed) expect(printed.split(`SHA-256 of the text signed: ${referral.agreementHash}`)).toHaveLength(3);
      }
      expect(list.referrals.filter((row) => row.status === "proposed").length).toBeGreaterThan(0);
      const waiting = list.referrals.find((row) => row.status === "proposed" && row.role === "received")!;
      const page = (await referralLoader(args(`/referrals/${waiting.id}`, { id: waiting.id }))) as Awaited<
        ReturnType<typeof referralLoader>
      >;
      expect(page.referral.canSign).toBe(true);
    } finally {
      await stopServices(services);
    }
  });

  it("meet the demo login with every newer surface filled: an invitation with its Respond by, a review to write and one with a reply, places served with a radius, a broker approval waiting", async () => {
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(REFERRALS_NOW);
    const { dataDir } = seeded;
    const services = createServices(loadConfig({ NODE_ENV: "test", DATA_DIR: dataDir }));
    try {
      await services.store.refresh();
      const { store } = services;
      const context: AppLoadContext = { services, nonce: "test-nonce" };
      const login: Agent = store.agents.by("email", LOGIN_EMAIL)[0]!;
      const cookie = await sessionCookie(context, login);
      const args = (url: string, params: Record<string, string> = {}) => ({ request: get(url, cookie), context, params });
      const dashboard = (await dashboardLoader(args("/member-dashboard"))) as Awaited<ReturnType<typeof dashboardLoader>>;

      // The dashboard's "Invited to respond": a request whose Respond by is still ahead.
      const waiting = dashboard.invitations.filter((invitation) => {
        const request = store.requests.get(invitation.requestId)!;
        return invitation.respondBy !== null && !isPastDeadline(request.respondBy, REFERRALS_NOW);
      });
      expect(waiting.length, "an invitation waiting for an answer, with its Respond by").toBeGreaterThan(0);

      // The dashboard's "Reviews to write", each link opening a form the login can fill.
      expect(dashboard.reviewsToWrite.length, "a review to write").toBeGreaterThan(0);
      for (const { referralId } of dashboard.reviewsToWrite) {
        const page = (await reviewLoader(args(`/referrals/${referralId}/review`, { id: referralId }))).data;
        expect(page.review.canWrite).toBe(true);
      }

      // A referral's review page with both reviews published and the login's reply to the other's.
      const replied = store.reviews.all().filter((review) => review.reviewedEmail === LOGIN_EMAIL && review.reply !== undefined);
      expect(replied.length, "a review of the login with their reply").toBeGreaterThan(0);
      for (const { referralId } of replied) {
        const page = (await reviewLoader(args(`/referrals/${referralId}/review`, { id: referralId }))).data;
        expect(page.review.published).toBe(true);
        expect(page.review.mine).not.toBeNull();
        expect(page.review.theirs?.reply).toBeTruthy();
      }

      // The places served, with the radius the login chose, on the dashboard and on Edit Profile.
      expect(login.serviceRadius, "the radius around the places served").toBeDefined();
      expect(dashboard.profile.served).toMatch(new RegExp(`^Serves .+ · within ${login.serviceRadius} mi$`));
      const editing = (await editProfileLoader(args("/edit-profile"))).data;
      expect(editing.profile.placesServed.length).toBeGreaterThan(0);
      expect(editing.profile.serviceRadius).toBe(String(login.serviceRadius));

      // One of the login's referrals shows a broker asked by mail whose approval link still works.
      const withBrokerWaiting = [];
      for (const referral of store.referrals.all().filter((row) => isParty(row, LOGIN_EMAIL))) {
        const page = (await referralLoader(args(`/referrals/${referral.id}`, { id: referral.id }))) as Awaited<
          ReturnType<typeof referralLoader>
        >;
        if (page.referral.brokers.some((broker) => broker.state.startsWith("Waiting for "))) withBrokerWaiting.push(referral.id);
      }
      expect(withBrokerWaiting.length, "a referral waiting for a broker's approval").toBeGreaterThan(0);
    } finally {
      await stopServices(services);
    }
  });

  it("include reviews of the deals that ended: published both ways with a reply, one waiting for the other party, one to write", async () => {
    const { store } = seeded;
    const services = createReplicaServices(store);
    const login = store.agents.by("email", LOGIN_EMAIL)[0]!;
    const ofLogin = profileReviews(services, login, login, REFERRALS_NOW);
    expect(ofLogin.length).toBeGreaterThanOrEqual(2);
    expect(ofLogin.some((review) => review.aspects.some((aspect) => aspect.label === "Fee handled as agreed"))).toBe(true);
    expect(ofLogin.some((review) => review.aspects.some((aspect) => aspect.label === "Quality of the referral"))).toBe(true);
    expect(ofLogin.filter((review) => review.reply !== null)).toHaveLength(1);
    const waiting = store.reviews.all().filter((review) => {
      const standing = reviewStanding(store.reviews.by("referralId", review.referralId), review.reviewerEmail, REFERRALS_NOW);
      return !standing.published;
    });
    expect(waiting.map((review) => review.reviewerEmail)).toEqual([LOGIN_EMAIL]);
    expect(reviewsToWrite(services, login, REFERRALS_NOW).length).toBeGreaterThan(0);
    for (const review of store.reviews.all()) expect(isReviewable(store.referrals.get(review.referralId)!)).toBe(true);
  });

  it("include a commission disbursement authorization under contract and an Oklahoma broker staff confirmed who sponsors demo agents", async () => {
    const { store } = seeded;
    const withCda = store.referrals.all().filter((referral) => referral.cdaSentAt !== undefined);
    expect(withCda.map((referral) => referral.status)).toEqual(["under_contract"]);
    expect(withCda[0]).toMatchObject({ titleCompany: "Alamo Title Company", titleEmail: "closer@alamotitle.demo.example" });
    expect(store.referralEvents.by("referralId", withCda[0]!.id).filter((event) => event.step === "cda")).toHaveLength(1);
    const [broker] = store.brokers.all();
    expect(broker).toMatchObject({ state: "OK", status: "confirmed" });
    const sponsored = store.agents.all().filter((agent) => agent.brokerLicenseNumber === broker!.licenseNumber);
    expect(sponsored.length).toBeGreaterThan(0);
    expect(sponsored.every((agent) => agent.licenseState === "OK" && agent.brokerEmail === broker!.email)).toBe(true);
  });

  it("include invitations: open ones, a Not a fit with its reason, a Respond by passed with no response, and one to the demo login", async () => {
    const { store } = seeded;
    const services = createReplicaServices(store);
    const login = store.agents.by("email", LOGIN_EMAIL)[0]!;
    const sent = store.invitations.by("posterEmail", LOGIN_EMAIL);
    expect(sent.filter((invitation) => invitation.status === "invited").length).toBeGreaterThanOrEqual(2);
    expect(sent.filter((invitation) => invitation.status === "declined" && invitation.reason !== "").length).toBeGreaterThanOrEqual(1);
    const passed = sent
      .flatMap((invitation) => store.requests.get(invitation.requestId) ?? [])
      .filter((request) => isPastDeadline(request.respondBy, REFERRALS_NOW) && store.responses.by("requestId", request.id).length === 0);
    expect(passed.length).toBeGreaterThan(0);
    // The poster is offered the next five on that request: someone uninvited serves its place.
    for (const request of passed) {
      const section = bestFitSection(services, request, REFERRALS_NOW);
      expect(section.nextRound).toBe(true);
      expect(section.suggestions.length).toBeGreaterThan(0);
    }
    expect(invitationsToAnswer(services, login, REFERRALS_NOW).length).toBeGreaterThan(0);
    for (const invitation of store.invitations.all()) expect(store.requests.get(invitation.requestId)).toBeDefined();
  });

  it("include the demo login's invitations to join in every outcome, and her request in Alpine answered by the agent she invited to it", async () => {
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(REFERRALS_NOW);
    const services = createServices(loadConfig({ NODE_ENV: "test", DATA_DIR: seeded.dataDir }));
    try {
      await services.store.refresh();
      const { store } = services;
      const context: AppLoadContext = { services, nonce: "test-nonce" };
      const login: Agent = store.agents.by("email", LOGIN_EMAIL)[0]!;
      const cookie = await sessionCookie(context, login);
      const args = (url: string, params: Record<string, string> = {}) => ({ request: get(url, cookie), context, params });

      // /invite lists one invitation in each outcome, and one that was reminded.
      const invitePage = (await inviteLoader(args("/invite"))).data;
      expect(new Set(invitePage.sent.map((row) => row.outcome))).toEqual(new Set(["sent", "opened", "registered", "approved", "expired"]));
      expect(invitePage.sent.some((row) => row.reminded)).toBe(true);
      for (const row of invitePage.sent) expect(row.email.endsWith(`@${DEMO_EMAIL_DOMAIN}`)).toBe(true);
      // Whoever registered through an invitation is credited to the login.
      const joined = store.outreach.all().flatMap((row) => (row.agentId ? [store.agents.get(row.agentId)!] : []));
      expect(new Set(joined.map((agent) => agent.status))).toEqual(new Set(["pending", "approved"]));
      for (const agent of joined) expect(agent.invitedBy).toBe(login.id);

      // The request in a place no one else serves: its invitee joined, was invited to it, and answered.
      const referred = store.outreach.all().filter((row) => row.requestId !== undefined);
      expect(referred).toHaveLength(1);
      const request = store.requests.get(referred[0]!.requestId!)!;
      expect(request.agentEmail).toBe(LOGIN_EMAIL);
      const invitee = store.agents.get(referred[0]!.agentId!)!;
      expect(invitee).toMatchObject({ status: "approved", invitedBy: login.id });
      const servingThere = store.agents
        .all()
        .filter(
          (agent) => agent.city === request.location || agent.placesServed.some((place) => place.startsWith(`${request.location}, `)),
        );
      expect(servingThere.map((agent) => agent.id)).toEqual([invitee.id]);
      expect(store.invitations.by("requestId", request.id).map((invitation) => invitation.agentEmail)).toEqual([invitee.email]);
      const requestPage = (await requestPageLoader(args(`/referral-requests/${request.id}`, { id: request.id }))).data;
      expect(requestPage.responses.map((response) => response.fromName)).toEqual([invitee.fullName]);

      // Addresses never invited again: one asked, one bounced.
      expect(new Set(store.suppressions.all().map((row) => row.reason))).toEqual(new Set(["asked", "bounce"]));
    } finally {
      await stopServices(services);
    }
  });

  it("the demo login has two devices, with push on for messages and invitations, and a push to them is logged as not delivered, not fatal", async () => {
    const { store } = seeded;
    const login = store.agents.by("email", LOGIN_EMAIL)[0]!;
    expect(login.pushOn).toEqual(["messages", "invitations"]);
    const push = createPush({ store, writeQueues: createWriteQueues(), config: testConfig() });
    expect(push.devices(login).map((device) => device.deviceName)).toEqual(["Chrome on Android", "Safari on iPhone"]);
    const errors = vi.spyOn(console, "error").mockImplementation(() => undefined);
    const notice = { title: "New message", body: "Hello", url: "/messages", tag: "message:demo" };
    expect(await push.deliver(login, notice, { urgency: "high", pause: async () => true })).toBe(false);
    expect(errors).toHaveBeenCalledTimes(2);
    expect(push.devices(login)).toHaveLength(2);
  });
});

describe("seedDemo on Google Sheets", () => {
  it("appends each tab's rows many per API call, not one call per row", async () => {
    const fake = await startFakeSheets({ port: 0 });
    try {
      const { store } = await openSheetsStore(fake, "seed");
      opened.push(store);
      const before = fake.calls.length;
      const outcome = await seedDemo(store, options());
      expect(outcome.status).toBe("seeded");
      const rows = Object.values((outcome as { added: Record<string, number> }).added).reduce((sum, count) => sum + count, 0);
      const appends = fake.calls.slice(before).filter((call) => call.kind === "spreadsheets.batchUpdate").length;
      // Seven tabs, each's first row at once and the rest together (more than ROWS_PER_CALL rows: one more call per hundred).
      expect(appends).toBeLessThanOrEqual(7 * 2 + Math.floor(rows / 100));
      expect(appends).toBeLessThan(rows / 5);
    } finally {
      await fake.close();
    }
  });
});

describe("npm run seed:demo", () => {
  const run = (dataDir: string, env: Record<string, string> = {}) => runStoreCommand("scripts/seed-demo.ts", dataDir, { env });

  it("prints a demo login whose password works and is stored nowhere, then does nothing the second time", async () => {
    const dataDir = tempDataDir();
    const first = await run(dataDir);
    expect(first.stderr).toBe("");
    expect(first.status).toBe(0);
    const [, email, password] = /Demo login: (\S+)\s+password: (\S+)/.exec(first.stdout) ?? [];
    expect(email).toBe(`maria.delgado@${DEMO_EMAIL_DOMAIN}`);
    expect(password).toMatch(/^demo-[a-z2-9]{4}-[a-z2-9]{4}-[a-z2-9]{4}$/);
    const cells = allCells(dataDir);
    const login = cells.Agents!.find((agent) => agent.email === email)!;
    expect(await verifyPassword(password!, String(login.passwordHash))).toBe(true);
    expect(JSON.stringify(cells)).not.toContain(password!);

    const second = await run(dataDir);
    expect(second.status).toBe(0);
    expect(second.stdout).toContain("The store already holds the demo network: nothing changed.");
    expect(second.stdout).not.toContain(password!);
    expect(allCells(dataDir)).toEqual(cells);
  }, 60_000);

  it("takes the password from DEMO_PASSWORD and refuses a short one", async () => {
    const [short, chosen] = await Promise.all([
      run(tempDataDir(), { DEMO_PASSWORD: "short" }),
      run(tempDataDir(), { DEMO_PASSWORD: "our-demo-password" }),
    ]);
    expect(short).toMatchObject({
      status: 1,
      stderr: "DEMO_PASSWORD must be at least 8 characters long.\n",
    });
    expect(chosen.status).toBe(0);
    expect(chosen.stdout).toContain("password: our-demo-password");
  }, 60_000);

  it("exits with a clear message on a store that is not the demo", async () => {
    const { store, dataDir } = await openStore();
    await seedDemo(store, options());
    const db = new Database(path.join(dataDir, "store.sqlite"));
    db.prepare("DELETE FROM Agents").run();
    db.prepare("DELETE FROM Messages").run();
    db.close();
    const result = await run(dataDir);
    expect(result.status).toBe(1);
    expect(result.stderr).toMatch(/^The store already holds 0 agents and 33 requests and is not the demo network/);
  }, 60_000);
});
