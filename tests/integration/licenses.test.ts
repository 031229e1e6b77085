import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import type { AppLoadContext } from "@remix-run/node";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { loader as healthz } from "../../app/routes/healthz";
import { runStaffCommand } from "../../scripts/lib/staff-command";
import { apiSource, fileSource } from "../../app/server/licenses/license-source.server";
import { createLicenseService, LICENSE_DATA_MISSING } from "../../app/server/licenses/licenses.server";
import type { RegistrationDraft } from "../../app/domain/registration";
import { createAgent, sendRegistrationMails, type NewAgentProfile } from "../../app/server/registration/create-agent.server";
import { newId } from "../../app/server/store/store.server";
import { startFakeSheets, type FakeSheetsServer } from "../../scripts/lib/fake-sheets/server";
import { startFakeTrec, type FakeTrec } from "../mocks/trec-open-data";
import { insertAgent, testContext, sentMails } from "../support/services";

const FIXTURE = path.resolve("tests/fixtures/trec/trecfile.txt");
const TOKEN = "a-health-token-of-at-least-24-characters";
const NOW = new Date("2026-11-23T15:00:00Z");

let trec: FakeTrec;
let sheets: FakeSheetsServer;
const contexts: AppLoadContext[] = [];

beforeAll(async () => {
  trec = await startFakeTrec(FIXTURE);
  sheets = await startFakeSheets();
});

afterAll(async () => {
  await trec.close();
  await sheets.close();
});

afterEach(async () => {
  for (const context of contexts.splice(0)) {
    context.services.licenses.stop();
    await context.services.store.stop();
  }
});

async function contextWith(env: Record<string, string> = {}): Promise<AppLoadContext> {
  const context = testContext({}, { HEALTH_TOKEN: TOKEN, ...env });
  contexts.push(context);
  await context.services.store.refresh();
  return context;
}

async function loadFixture(context: AppLoadContext): Promise<number> {
  return context.services.licenses.table.replace(
    fileSource(FIXTURE).records(() => undefined),
    FIXTURE,
    NOW,
  );
}

const draft: RegistrationDraft = {
  fullName: "Dana Reyes",
  email: "dana@example.com",
  phone: "(214) 555-0100",
  state: "TX",
  city: "Dallas",
  vipCode: undefined,
};
const profile: NewAgentProfile = {
  password: "Correct-Horse-42",
  licenseNumber: "654321",
  licenseState: "TX",
  licenseExpiration: "2027-06-30",
  brokerage: "Lone Star Realty",
  brokerLicenseNumber: "9001234",
  brokerEmail: "broker@lonestar.example",
  brokerFrom: "member",
  specialties: ["Residential"],
  bio: undefined,
  photoUrl: undefined,
};

async function register(context: AppLoadContext, changes: { draft?: Partial<typeof draft>; profile?: Partial<typeof profile> } = {}) {
  const agent = await createAgent(
    context.services,
    { ...draft, email: `a-${newId().slice(0, 8)}@example.com`, ...changes.draft },
    { ...profile, ...changes.profile },
    NOW,
  );
  await sendRegistrationMails(context.services, agent, "http://localhost/member-login");
  return agent;
}

function outbox(context: AppLoadContext) {
  return sentMails(context.services);
}

