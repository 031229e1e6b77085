/**
 * `npm run staff -- mail-log EMAIL` answers "why did this member not get that mail?": each
 * mail the notifier was given for the address, sent, held back (their setting, the throttle,
 * another instance's claim, read after its push) or not sent (refused by the provider), with
 * the SendClaims rows that name them, their settings and blocks, and the outbox.
 */
import { spawnSync } from "node:child_process";
import { afterEach, describe, expect, it, vi } from "vitest";
import { CLAIM_KEYS } from "../../app/domain/claim-keys";
import { createOutboxMailer, MailError, readOutbox, type Mail, type Mailer } from "../../app/server/mail/mailer.server";
import { createMailLog, mailLogFile, readMailLog } from "../../app/server/notifier/mail-log.server";
import { createNotifier } from "../../app/server/notifier/notifier.server";
import { outboxDirectory } from "../../app/server/service-lifecycle.server";
import type { Services } from "../../app/server/services.server";
import { runStaffCommand } from "../../scripts/lib/staff-command";
import { insertAgent, testContext } from "../support/services";

afterEach(() => vi.restoreAllMocks());

const DANA = "dana@example.com";

/** The outbox, except for mails whose subject says the provider refuses them. */
function refusingDriver(services: Services): Mailer {
  const outbox = createOutboxMailer(outboxDirectory(services.config), services.config.mailFrom);
  return {
    driver: "outbox",
    send: (mail) =>
      mail.subject.includes("refused") ? Promise.reject(new MailError("SendGrid refused the mail: status 400")) : outbox.send(mail),
  };
}

const mailTo = (subject: string): Mail => ({ to: DANA, subject, text: subject, html: `<p>${subject}</p>` });

async function setUp() {
  const context = testContext();
  const { services } = context;
  await services.store.refresh();
  const dana = await insertAgent(context, { email: DANA, fullName: "Dana Reyes", mailOff: ["digest"] });
  const other = await insertAgent(context, { email: "sam@example.com", fullName: "Sam Ortiz" });
  await services.store.blocks.insert({
    id: "b1",
    blockerEmail: other.email,
    blockedEmail: DANA,
    status: "active",
    createdAt: new Date().toISOString(),
  });
  const mailLog = createMailLog(mailLogFile(services.config), { instance: services.sendClaims.instanceId });
  const config = { ...services.config, mailRetryDelaysMs: [] };
  const notifier = createNotifier({ driver: refusingDriver(services), claims: services.sendClaims, config, mailLog });
  const member = (kind: "messages" | "digest" | "invitations") => ({ recipient: dana, kind, reason: "you are a member" });
  const staffCommand = (argv: string[]) =>
    runStaffCommand(services.store, argv, 10, undefined, {
      mailLogFile: mailLogFile(services.config),
      outboxDirectory: outboxDirectory(services.config),
      entries: () => readMailLog(mailLogFile(services.config)),
      outbox: () => readOutbox(outboxDirectory(services.config)),
    });
  return { services, dana, notifier, mailLog, member, staffCommand };
}

