import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import type { AppLoadContext } from "@remix-run/node";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import type { Agent } from "../../app/domain/workbook/tabs";
import { action as completeProfile } from "../../app/routes/complete-profile";
import { action as editProfile } from "../../app/routes/edit-profile";
import { action as register } from "../../app/routes/register";
import { startMemberSession } from "../../app/server/auth/session.server";
import { fileSource } from "../../app/server/licenses/license-source.server";
import { startFakeTrec, type FakeTrec } from "../mocks/trec-open-data";
import { loader as completeProfileLoader } from "../../app/routes/complete-profile";
import { loader as healthz } from "../../app/routes/healthz";
import { insertAgent, postForm, sentMails, testContext } from "../support/services";

/** Lines in TREC's layout: Elena Martinez (sales agent) sponsored by Gulf Coast Homes, Kevin Tran by an expired broker, and others. */
const FIXTURE = path.resolve("tests/fixtures/trec/sponsors.txt");
const PASSWORD = "Correct-Horse-42";
const NOW = new Date("2026-11-27T15:00:00Z");

type DataReply = {
  data: { initialValue: Record<string, unknown> | null; error?: Record<string, string[] | null> };
  init: ResponseInit | null;
};

/** The same file a month later: Elena and Ravi Patel have moved to Hill Country Realty. */
function fixtureAfterMoves(): string {
  const moved = readFileSync(FIXTURE, "latin1")
    .replace("BLLC\t9002468\tGULF COAST HOMES LLC\t\t07/01/2021", "BLLC\t9004680\tHILL COUNTRY REALTY LLC\t\t12/01/2026")
    .replace("BLLC\t9009999\tPRAIRIE WIND REALTY LLC\t\t02/01/2021", "BLLC\t9004680\tHILL COUNTRY REALTY LLC\t\t12/01/2026");
  const file = path.join(mkdtempSync(path.join(tmpdir(), "trec-")), "trecfile.txt");
  writeFileSync(file, moved, "latin1");
  return file;
}

let later: FakeTrec;
const contexts: AppLoadContext[] = [];

beforeAll(async () => {
  later = await startFakeTrec(fixtureAfterMoves());
});

afterAll(async () => {
  await later.close();
});

afterEach(async () => {
  for (const context of contexts.splice(0)) {
    // The registration mails are sent in the background: done before the store closes.
    await context.services.notifier.idle();
    context.services.licenses.stop();
    await context.services.store.stop();
  }
});

/** A context with the fixture loaded, whose configured TREC source is the later file. */
async function contextWithTrec(): Promise<AppLoadContext> {
  const context = testContext({}, { TREC_LICENSE_FILE_URL: later.fileUrl });
  contexts.push(context);
  await context.services.store.refresh();
  await context.services.licenses.table.replace(
    fileSource(FIXTURE).records(() => undefined),
    FIXTURE,
    NOW,
  );
  return context;
}

async function call<T>(run: () => Promise<T>): Promise<T | Response> {
  try {
    return await run();
  } catch (thrown) {
    if (thrown instanceof Response) return thrown;
    throw thrown;
  }
}

function multipart(url: string, fields: Record<string, string>, cookie: string): Request {
  const body = new FormData();
  for (const [name, value] of Object.entries(fields)) body.append(name, value);
  return new Request(`http://localhost${url}`, { method: "POST", body, headers: { Cookie: cookie } });
}

/** Quick registration, then the profile form with `fields`: the redirect or the refusal. */
async function registerWith(
  context: AppLoadContext,
  person: { fullName: string; email: string; state: "TX" | "OK" },
  fields: Record<string, string>,
) {
  const quick = { ...person, phone: "214.555.0100", city: person.state === "TX" ? "Houston" : "Tulsa" };
  const started = await call(() => register({ request: postForm("/register", quick), context, params: {} }));
  const cookie = ((started as Response).headers.get("Set-Cookie") ?? "").split(";")[0] ?? "";
  const form = { password: PASSWORD, confirmPassword: PASSWORD, licenseState: person.state, ...fields };
  return call(() => completeProfile({ request: multipart("/complete-profile", form, cookie), context, params: {} }));
}

function stored(context: AppLoadContext, email: string): Agent | undefined {
  return context.services.store.agents.by("email", email)[0];
}

const elena = { fullName: "Elena Martinez", email: "elena.martinez@example.com", state: "TX" } as const;