describe("loading TREC's data", () => {
  it("loads the file in the published layout, accents decoded, and finds licenses by number", async () => {
    const context = await contextWith();
    expect(await loadFixture(context)).toBe(6);
    const { table } = context.services.licenses;
    expect(table.lookup("654321-SA")).toMatchObject({
      fullName: "REYES, DANA MARIE",
      status: "Current and active",
      expiration: "2027-06-30",
      sponsorName: "LONE STAR REALTY LLC",
    });
    expect(table.lookup("0688888")?.fullName).toBe("PEÑA, JOSÉ");
    expect(table.lookup("1111111")).toBeUndefined();
    expect(table.info()).toEqual({ loadedAt: NOW.toISOString(), source: FIXTURE, rows: 6 });
  });

  it("refuses a malformed file with its line number and field, and keeps the previous data", async () => {
    const context = await contextWith();
    await loadFixture(context);
    const lines = readFileSync(FIXTURE, "latin1").split("\r\n");
    lines[2] = (lines[2] ?? "").split("\t").slice(0, 20).join("\t");
    const broken = path.join(context.services.config.dataDir, "broken.txt");
    writeFileSync(broken, lines.join("\r\n"), "latin1");
    await expect(
      context.services.licenses.table.replace(
        fileSource(broken).records(() => undefined),
        broken,
      ),
    ).rejects.toThrow("line 3, field physical_address_line_2: expected 33 tab-separated fields, found 20");
    expect(context.services.licenses.table.info()?.rows).toBe(6);
    expect(context.services.licenses.table.lookup("654321")?.fullName).toBe("REYES, DANA MARIE");
  });

  it("loads the published file from a URL and the open-data API page by page", async () => {
    const fromFile = await contextWith({ TREC_LICENSE_FILE_URL: trec.fileUrl });
    await fromFile.services.licenses.refresh(NOW);
    expect(fromFile.services.licenses.table.info()).toMatchObject({ rows: 6, source: trec.fileUrl });

    const fromApi = await contextWith({ TREC_LICENSE_API_URL: trec.apiUrl });
    trec.apiQueries.length = 0;
    await fromApi.services.licenses.refresh(NOW);
    expect(fromApi.services.licenses.table.info()).toMatchObject({ rows: 6, source: trec.apiUrl });
    expect(fromApi.services.licenses.table.lookup("701234")).toMatchObject({ suffix: "JR", status: "Expired", expiration: "2025-03-31" });
    expect(trec.apiQueries.map((query) => [query.get("$offset"), query.get("$order")])).toEqual([["0", ":id"]]);

    // Pages in a stable order until a short one.
    trec.apiQueries.length = 0;
    expect(
      await fromApi.services.licenses.table.replace(
        apiSource(trec.apiUrl, 4).records(() => undefined),
        trec.apiUrl,
      ),
    ).toBe(6);
    expect(trec.apiQueries.map((query) => [query.get("$limit"), query.get("$offset"), query.get("$order")])).toEqual([
      ["4", "0", ":id"],
      ["4", "4", ":id"],
    ]);
  });

  it("refreshes at start when the data is missing or a day old, and not at all without a URL", async () => {
    const configured = await contextWith({ TREC_LICENSE_API_URL: trec.apiUrl });
    configured.services.licenses.start();
    await expect.poll(() => configured.services.licenses.table.info()?.rows, { timeout: 5_000 }).toBe(6);

    const bare = await contextWith();
    bare.services.licenses.start();
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(bare.services.licenses.table.info()).toBeUndefined();
  });

  it("lists the lapses of data loaded by the command (no URL configured) once the service looks", async () => {
    const context = await contextWith();
    const expired = await insertAgent(context, { fullName: "Robert Smith", licenseNumber: "0701234" });
    await loadFixture(context);
    context.services.licenses.start();
    await expect.poll(() => context.services.store.agents.get(expired.id)?.licenseCheck, { timeout: 5_000 }).toBe("TX lapsed: expired");
    await expect.poll(async () => (await outbox(context)).filter((mail) => mail.subject.startsWith("License lapses")).length).toBe(1);
  });

  it("refuses a malformed API answer and keeps the previous data", async () => {
    const context = await contextWith({ TREC_LICENSE_API_URL: trec.apiUrl });
    await context.services.licenses.refresh(NOW);
    trec.breakNextPage(JSON.stringify([{ license_number: "654321", license_expiration_date: "someday" }]));
    const errors: unknown[] = [];
    const quiet = { info: () => undefined, error: (...args: unknown[]) => errors.push(...args) };
    const service = createLicenseService({
      config: context.services.config,
      store: context.services.store,
      notifier: context.services.notifier,
      log: quiet,
    });
    await service.refresh(new Date("2026-11-24T15:00:00Z"));
    expect(String(errors[1])).toContain("API row 1, field license_expiration_date");
    expect(service.table.info()).toMatchObject({ rows: 6, loadedAt: NOW.toISOString() });
    service.stop();
  });
});

