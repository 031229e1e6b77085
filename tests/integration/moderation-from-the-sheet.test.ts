/**
 * Every staff power of the staff guide's moderation, done the way staff do it, by typing a
 * row in the Moderation tab of the sheet (or the SQLite file), on every deployment: SQLite,
 * Google Sheets (the fake server), and Google Sheets with the high-volume tabs in PostgreSQL
 * (a real server), each with two app instances. The rows are typed into the store directly,
 * never through an instance, as staff type them.
 */
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import Database from "better-sqlite3";
import { afterEach, describe, expect, it } from "vitest";
import { conversationIdFor } from "../../app/domain/conversation";
import { WORKBOOK, type Agent, type Message } from "../../app/domain/workbook/tabs";
import { loadConfig, type Config } from "../../app/server/config.server";
import { loader as healthLoader } from "../../app/routes/healthz";
import { signalRows } from "../../app/server/matching/candidate-index.server";
import { invitationsToAnswer } from "../../app/server/invitations/invitations.server";
import { readOutbox } from "../../app/server/mail/mailer.server";
import { responsesTo } from "../../app/server/referral-requests/respond.server";
import { profileReviews } from "../../app/server/reviews/reviews.server";
import { createServices, outboxDirectory, stopServices } from "../../app/server/service-lifecycle.server";
import type { Services } from "../../app/server/services.server";
import { newId, sqliteStorePath } from "../../app/server/store/store.server";
import { useFakeSheets } from "../support/fake-sheets";
import { usePostgres } from "../support/postgres";
import { agentRecord, referralRecord, requestRecord } from "../support/records";

const { fake } = useFakeSheets();
const postgres = usePostgres();
const running: Services[] = [];
afterEach(async () => {
  await Promise.all(running.splice(0).map((services) => stopServices(services)));
});

const deployments = ["sqlite", "sheets", "sheets and postgres"] as const;
type Deployment = (typeof deployments)[number];
const DAY_MS = 86_400_000;
const HEALTH_TOKEN = "health-token-0123456789abcdef";

type StaffRow = { kind: string; itemId: string; action: string; note?: string; createdAt: string };

/** One deployment: its configuration, instances started on it, and staff typing into its Moderation tab. */
async function deploymentOf(kind: Deployment) {
  const dataDir = mkdtempSync(path.join(tmpdir(), "moderation-sheet-"));
  const spreadsheetId = `moderation-${newId()}`;
  if (kind !== "sqlite") fake.spreadsheet(spreadsheetId);
  const sheets =
    kind === "sqlite" ? {} : { GOOGLE_SHEETS_ID: spreadsheetId, GOOGLE_SHEETS_API_URL: fake.url, SHEETS_WRITE_CALLS_PER_MINUTE: "300" };
  const database = kind === "sheets and postgres" ? { DATABASE_URL: await postgres.server().createDatabase() } : {};
  const config: Config = loadConfig({
    NODE_ENV: "test",
    DATA_DIR: dataDir,
    SUPPORT_EMAIL: "support@example.test",
    HEALTH_TOKEN: HEALTH_TOKEN,
    ...sheets,
    ...database,
  });

  async function start(): Promise<Services> {
    const services = createServices(config);
    running.push(services);
    await services.store.refresh();
    return services;
  }

  let typed = 0;
  /** A staff member types one row under the others, in the Moderation tab's column order. */
  function staffTypes(row: StaffRow): void {
    typed += 1;
    const cells = { id: `staff-${typed}`, note: "", staffEmail: "staff@example.test", ...row };
    const values = WORKBOOK.moderation.headers.map((header) => cells[header as keyof typeof cells] ?? "");
    if (kind === "sqlite") {
      const db = new Database(sqliteStorePath(config));
      try {
        const columns = WORKBOOK.moderation.headers.map((header) => `"${header}"`).join(", ");
        db.prepare(`INSERT INTO "Moderation" (${columns}) VALUES (${values.map(() => "?").join(", ")})`).run(...values);
      } finally {
        db.close();
      }
    } else {
      fake.spreadsheet(spreadsheetId).append("Moderation!A1", [values], "USER_ENTERED");
    }
  }

  /** A staff member changes one cell of a staff tab's row. */
  function staffEdits(tab: string, id: string, header: string, text: string): void {
    if (kind === "sqlite") {
      const db = new Database(sqliteStorePath(config));
      try {
        db.prepare(`UPDATE "${tab}" SET "${header}" = ? WHERE "id" = ?`).run(text, id);
      } finally {
        db.close();
      }
    } else {
      fake.spreadsheet(spreadsheetId).typeCell(tab, { id, header }, text);
    }
  }

  return { config, start, staffTypes, staffEdits };
}

type World = {
  ann: Agent;
  bob: Agent;
  cat: Agent;
  message: Message;
  requestId: string;
  responseId: string;
  reviewId: string;
  invitationId: string;
};