describe("registration collects the sponsoring broker", { timeout: 30_000 }, () => {
  it("fills a Texas agent's blank broker fields from TREC, marks them TREC's, and says the e-mail matches TREC's", async () => {
    const context = await contextWithTrec();
    const done = await registerWith(context, elena, { licenseNumber: "0612345", brokerage: "", brokerLicenseNumber: "", brokerEmail: "" });
    expect((done as Response).headers.get("Location")).toBe("/welcome");
    expect(stored(context, elena.email)).toMatchObject({
      brokerage: "GULF COAST HOMES LLC",
      brokerLicenseNumber: "9002468",
      brokerEmail: "broker@gulfcoasthomes.example",
      brokerFrom: "trec",
      licenseCheck: "TX active, name matches, broker matches, e-mail matches TREC",
      licenseCheckNote: expect.stringContaining("sponsoring broker: GULF COAST HOMES LLC (license 9002468)") as unknown,
    });
  });

  it("keeps what a Texas agent typed, and marks a broker other than TREC's the member's own", async () => {
    const context = await contextWithTrec();
    const typed = { brokerage: "Gulf Coast Homes", brokerLicenseNumber: "", brokerEmail: "elena.broker@gulfcoast.example" };
    await registerWith(context, elena, { licenseNumber: "612345", ...typed });
    expect(stored(context, elena.email)).toMatchObject({ ...typed, brokerLicenseNumber: "9002468", brokerFrom: "trec" });

    const other = { fullName: "Ravi Patel", email: "ravi.patel@example.com", state: "TX" } as const;
    const own = { brokerage: "Patel Realty", brokerLicenseNumber: "0599999", brokerEmail: "ravi@patelrealty.example" };
    await registerWith(context, other, { licenseNumber: "0656789", ...own });
    expect(stored(context, other.email)).toMatchObject({ ...own, brokerFrom: "member" });
  });

  it("refuses blank broker fields TREC cannot fill, with TREC's reason beside each and the input kept", async () => {
    const context = await contextWithTrec();
    const kevin = { fullName: "Kevin Tran", email: "kevin.tran@example.com", state: "TX" } as const;
    const expired = (await registerWith(context, kevin, { licenseNumber: "0623456", brokerEmail: "broker@example.com" })) as DataReply;
    expect(expired.init?.status).toBe(400);
    const reason = "TREC's records show your sponsoring broker's license as expired. Please enter your current broker.";
    expect(expired.data.error).toEqual({ brokerage: [reason], brokerLicenseNumber: [reason] });
    expect(expired.data.initialValue).toMatchObject({ licenseNumber: "0623456", brokerEmail: "broker@example.com" });
    expect(expired.data.initialValue).not.toHaveProperty("password");

    const jamie = { fullName: "Jamie Walker", email: "jamie.walker@example.com", state: "TX" } as const;
    const none = (await registerWith(context, jamie, { licenseNumber: "0634567" })) as DataReply;
    expect(none.init?.status).toBe(400);
    expect(none.data.error?.brokerLicenseNumber).toEqual([
      "TREC's records show no sponsoring broker for your license. Please enter your broker.",
    ]);
    expect(context.services.store.agents.all()).toHaveLength(0);
  });

  it("asks an Oklahoma agent for all three, with the plain messages, and stores what they typed", async () => {
    const context = await contextWithTrec();
    const okie = { fullName: "Sam Hale", email: "sam.hale@example.com", state: "OK" } as const;
    const blank = (await registerWith(context, okie, { licenseNumber: "178765", brokerage: "Sooner Homes" })) as DataReply;
    expect(blank.init?.status).toBe(400);
    expect(blank.data.error).toEqual({
      brokerLicenseNumber: ["Broker license number is required"],
      brokerEmail: ["Broker email is required"],
    });
    expect(blank.data.initialValue).toMatchObject({ brokerage: "Sooner Homes" });

    const broker = { brokerage: "Sooner Homes", brokerLicenseNumber: "155", brokerEmail: "Broker@SoonerHomes.example" };
    await registerWith(context, okie, { licenseNumber: "178765", ...broker });
    expect(stored(context, okie.email)).toMatchObject({
      brokerage: "Sooner Homes",
      brokerLicenseNumber: "155",
      brokerEmail: "broker@soonerhomes.example",
      brokerFrom: "member",
      licenseCheck: "check OREC",
    });
  });
});