describe("the check at registration", { timeout: 30_000 }, () => {
  it("writes TX active, name and broker matching beside a pending Texas applicant, who hears nothing different", async () => {
    const context = await contextWith();
    await loadFixture(context);
    const agent = await register(context);
    expect(context.services.store.agents.get(agent.id)).toMatchObject({
      status: "pending",
      licenseCheck: "TX active, name matches, broker matches",
      licenseCheckedAt: NOW.toISOString(),
      licenseCheckNote:
        "Sales agent 0654321: Current and active; expires 2027-06-30; name on license: REYES, DANA MARIE; sponsoring broker: LONE STAR REALTY LLC (license 9001234)",
    });
    const mails = await outbox(context);
    expect(mails.find((mail) => mail.to === agent.email)?.subject).toMatch(/under review/);
    expect(mails.find((mail) => mail.to === "support@example.test")?.text).toContain(
      "License check: TX active, name matches, broker matches",
    );
  });

  it("shows an expired license, a number not in the data, and sends Oklahoma applicants to OREC", async () => {
    const context = await contextWith();
    await loadFixture(context);
    const expired = await register(context, {
      draft: { fullName: "Robert Smith Jr." },
      profile: { licenseNumber: "0701234", brokerage: "Keller Williams" },
    });
    expect(context.services.store.agents.get(expired.id)).toMatchObject({
      status: "pending",
      licenseCheck: "TX expired, name matches, broker matches",
    });
    const unknown = await register(context, { profile: { licenseNumber: "999999" } });
    expect(context.services.store.agents.get(unknown.id)).toMatchObject({ status: "pending", licenseCheck: "TX not found" });
    const sooner = await register(context, {
      draft: { state: "OK", city: "Tulsa" },
      profile: { licenseState: "OK", licenseNumber: "187654" },
    });
    expect(context.services.store.agents.get(sooner.id)).toMatchObject({
      status: "pending",
      licenseCheck: "check OREC",
      licenseCheckNote: "Search license 187654 at https://orec.us/",
    });
    const staffMail = (await outbox(context)).find((mail) => mail.to === "support@example.test" && mail.text.includes("187654"));
    expect(staffMail?.text).toContain("OREC search (license 187654): https://orec.us/");
  });

  it("registers the applicant, check not made, when the license data cannot be read", async () => {
    const context = await contextWith();
    await loadFixture(context);
    context.services.licenses.table.close();
    const errors: unknown[] = [];
    const log = console.error;
    console.error = (...args: unknown[]) => errors.push(...args);
    try {
      const agent = await register(context);
      expect(context.services.store.agents.get(agent.id)).toMatchObject({ status: "pending", licenseCheck: "TX not checked" });
      expect(context.services.store.agents.get(agent.id)?.licenseCheckNote).toMatch(/could not be read/);
    } finally {
      console.error = log;
    }
    expect(errors[0]).toBe("Licenses: the look-up failed.");
    // Already closed: afterEach must not close it again.
    contexts.splice(contexts.indexOf(context), 1);
    await context.services.store.stop();
  });

  it("writes the columns to the Google Sheets store", async () => {
    const spreadsheetId = `licenses-${newId()}`;
    sheets.spreadsheet(spreadsheetId);
    const context = await contextWith({ GOOGLE_SHEETS_ID: spreadsheetId, GOOGLE_SHEETS_API_URL: sheets.url });
    await loadFixture(context);
    const agent = await register(context);
    const rows = sheets.spreadsheet(spreadsheetId).rows("Agents");
    const headers = (rows[0] ?? []).map(String);
    const row = rows.find((cells) => cells[0] === agent.id) ?? [];
    expect(row[headers.indexOf("licenseCheck")]).toBe("TX active, name matches, broker matches");
    expect(String(row[headers.indexOf("licenseCheckNote")])).toContain("REYES, DANA MARIE");
  });

  it("approves a clean Texas applicant at once, with the approval mail, only when switched on", async () => {
    const on = await contextWith({ LICENSE_AUTO_APPROVE: "tx-active-exact" });
    await loadFixture(on);
    const clean = await register(on);
    expect(on.services.store.agents.get(clean.id)).toMatchObject({
      status: "approved",
      licenseCheck: "TX active, name matches, broker matches (approved automatically)",
    });
    const mails = await outbox(on);
    expect(mails.find((mail) => mail.to === clean.email)?.subject).toMatch(/approved/i);
    expect(mails.find((mail) => mail.to === "support@example.test")?.text).toMatch(/approved automatically/);
    // Expiring within 30 days, or a different name: staff decide.
    const expiring = await register(on, { draft: { fullName: "An Nguyen" }, profile: { licenseNumber: "699999" } });
    expect(on.services.store.agents.get(expiring.id)?.status).toBe("pending");
    const otherName = await register(on, { draft: { fullName: "Diana Reyes" } });
    expect(on.services.store.agents.get(otherName.id)?.status).toBe("pending");

    const off = await contextWith();
    await loadFixture(off);
    expect(off.services.store.agents.get((await register(off)).id)?.status).toBe("pending");
  });
});