/**
 * Bob wrote to Ann and answered her request; Ann's review of Bob, with his reply, is
 * published; Cat is invited to Ann's other request. All written through one instance.
 */
async function worldOn(services: Services): Promise<World> {
  const { store } = services;
  const [ann, bob, cat] = await Promise.all(
    ["Ann Archer", "Bob Brooks", "Cat Cole"].map((fullName) =>
      store.agents.insert(agentRecord({ fullName, email: `${fullName.split(" ")[0]!.toLowerCase()}@example.com` })),
    ),
  );
  const message = await store.messages.insert({
    id: newId(),
    conversationId: conversationIdFor(ann!.id, bob!.id),
    fromEmail: bob!.email,
    toEmail: ann!.email,
    text: "I have a buyer for Denton.",
    createdAt: new Date(Date.now() - 60_000).toISOString(),
    via: undefined,
  });
  const request = await store.requests.insert(requestRecord(ann!, { title: "Starter home near Denton" }));
  const response = await store.responses.insert({
    id: newId(),
    requestId: request.id,
    fromEmail: bob!.email,
    fromName: bob!.fullName,
    toEmail: ann!.email,
    message: "I can help.",
    createdAt: new Date().toISOString(),
  });
  const referral = await store.referrals.insert(
    referralRecord(ann!, bob!, { status: "fee_received", signedAt: new Date(Date.now() - 60 * DAY_MS).toISOString() }),
  );
  const submittedAt = new Date(Date.now() - 20 * DAY_MS).toISOString();
  const review = await store.reviews.insert({
    id: newId(),
    referralId: referral.id,
    reviewerEmail: ann!.email,
    reviewedEmail: bob!.email,
    reviewedSide: "receiving",
    overall: 5,
    communication: 5,
    clientCare: 5,
    feeAsAgreed: 5,
    referralQuality: undefined,
    text: "Paid the fee on time.",
    submittedAt,
    updatedAt: undefined,
    reply: "Thank you, Ann.",
    repliedAt: submittedAt,
    status: "visible",
  });
  const other = await store.requests.insert(requestRecord(ann!, { title: "Lake house near Tyler" }));
  const invitation = await store.invitations.insert({
    id: newId(),
    requestId: other.id,
    posterEmail: ann!.email,
    agentEmail: cat!.email,
    status: "invited",
    reason: "",
    createdAt: new Date().toISOString(),
    answeredAt: undefined,
    remindedAt: undefined,
  });
  return {
    ann: ann!,
    bob: bob!,
    cat: cat!,
    message,
    requestId: request.id,
    responseId: response.id,
    reviewId: review.id,
    invitationId: invitation.id,
  };
}

/** What each member sees of the five items on one instance. */
async function seenOn(services: Services, world: World) {
  const now = new Date();
  const thread = await services.messageQueries.thread(world.ann, world.message.conversationId, 1);
  const [summary] = await services.messageQueries.summaries(world.ann);
  const [onProfile] = profileReviews(services, world.bob, world.cat, now);
  return {
    message: thread.messages.map((message) => message.text),
    unread: summary?.unread ?? 0,
    response: responsesTo(services, world.requestId, world.ann).map((response) => response.message),
    review: onProfile?.text ?? null,
    reply: onProfile?.reply ?? null,
    stars: services.trackRecords.current(now).reviews.get(world.bob.email)?.count ?? 0,
    invitation: invitationsToAnswer(services, world.cat, now).map((invitation) => invitation.title),
    // What the best-fit ranking counts (a hidden invitation is no Not a fit).
    rankedInvitation: signalRows(services.store, new Map()).invitations.find((invitation) => invitation.id === world.invitationId)?.status,
  };
}

const ALL_SHOWN = {
  message: ["I have a buyer for Denton."],
  unread: 1,
  response: ["I can help."],
  review: "Paid the fee on time.",
  reply: "Thank you, Ann.",
  stars: 1,
  invitation: ["Lake house near Tyler"],
  rankedInvitation: "invited",
};

function itemsOf(world: World): { kind: string; itemId: string }[] {
  return [
    { kind: "message", itemId: world.message.id },
    { kind: "response", itemId: world.responseId },
    { kind: "reply", itemId: world.reviewId },
    { kind: "invitation", itemId: world.invitationId },
  ];
}