describe("a Texas applicant TREC's data cannot look up", { timeout: 30_000 }, () => {
  const typeThem = "so please type your broker's name, license number and email.";

  it("is told beside each blank broker field that TREC has no record of the license, with the input kept", async () => {
    const context = await contextWithTrec();
    const refused = (await registerWith(context, elena, { licenseNumber: "0699999", brokerage: "Gulf Coast Homes" })) as DataReply;
    expect(refused.init?.status).toBe(400);
    const reason = `TREC's records have no license 0699999, ${typeThem}`;
    expect(refused.data.error).toEqual({ brokerLicenseNumber: [reason], brokerEmail: [reason] });
    expect(refused.data.initialValue).toMatchObject({ licenseNumber: "0699999", brokerage: "Gulf Coast Homes" });
    expect(refused.data.initialValue).not.toHaveProperty("password");
  });

  it("on a fresh install is told the license data is not loaded yet, and the page promises no look-up", async () => {
    const context = testContext();
    contexts.push(context);
    await context.services.store.refresh();
    const refused = (await registerWith(context, elena, { licenseNumber: "0612345" })) as DataReply;
    expect(refused.init?.status).toBe(400);
    const reason = `We cannot look up your broker: TREC's license data is not loaded yet, ${typeThem}`;
    expect(refused.data.error).toEqual({ brokerage: [reason], brokerLicenseNumber: [reason], brokerEmail: [reason] });
    expect(refused.data.initialValue).toMatchObject({ licenseNumber: "0612345", licenseState: "TX" });
    expect((await completeProfileLoaderFor(context)).trecLoaded).toBe(false);
  });

  it("tells staff once, by mail and on /healthz, that no license data is loaded", async () => {
    const context = testContext({}, { HEALTH_TOKEN: "health-token-for-the-tests-0" });
    contexts.push(context);
    await context.services.store.refresh();
    await context.services.licenses.tick(NOW);
    await context.services.licenses.tick(NOW);
    await context.services.notifier.idle();
    const told = (await sentMails(context.services)).filter((mail) => mail.subject === "TREC license data is not loaded");
    expect(told).toHaveLength(1);
    expect(told[0]?.text).toContain("Texas applicants' licenses are not checked and their sponsoring brokers cannot be filled in");

    const request = new Request("http://localhost/healthz", { headers: { Authorization: "Bearer health-token-for-the-tests-0" } });
    const health = (await healthz({ request, context, params: {} }).json()) as { licenses: unknown };
    expect(health.licenses).toEqual({ loaded: false, problem: expect.stringContaining("No TREC license data is loaded") as unknown });

    await context.services.licenses.table.replace(
      fileSource(FIXTURE).records(() => undefined),
      FIXTURE,
      NOW,
    );
    expect((await completeProfileLoaderFor(context)).trecLoaded).toBe(true);
  });
});

async function completeProfileLoaderFor(context: AppLoadContext): Promise<{ trecLoaded: boolean }> {
  const started = await call(() =>
    register({ request: postForm("/register", { ...elena, phone: "214.555.0100", city: "Houston" }), context, params: {} }),
  );
  const cookie = ((started as Response).headers.get("Set-Cookie") ?? "").split(";")[0] ?? "";
  const request = new Request("http://localhost/complete-profile", { headers: { Cookie: cookie } });
  return (await completeProfileLoader({ request, context, params: {} })) as { trecLoaded: boolean };
}

describe("a reload of TREC's data", { timeout: 30_000 }, () => {
  it("moves a TREC-sourced broker to the new sponsor and leaves a member's own", async () => {
    const context = await contextWithTrec();
    await registerWith(context, elena, { licenseNumber: "0612345" });
    const ravi = await insertAgent(context, {
      fullName: "Ravi Patel",
      email: "ravi.patel@example.com",
      licenseState: "TX",
      licenseNumber: "0656789",
      brokerage: "Prairie Wind Realty",
      brokerLicenseNumber: "9009999",
      brokerEmail: "office@prairiewind.example",
      brokerFrom: "member",
    });

    await context.services.licenses.refresh(NOW);
    expect(context.services.licenses.table.info()?.source).toBe(later.fileUrl);
    expect(stored(context, elena.email)).toMatchObject({
      brokerage: "HILL COUNTRY REALTY LLC",
      brokerLicenseNumber: "9004680",
      brokerEmail: "team@hillcountryrealty.example",
      brokerFrom: "trec",
    });
    expect(context.services.store.agents.get(ravi.id)).toMatchObject({
      brokerage: "Prairie Wind Realty",
      brokerLicenseNumber: "9009999",
      brokerEmail: "office@prairiewind.example",
    });
  });

  it("stops following TREC once the member corrects their broker in Edit Profile", async () => {
    const context = await contextWithTrec();
    await registerWith(context, elena, { licenseNumber: "0612345" });
    const member = await context.services.store.agents.update(stored(context, elena.email)!.id, { status: "approved" });
    const session = await startMemberSession(new Request("http://localhost/member-login"), context, member, "/member-dashboard");
    const cookie = (session.headers.get("Set-Cookie") ?? "").split(";")[0] ?? "";
    const correction = {
      fullName: member.fullName,
      city: member.city,
      state: member.state,
      brokerage: "Gulf Coast Homes, Katy office",
      brokerLicenseNumber: "9002468",
      brokerEmail: "katy@gulfcoasthomes.example",
      password: PASSWORD,
    };
    const saved = await call(() => editProfile({ request: multipart("/edit-profile", correction, cookie), context, params: {} }));
    expect((saved as Response).headers.get("Location")).toBe("/edit-profile");
    expect(stored(context, elena.email)).toMatchObject({ brokerFrom: "member", brokerEmail: "katy@gulfcoasthomes.example" });

    await context.services.licenses.refresh(NOW);
    expect(stored(context, elena.email)).toMatchObject({ brokerage: "Gulf Coast Homes, Katy office", brokerLicenseNumber: "9002468" });
  });
});
