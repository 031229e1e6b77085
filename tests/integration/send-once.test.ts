/**
 * Two app instances on one Google Sheets workbook (the fake server) send each mail once
 * (docs/product.md#mail-and-notifications): a staff decision, a message notification, a response
 * notification, and the Monday digest (fake clock). The outbox both write to is counted.
 */
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import type { Agent } from "../../app/domain/workbook/tabs";
import { loadConfig } from "../../app/server/config.server";
import { createOutboxMailer, readOutbox, type Mail } from "../../app/server/mail/mailer.server";
import { sendMessage } from "../../app/server/messages/send.server";
import { DIGEST_BATCH, scheduleWeeklyDigest } from "../../app/server/jobs/weekly-digest.server";
import { remindAndExpireReferrals } from "../../app/server/jobs/referral-reminders.server";
import { createNotifier } from "../../app/server/notifier/notifier.server";
import { respondToRequest } from "../../app/server/referral-requests/respond.server";
import { createServices, outboxDirectory, stopServices } from "../../app/server/service-lifecycle.server";
import type { Services } from "../../app/server/services.server";
import { newId } from "../../app/server/store/store.server";
import { useFakeSheets } from "../support/fake-sheets";
import { usePostgres } from "../support/postgres";
import { agentRecord, referralRecord, requestRecord } from "../support/records";

const { fake } = useFakeSheets();
const postgres = usePostgres();
const running: Services[] = [];
afterEach(async () => {
  await Promise.all(running.splice(0).map((services) => stopServices(services)));
});

const quiet = { info: () => undefined, warn: () => undefined, error: () => undefined };

/**
 * Two instances (or more) on one new workbook, sharing one data directory and so one outbox;
 * with `database`, its high-volume tabs in a new PostgreSQL database.
 */
async function instances(count = 2, { database = false } = {}) {
  const spreadsheetId = `send-once-${newId()}`;
  const book = fake.spreadsheet(spreadsheetId);
  const config = loadConfig({
    ...(database ? { DATABASE_URL: await postgres.server().createDatabase() } : {}),
    NODE_ENV: "test",
    DATA_DIR: mkdtempSync(path.join(tmpdir(), "send-once-")),
    GOOGLE_SHEETS_ID: spreadsheetId,
    GOOGLE_SHEETS_API_URL: fake.url,
    // The claims are what is tested, not the pacing: the fake has no quota to keep to.
    SHEETS_WRITE_CALLS_PER_MINUTE: "300",
    SUPPORT_EMAIL: "support@example.test",
    APP_URL: "https://referrals.example",
  });
  const start = async () => {
    const services = createServices(config);
    running.push(services);
    await services.store.refresh();
    return services;
  };
  const all = await Promise.all(Array.from({ length: count }, start));
  const refreshAll = () => Promise.all(running.map((services) => services.store.refresh()));
  /** The shared outbox once every instance's queued mail is sent. */
  const outbox = async () => {
    await Promise.all(running.map((services) => services.notifier.idle()));
    return readOutbox(outboxDirectory(config));
  };
  return { book, config, all: all as [Services, Services, ...Services[]], start, refreshAll, outbox };
}

function member(email: string, fields: Partial<Agent> = {}): Agent {
  return agentRecord({ email, fullName: email.split("@")[0]!, status: "approved", ...fields });
}