describe.each(deployments)("staff moderation from the sheet on %s, two instances", { timeout: 90_000 }, (kind) => {
  it("hides a message, a response, a reply and an invitation with Hidden rows, and brings them back with Shown rows", async () => {
    const deployment = await deploymentOf(kind);
    const instances = [await deployment.start(), await deployment.start()];
    const world = await worldOn(instances[0]!);
    await Promise.all(instances.map((services) => services.store.refresh()));
    for (const services of instances) expect(await seenOn(services, world)).toEqual(ALL_SHOWN);

    // Ann's messages page is open on each instance: each is told to read again.
    const told = new Set<Services>();
    for (const services of instances)
      services.messageEvents.subscribe(
        world.ann.email,
        () => told.add(services),
        () => undefined,
      );
    const hiddenAt = new Date().toISOString();
    for (const item of itemsOf(world)) deployment.staffTypes({ ...item, action: "Hidden", note: "reported", createdAt: hiddenAt });
    await Promise.all(instances.map((services) => services.store.refresh()));
    await expect.poll(() => told.size).toBe(2);
    for (const services of instances) {
      expect(await seenOn(services, world)).toEqual({
        ...ALL_SHOWN,
        message: [],
        unread: 0,
        response: [],
        reply: null,
        invitation: [],
        rankedInvitation: "hidden",
      });
    }

    const shownAt = new Date(Date.now() + 1000).toISOString();
    for (const item of itemsOf(world)) deployment.staffTypes({ ...item, action: "shown", createdAt: shownAt });
    await Promise.all(instances.map((services) => services.store.refresh()));
    for (const services of instances) expect(await seenOn(services, world)).toEqual(ALL_SHOWN);
  });

  it("hides a review from the profile and the stars, and a row typed while the site was down applies when it starts", async () => {
    const deployment = await deploymentOf(kind);
    const first = await deployment.start();
    const world = await worldOn(first);
    await stopServices(running.splice(0, 1)[0]!);

    deployment.staffTypes({ kind: "review", itemId: world.reviewId, action: "hidden", createdAt: new Date().toISOString() });
    const instances = [await deployment.start(), await deployment.start()];
    for (const services of instances) {
      expect(await seenOn(services, world)).toEqual({ ...ALL_SHOWN, review: null, reply: null, stars: 0 });
    }

    deployment.staffTypes({
      kind: "review",
      itemId: world.reviewId,
      action: "shown",
      createdAt: new Date(Date.now() + 1000).toISOString(),
    });
    await Promise.all(instances.map((services) => services.store.refresh()));
    for (const services of instances) expect(await seenOn(services, world)).toEqual(ALL_SHOWN);
  });

  it("suspends a member from the Agents tab, taking their message and response off both instances, and restores them", async () => {
    const deployment = await deploymentOf(kind);
    const instances = [await deployment.start(), await deployment.start()];
    const world = await worldOn(instances[0]!);
    deployment.staffEdits("Agents", world.bob.id, "status", "suspended");
    await Promise.all(instances.map((services) => services.store.refresh()));
    for (const services of instances) {
      expect(await seenOn(services, world)).toMatchObject({ message: [], unread: 0, response: [] });
    }
    deployment.staffEdits("Agents", world.bob.id, "status", "approved");
    await Promise.all(instances.map((services) => services.store.refresh()));
    for (const services of instances) expect(await seenOn(services, world)).toEqual(ALL_SHOWN);
  });

  it("lists a row whose id matches nothing in the health details and in one staff mail from the two instances", async () => {
    const deployment = await deploymentOf(kind);
    const instances = [await deployment.start(), await deployment.start()];
    const world = await worldOn(instances[0]!);
    deployment.staffTypes({ kind: "message", itemId: "no-such-message", action: "hidden", createdAt: new Date().toISOString() });
    deployment.staffTypes({ kind: "message", itemId: world.message.id, action: "hidden", createdAt: new Date().toISOString() });
    await Promise.all(instances.map((services) => services.store.refresh()));
    for (const services of instances) {
      await services.decisionAudit.check();
      expect(services.decisionAudit.unmatched()).toEqual([{ id: "staff-1", kind: "message", itemId: "no-such-message" }]);
      const request = new Request("http://localhost/healthz", { headers: { Authorization: `Bearer ${HEALTH_TOKEN}` } });
      const health = (await (healthLoader({ request, context: { services, nonce: "" }, params: {} }) as Response).json()) as {
        moderation: { unmatchedRows: { where: string; what: string }[] };
      };
      expect(health.moderation.unmatchedRows).toEqual([
        { where: "Moderation row staff-1", what: expect.stringContaining("no message has the id no-such-message") as string },
      ]);
      expect((await seenOn(services, world)).message).toEqual([]);
    }
    const now = new Date();
    await Promise.all(instances.map((services) => services.sheetProblemMails.mailNew(now)));
    await Promise.all(instances.map((services) => services.notifier.idle()));
    const staffMails = (await readOutbox(outboxDirectory(deployment.config))).filter((mail) => mail.subject.startsWith("[Spreadsheet]"));
    expect(staffMails).toHaveLength(1);
    expect(staffMails[0]!.text).toContain("Moderation row staff-1");
    expect(staffMails[0]!.text).toContain("no message has the id no-such-message");
  });
});
