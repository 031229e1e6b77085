/**
 * Two app instances on one workbook, on SQLite (one file), on Google Sheets (the fake
 * server) and with the high-volume tabs in PostgreSQL (a real server): one e-mail registered on both at the same moment is one agent and one welcome
 * mail; one mark set on both at the same moment is one Marks row (docs/decisions/0032).
 */
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { loadConfig } from "../../app/server/config.server";
import { readOutbox } from "../../app/server/mail/mailer.server";
import {
  createAgent,
  EmailTakenError,
  sendRegistrationMails,
  type NewAgentProfile,
} from "../../app/server/registration/create-agent.server";
import { setInterestedOrSaved } from "../../app/server/referral-requests/interested-and-saved.server";
import { respondToRequest } from "../../app/server/referral-requests/respond.server";
import { responseCount } from "../../app/server/referral-requests/views.server";
import { createServices, outboxDirectory, stopServices } from "../../app/server/service-lifecycle.server";
import type { Services } from "../../app/server/services.server";
import { newId } from "../../app/server/store/store.server";
import { useFakeSheets } from "../support/fake-sheets";
import { usePostgres } from "../support/postgres";
import { agentRecord, requestRecord } from "../support/records";

const { fake } = useFakeSheets();
const postgres = usePostgres();
const running: Services[] = [];
afterEach(async () => {
  await Promise.all(running.splice(0).map((services) => stopServices(services)));
});

const drivers = ["sqlite", "sheets", "postgres"] as const;

/** Two instances on one new workbook of the driver, sharing one data directory and so one outbox. */
async function twoInstances(driver: (typeof drivers)[number]) {
  const dataDir = mkdtempSync(path.join(tmpdir(), "unique-"));
  const spreadsheetId = `unique-${newId()}`;
  if (driver === "sheets") fake.spreadsheet(spreadsheetId);
  const sheets =
    driver === "sheets" ? { GOOGLE_SHEETS_ID: spreadsheetId, GOOGLE_SHEETS_API_URL: fake.url, SHEETS_WRITE_CALLS_PER_MINUTE: "300" } : {};
  const database = driver === "postgres" ? { DATABASE_URL: await postgres.server().createDatabase() } : {};
  const config = loadConfig({ NODE_ENV: "test", DATA_DIR: dataDir, SUPPORT_EMAIL: "support@example.test", ...sheets, ...database });
  const all = [createServices(config), createServices(config)] as const;
  running.push(...all);
  // The second starts once the first has made the tabs, as a deployment's instances would.
  await all[0].store.refresh();
  await all[1].store.refresh();
  const outbox = async () => {
    await Promise.all(all.map((services) => services.notifier.idle()));
    return readOutbox(outboxDirectory(config));
  };
  return { all, outbox };
}

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

describe.each(drivers)("two instances on %s", { timeout: 60_000 }, (driver) => {
  it("register one e-mail sent to both at the same moment once: one Agents row, one welcome mail", async () => {
    const { all, outbox } = await twoInstances(driver);
    const draft = { fullName: "Dana Reyes", email: "dana@example.com", phone: "(214) 555-0100", state: "TX" as const, city: "Dallas" };
    const results = await Promise.allSettled(
      all.map(async (services) => {
        const agent = await createAgent(services, { ...draft, key: newId() }, profile);
        sendRegistrationMails(services, agent, "http://localhost/member-login");
        return agent;
      }),
    );
    expect(results.filter((result) => result.status === "fulfilled")).toHaveLength(1);
    const refused = results.find((result) => result.status === "rejected");
    expect(refused?.reason).toBeInstanceOf(EmailTakenError);

    const rows = await all[1].store.agents.readStored();
    expect(rows.filter((agent) => agent.email === "dana@example.com")).toHaveLength(1);
    const mails = await outbox();
    expect(mails.filter((mail) => mail.to === "dana@example.com")).toHaveLength(1);
  });

  it("store one Marks row when one member's Interested reaches both at the same moment", async () => {
    const { all } = await twoInstances(driver);
    const owner = await all[0].store.agents.insert(agentRecord({ email: "maria@example.com" }));
    const request = await all[0].store.requests.insert(requestRecord(owner));
    await all[1].store.refresh();

    const now = new Date();
    await Promise.all(
      all.map((services) =>
        setInterestedOrSaved(services, { agentEmail: "james@example.com", requestId: request.id, kind: "interested", on: true, now }),
      ),
    );

    const rows = await all[0].store.marks.readStored();
    expect(rows.map((mark) => `${mark.agentEmail}:${mark.kind}:${mark.status}`)).toEqual(["james@example.com:interested:active"]);
    await Promise.all(all.map((services) => services.store.refresh()));
    for (const services of all) expect(services.store.marks.by("agentEmail", "james@example.com")).toHaveLength(1);
  });

  it("count on each instance every response stored by both, answered at the same moment", async () => {
    const { all } = await twoInstances(driver);
    const owner = await all[0].store.agents.insert(agentRecord({ email: "maria@example.com" }));
    const request = await all[0].store.requests.insert(requestRecord(owner));
    await all[1].store.refresh();

    const quiet = { error: () => undefined };
    await Promise.all(
      Array.from({ length: 18 }, (_, i) =>
        respondToRequest(all[i % 2]!, {
          requestId: request.id,
          member: agentRecord({ email: `agent${i}@example.com` }),
          message: `Answer ${i}`,
          now: new Date(),
          link: "http://localhost/referral-requests",
          log: quiet,
        }),
      ),
    );

    expect(await all[0].store.responses.readStored()).toHaveLength(18);
    await Promise.all(all.map((services) => services.store.refresh()));
    expect(all.map((services) => responseCount(services, request.id))).toEqual([18, 18]);
  });
});