describe.each([
  { store: "the sheet", database: false },
  { store: "the sheet and PostgreSQL", database: true },
])("with two instances on $store", ({ database }) => {
  it("a staff decision mails the agent once, and the claim is in the SendClaims tab", async () => {
    const { book, all, refreshAll, outbox } = await instances(2, { database });
    const agent = await all[0].store.agents.insert(member("dana@example.com", { status: "pending" }));
    await refreshAll();

    book.setCell("Agents", { id: agent.id, header: "status" }, "approved");
    await refreshAll();
    // Each instance queued the decision's mail during its refresh: the outbox waits for both queues.
    const mails = await outbox();
    expect(mails.map((mail) => [mail.to, mail.subject])).toEqual([["dana@example.com", "Your Red River Referrals account is approved"]]);

    const claims = await all[1].store.sendClaims.readStored();
    const keys = claims.map((claim) => claim.key);
    expect(keys.filter((key) => key === `decision:${agent.id}:approved`).length).toBeGreaterThanOrEqual(1);
    expect(all.map((services) => services.sendClaims.instanceId)).toContain(claims[0]!.instance);
  }, 30_000);

  it("messages sent through both instances notify the recipient once, at once or a minute apart", async () => {
    const { all, outbox } = await instances(2, { database });
    const [sender, recipient] = await Promise.all([
      all[0].store.agents.insert(member("sam@example.com")),
      all[0].store.agents.insert(member("rita@example.com")),
    ]);
    await Promise.all(all.map((services) => services.store.refresh()));
    const send = (services: Services, conversationId: string, text: string) =>
      sendMessage(services, { sender, recipient, conversationId, text, request: new Request("http://localhost/messages") });

    const together = await Promise.all([send(all[0], "c-together", "first"), send(all[1], "c-together", "second")]);
    expect((await Promise.all(together.map((sent) => sent.notification))).sort()).toEqual(["sent", "throttled"]);

    // The second instance has not read the first one's claim: its replica still says never mailed.
    expect(await (await send(all[0], "c-apart", "first")).notification).toBe("sent");
    expect(await (await send(all[1], "c-apart", "a minute later")).notification).toBe("throttled");

    const mails = (await outbox()).filter((mail) => mail.to === recipient.email);
    expect(mails).toHaveLength(2);
  }, 30_000);

  it("responses through both instances mail the poster once", async () => {
    const { all, outbox } = await instances(2, { database });
    const [poster, first, second] = await Promise.all([
      all[0].store.agents.insert(member("paula@example.com")),
      all[0].store.agents.insert(member("ray@example.com")),
      all[0].store.agents.insert(member("rosa@example.com")),
    ]);
    const request = await all[0].store.requests.insert(requestRecord(poster));
    await Promise.all(all.map((services) => services.store.refresh()));
    const respond = (services: Services, responder: Agent) =>
      respondToRequest(services, {
        requestId: request.id,
        member: responder,
        message: "I can help",
        now: new Date(),
        link: "https://x.test",
        log: quiet,
      });

    await Promise.all([respond(all[0], first), respond(all[1], second)]);
    await Promise.all(all.map((services) => services.notifier.idle()));
    await respond(all[1], first);
    await Promise.all(all.map((services) => services.notifier.idle()));
    const mails = (await outbox()).filter((mail) => mail.to === poster.email);
    expect(mails).toHaveLength(1);
  }, 30_000);
});

describe("referral reminders and expiry with two instances", () => {
  const referralPass = (services: Services, now: Date) =>
    remindAndExpireReferrals(
      {
        store: services.store,
        notifier: services.notifier,
        config: services.config,
        writeQueues: services.writeQueues,
        claims: services.sendClaims,
      },
      now,
    );

  it("a referral whose term ended expires once, and a quiet one is reminded once, from both instances at the same moment", async () => {
    const { all, outbox } = await instances();
    const [referring, receiving] = await Promise.all([
      all[0].store.agents.insert(member("maria@example.com")),
      all[0].store.agents.insert(member("james@example.com")),
    ]);
    const signedAt = "2025-01-10T15:00:00.000Z";
    const ended = await all[0].store.referrals.insert(
      referralRecord(referring, receiving, { signedAt, termEndsAt: "2026-01-10T15:00:00.000Z" }),
    );
    const quietOne = await all[0].store.referrals.insert(
      referralRecord(referring, receiving, { signedAt: "2026-09-01T15:00:00.000Z", termEndsAt: "2027-09-01T15:00:00.000Z" }),
    );
    await Promise.all(all.map((services) => services.store.refresh()));

    const now = new Date("2026-11-23T15:00:00.000Z");
    const passes = await Promise.all(all.map((services) => referralPass(services, now)));
    expect(passes.reduce((sum, pass) => ({ reminded: sum.reminded + pass.reminded, expired: sum.expired + pass.expired }))).toEqual({
      reminded: 1,
      expired: 1,
    });
    await Promise.all(all.map((services) => services.store.refresh()));
    expect(all[1].store.referrals.get(ended.id)?.status).toBe("expired");
    expect(all[1].store.referralEvents.by("referralId", ended.id).map((event) => event.step)).toEqual(["expired"]);
    expect(all[1].store.referralEvents.by("referralId", quietOne.id).map((event) => event.step)).toEqual(["reminder"]);
    const mails = (await outbox()).map((mail) => `${mail.to}: ${mail.subject}`).sort();
    expect(mails).toHaveLength(3);
    expect(mails.filter((mail) => mail.startsWith("james@example.com")).length).toBe(2);
  }, 30_000);
});