describe("lapses, the staff command and /healthz", () => {
  it("lists approved Texas members whose license lapsed in their row and in one staff mail, changing nothing else", async () => {
    const context = await contextWith();
    await loadFixture(context);
    const active = await insertAgent(context, { fullName: "Dana Reyes", licenseNumber: "0654321" });
    const expired = await insertAgent(context, { fullName: "Robert Smith", licenseNumber: "0701234" });
    const inactive = await insertAgent(context, { fullName: "William Harris", licenseNumber: "0512345" });
    await insertAgent(context, { fullName: "Pending Person", licenseNumber: "0701234", status: "pending" });
    await insertAgent(context, { fullName: "Okie Agent", licenseNumber: "0701234", licenseState: "OK", state: "OK" });

    const lapsed = await context.services.licenses.checkLapses(NOW);
    expect(lapsed.map((agent) => agent.id).sort()).toEqual([expired.id, inactive.id].sort());
    const { agents } = context.services.store;
    expect(agents.get(expired.id)).toMatchObject({
      status: "approved",
      licenseCheck: "TX lapsed: expired",
      licenseCheckedAt: NOW.toISOString(),
    });
    expect(agents.get(inactive.id)).toMatchObject({ status: "approved", licenseCheck: "TX lapsed: inactive" });
    expect(agents.get(active.id)?.licenseCheck).toBeUndefined();
    const mails = (await outbox(context)).filter((mail) => mail.subject.startsWith("License lapses"));
    expect(mails).toHaveLength(1);
    expect(mails[0]).toMatchObject({ to: "support@example.test", subject: "License lapses: 2 approved Texas members" });
    expect(mails[0]?.text).toContain(expired.email);
    expect(mails[0]?.text).not.toContain(active.email);
  });

  it("prints one agent's check with the staff command", async () => {
    const context = await contextWith();
    await loadFixture(context);
    const agent = await register(context);
    const lines = await runStaffCommand(context.services.store, ["license", agent.email], 10, context.services.licenses.table);
    expect(lines).toContain("In the sheet: TX active, name matches, broker matches (checked 2026-11-23T15:00:00.000Z)");
    expect(lines).toContain("Now: TX active, name matches, broker matches");
    expect(lines.at(-1)).toBe(`License data: 6 records loaded ${NOW.toISOString()} from ${FIXTURE}`);
    await expect(
      runStaffCommand(context.services.store, ["license", "nobody@example.com"], 10, context.services.licenses.table),
    ).rejects.toThrow(/No agent has the email/);
  });

  it("shows the data's date and row count on /healthz with the token only", async () => {
    const context = await contextWith();
    const read = async (headers: HeadersInit = {}) =>
      (await healthz({ request: new Request("http://localhost/healthz", { headers }), context, params: {} }).json()) as Record<
        string,
        unknown
      >;
    expect((await read({ Authorization: `Bearer ${TOKEN}` })).licenses).toEqual({ loaded: false, problem: LICENSE_DATA_MISSING });
    await loadFixture(context);
    expect((await read({ Authorization: `Bearer ${TOKEN}` })).licenses).toEqual({ loadedAt: NOW.toISOString(), source: FIXTURE, rows: 6 });
    expect(await read()).toEqual({ status: "ok" });
  });
});