describe("the staff command's mail-log", () => {
  it("lists each mail to the address: sent, held back and why, refused by the provider", async () => {
    const { services, dana, notifier, mailLog, member, staffCommand } = await setUp();
    vi.spyOn(console, "error").mockImplementation(() => undefined);
    const now = new Date();
    // Another copy of the site claimed this invitation's mail first.
    const invitationKey = CLAIM_KEYS["invitation-mail"].key("inv1");
    await services.store.sendClaims.insert({
      id: "c1",
      key: invitationKey,
      instance: "other-host-1",
      outcome: "claimed",
      note: "",
      claimedAt: now.toISOString(),
    });
    notifier.enqueue({ mail: mailTo("New message from Sam"), about: "the message mail", member: member("messages") });
    notifier.enqueue({ mail: mailTo("Your weekly digest"), about: "the digest", member: member("digest") });
    notifier.enqueue(
      { mail: mailTo("Invited to respond"), about: "the invitation mail", member: member("invitations") },
      { once: invitationKey, now },
    );
    const chain = CLAIM_KEYS.message.key(`c9/${DANA}`);
    notifier.enqueue(
      { mail: mailTo("Another message"), about: "the second message mail", member: member("messages") },
      {
        now,
        throttle: { chain, lastNotifiedAt: async () => new Date(now.getTime() - 60_000).toISOString(), stamp: async () => undefined },
      },
    );
    const approval = CLAIM_KEYS.decision.key(dana.id, "approved");
    notifier.enqueue({ mail: mailTo("Approved, but refused"), about: "the approval mail" }, { once: approval, now });
    await notifier.idle();
    await mailLog.flush();

    const lines = await staffCommand(["mail-log", "Dana@Example.com"]);
    const text = lines.join("\n");
    expect(lines[0]).toBe(`${DANA}: agent ${dana.id}, Dana Reyes, approved.`);
    expect(text).toContain("Mail turned off: digest.");
    expect(text).toContain("Blocks (no mail about the other's messages or requests): blocked by sam@example.com.");
    const logLine = (subject: string) =>
      lines.find((line) => line.includes(`"${subject}"`) && line.startsWith("  20")) ?? `no line for ${subject}`;
    expect(logLine("New message from Sam")).toMatch(/ sent {2}"New message from Sam"/);
    expect(logLine("Your weekly digest")).toContain("held back: their setting (digest mail off)");
    expect(logLine("Invited to respond")).toContain(
      `held back: claimed by another instance, or sent before  "Invited to respond"  (the invitation mail; ${invitationKey}; `,
    );
    expect(logLine("Another message")).toContain("held back: throttled (a mail of this series went within 10 minutes)");
    expect(logLine("Approved, but refused")).toContain("not sent: SendGrid refused the mail: status 400");
    // The claims that name her: the refused approval's claim and its failed row, with the provider's answer.
    expect(text).toMatch(
      new RegExp(`${approval}  claimed  by ${services.sendClaims.instanceId}  \\(the mail telling an applicant of staff's decision\\)`),
    );
    expect(text).toContain(
      `${approval}  failed  by ${services.sendClaims.instanceId}  (the mail telling an applicant of staff's decision): SendGrid refused the mail: status 400`,
    );
    // The one mail that went is in the outbox.
    expect(text).toMatch(/Outbox \(.*\), newest first:\n {2}\S+ {2}"New message from Sam"/);
    expect(lines.filter((line) => line.includes('"New message from Sam"'))).toHaveLength(2);
  });

  it("says so for an address with no mail, and for one that is no member's", async () => {
    const { staffCommand } = await setUp();
    const lines = await staffCommand(["mail-log", "nobody@example.com"]);
    expect(lines[0]).toBe("nobody@example.com is no member's address (staff, a broker, or unknown): member settings do not apply.");
    expect(lines.join("\n")).toMatch(/Mail log \(.*mail-log\.jsonl\): no mail to nobody@example\.com\./);
    expect(lines).toContain("SendClaims: no row names them.");
    await expect(staffCommand(["mail-log"])).rejects.toThrow("npm run staff -- mail-log EMAIL");
  });

  it("runs as npm run staff -- mail-log EMAIL on the store and the data directory", { timeout: 60_000 }, async () => {
    const { services, notifier, mailLog, member } = await setUp();
    notifier.enqueue({ mail: mailTo("New message from Sam"), about: "the message mail", member: member("messages") });
    await notifier.idle();
    await mailLog.flush();
    await services.store.stop();
    const run = spawnSync("npx", ["tsx", "scripts/staff.ts", "mail-log", DANA], {
      encoding: "utf8",
      env: { ...process.env, NODE_ENV: "test", DATA_DIR: services.config.dataDir, SUPPORT_EMAIL: "support@example.test" },
    });
    expect(run.stderr).toBe("");
    expect(run.stdout).toContain(`${DANA}: agent `);
    expect(run.stdout).toMatch(/ sent {2}"New message from Sam"/);
  });
});