describe("the weekly digest", () => {
  const monday = new Date("2026-11-23T15:00:00.000Z");

  async function network() {
    const setup = await instances();
    const { all } = setup;
    const poster = member("poster@example.com", { state: "TX" });
    const wanting = member("wanting@example.com", { state: "TX", specialties: ["Residential"] });
    const turnedOff = member("off@example.com", { state: "TX", specialties: ["Residential"], mailOff: ["digest"] });
    const elsewhere = member("okie@example.com", { state: "OK", specialties: ["Residential"] });
    const pending = member("pending@example.com", { state: "TX", specialties: ["Residential"], status: "pending" });
    await Promise.all([poster, wanting, turnedOff, elsewhere, pending].map((agent) => all[0].store.agents.insert(agent)));
    await Promise.all(
      ["2026-11-17T15:00:00.000Z", "2026-11-20T15:00:00.000Z", "2026-11-02T15:00:00.000Z"].map((createdAt, i) =>
        all[0].store.requests.insert(
          requestRecord(poster, { state: "TX", specialty: "Residential", createdAt, title: `Texas request ${i}` }),
        ),
      ),
    );
    await setup.refreshAll();
    return { ...setup, wanting };
  }

  /** The members' digests: staff's growth summary, mailed with them, is looked at apart. */
  const digestMails = async (outbox: () => Promise<Mail[]>) => (await outbox()).filter((mail) => mail.to !== "support@example.test");

  const jobAt = (services: Services, now: () => Date) =>
    scheduleWeeklyDigest({
      store: services.store,
      notifier: services.notifier,
      claims: services.sendClaims,
      config: services.config,
      clock: now,
      log: quiet,
    });

  it("goes once per member per week, from both instances at once, only to members who want it and have something new", async () => {
    const { all, outbox, refreshAll, start, wanting } = await network();
    const runs = await Promise.all(all.map((services) => jobAt(services, () => monday).run()));
    expect(runs.filter((run) => run.ran)).toEqual([
      { ran: true, week: "2026-11-23", sent: 1, failed: 0, nothingNew: 2, optedOut: 1, takenElsewhere: 0 },
    ]);
    const mails = await digestMails(outbox);
    expect(mails.map((mail) => mail.to)).toEqual([wanting.email]);
    expect(mails[0]!.subject).toBe("2 new referral requests in your market last week");
    expect(mails[0]!.text).toContain("Texas request 1\n");
    expect(mails[0]!.text).not.toContain("Texas request 2");
    expect(mails[0]!.text).toContain("https://referrals.example/referral-requests?state=TX&specialty=Residential");

    // Later the same week, after refreshes and after a restart, nothing is sent again.
    await refreshAll();
    const later = () => new Date("2026-11-25T12:00:00.000Z");
    expect((await jobAt(all[1], later).run()).ran).toBe(false);
    const restarted = await start();
    expect((await jobAt(restarted, later).run()).ran).toBe(false);
    expect(await digestMails(outbox)).toHaveLength(1);
  }, 30_000);

  it("mails staff the week's growth from invitations once, from both instances at once", async () => {
    const { all, outbox } = await network();
    const inviter = (await all[0].store.agents.readStored())[0]!;
    const invited = member("joined@example.com", { invitedBy: inviter.id, createdAt: "2026-11-20T10:00:00.000Z" });
    await all[0].store.agents.insert(invited);
    const invitation = (email: string, createdAt: string) => ({
      id: newId(),
      inviterId: inviter.id,
      name: "A Colleague",
      email,
      licenseNumber: "",
      licenseState: "",
      createdAt,
    });
    await all[0].store.outreach.insert({ ...invitation("joined@example.com", "2026-11-18T10:00:00.000Z"), agentId: invited.id });
    await all[0].store.outreach.insert(invitation("later@example.com", "2026-11-21T10:00:00.000Z"));
    await all[0].store.outreach.insert(invitation("old@example.com", "2026-11-01T10:00:00.000Z"));
    await Promise.all(all.map((services) => services.store.refresh()));
    await Promise.all(all.map((services) => jobAt(services, () => monday).run()));
    const staff = (await outbox()).filter((mail) => mail.to === "support@example.test");
    expect(staff.map((mail) => mail.subject)).toEqual(["[Weekly] Invitations: 2 sent, 1 registered, 1 approved"]);
  }, 30_000);

  it("is sent late when no instance was up on Monday, and then not again that week", async () => {
    const { all, outbox, wanting } = await network();
    const wednesday = () => new Date("2026-11-25T20:00:00.000Z");
    expect((await jobAt(all[0], wednesday).run()).ran).toBe(true);
    expect((await jobAt(all[1], wednesday).run()).ran).toBe(false);
    expect((await digestMails(outbox)).map((mail) => mail.to)).toEqual([wanting.email]);
  }, 30_000);

  it("stopped midway and restarted in the same week, mails every member once", async () => {
    const { all, outbox, start } = await network();
    const readers = Array.from({ length: DIGEST_BATCH + 5 }, (_, i) =>
      member(`reader${i}@example.com`, { state: "TX", specialties: ["Residential"] }),
    );
    await Promise.all(readers.map((reader) => all[0].store.agents.insert(reader)));
    await all[0].store.refresh();
    // The first instance is stopped while it sends its first batch.
    let mailed = 0;
    const outboxMail = createOutboxMailer(outboxDirectory(all[0].config), all[0].config.mailFrom);
    const notifier = createNotifier({
      driver: {
        driver: "outbox",
        async send(mail) {
          await outboxMail.send(mail);
          mailed += 1;
          if (mailed === 3) void job.stop();
        },
      },
      claims: all[0].sendClaims,
      config: all[0].config,
    });
    const job: ReturnType<typeof scheduleWeeklyDigest> = scheduleWeeklyDigest({
      store: all[0].store,
      notifier,
      claims: all[0].sendClaims,
      config: all[0].config,
      clock: () => monday,
      log: quiet,
    });
    const first = await job.run();
    expect(first).toMatchObject({ ran: true, sent: DIGEST_BATCH });
    await stopServices(all[0]);

    const restarted = await start();
    const later = () => new Date("2026-11-24T09:00:00.000Z");
    expect(await jobAt(restarted, later).run()).toMatchObject({ ran: true, sent: readers.length + 1 - DIGEST_BATCH, takenElsewhere: 0 });
    expect((await jobAt(restarted, later).run()).ran).toBe(false);
    const perMember = new Map<string, number>();
    for (const mail of await digestMails(outbox)) perMember.set(mail.to, (perMember.get(mail.to) ?? 0) + 1);
    expect(perMember.size).toBe(readers.length + 1);
    expect([...perMember.values()].every((count) => count === 1)).toBe(true);
  }, 60_000);

  it("is skipped when nothing new was posted in the member's market", async () => {
    const { all, outbox } = await network();
    // The week after: the requests were all posted the week before.
    const nextMonday = () => new Date("2026-11-30T15:00:00.000Z");
    const run = await jobAt(all[0], nextMonday).run();
    expect(run).toMatchObject({ ran: true, week: "2026-11-30", sent: 0, nothingNew: 3 });
    expect(await digestMails(outbox)).toEqual([]);
  }, 30_000);
});
