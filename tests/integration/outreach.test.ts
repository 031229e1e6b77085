/**
 * Invitations to join the network (docs/decisions/0082): the /invite form and its refusals,
 * the one mail with its footer, the signed registration link that fills in and credits, what
 * became of each invitation, the one reminder, and two instances inviting one address at once.
 */
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import type { AppLoadContext } from "@remix-run/node";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import {
  OUTREACH_MESSAGES,
  OUTREACH_PER_MEMBER_PER_DAY,
  OUTREACH_PER_MEMBER_PER_MONTH,
  alreadyMemberMessage,
} from "../../app/domain/outreach";
import type { Agent, OutreachRow } from "../../app/domain/workbook/tabs";
import { action as completeProfile } from "../../app/routes/complete-profile";
import { action as inviteAction, loader as inviteLoader } from "../../app/routes/invite";
import { action as register, loader as registerLoader } from "../../app/routes/register";
import { loadConfig } from "../../app/server/config.server";
import { readOutbox } from "../../app/server/mail/mailer.server";
import { inviteColleagues, outreachLink } from "../../app/server/outreach/outreach.server";
import { readStopInvitingToken } from "../../app/server/outreach/stop-inviting.server";
import { suppressAddress } from "../../app/server/outreach/suppression.server";
import { createServices, outboxDirectory, stopServices } from "../../app/server/service-lifecycle.server";
import type { Services } from "../../app/server/services.server";
import { newId } from "../../app/server/store/store.server";
import { useFakeSheets } from "../support/fake-sheets";
import { insertAgent, postForm, sentMails, testContext } from "../support/services";
import { get, outcome, post, sessionCookie, type Rejection } from "./requests-support";

const DAY = 24 * 60 * 60 * 1000;

let context: AppLoadContext;
let maria: Agent;
let mariaCookie: string;

beforeEach(async () => {
  context = testContext();
  await context.services.store.refresh();
  maria = await insertAgent(context, { fullName: "Maria Delgado", email: "maria@example.com" });
  mariaCookie = await sessionCookie(context, maria);
});

function colleagueFields(rows: readonly Partial<Record<"name" | "email" | "licenseNumber" | "licenseState", string>>[], note?: string) {
  const fields: Record<string, string> = note ? { note } : {};
  rows.forEach((row, index) => {
    for (const [key, value] of Object.entries(row)) fields[`colleagues[${index}].${key}`] = value;
  });
  return fields;
}

function inviteForm(fields: Record<string, string>, cookie = mariaCookie) {
  return outcome(() => inviteAction({ request: post("/invite", cookie, fields), context, params: {} }));
}

async function mailsTo(email: string) {
  return (await sentMails(context.services)).filter((mail) => mail.to === email);
}

function outreachRows(): readonly OutreachRow[] {
  return context.services.store.outreach.all();
}

/** A row as an earlier invitation left it, `daysAgo` days back. */
function pastInvitation(fields: Partial<OutreachRow> & { daysAgo: number }): Promise<OutreachRow> {
  const { daysAgo, ...rest } = fields;
  return context.services.store.outreach.insert({
    id: newId(),
    inviterId: maria.id,
    name: "Earlier Colleague",
    email: `earlier-${newId()}@example.com`,
    licenseNumber: undefined,
    licenseState: "",
    note: undefined,
    requestId: undefined,
    createdAt: new Date(Date.now() - daysAgo * DAY).toISOString(),
    openedAt: undefined,
    remindedAt: undefined,
    agentId: undefined,
    ...rest,
  });
}

describe("inviting colleagues", () => {
  it("mails each typed address once, in the member's name, with why, a don't-invite link and its one-click headers", async () => {
    const answer = (await inviteForm(
      colleagueFields(
        [
          { name: "Sam Ortiz", email: "Sam.Ortiz@Example.com", licenseNumber: "0612345", licenseState: "TX" },
          { name: "Lee Park", email: "lee@example.com" },
          {},
        ],
        "You would love the Big Lake requests.",
      ),
    )) as Response;
    expect(answer.status).toBe(302);
    expect(answer.headers.get("Location")).toBe("/invite");

    expect(outreachRows().map((row) => [row.email, row.name, row.inviterId, row.licenseNumber, row.licenseState])).toEqual([
      ["sam.ortiz@example.com", "Sam Ortiz", maria.id, "0612345", "TX"],
      ["lee@example.com", "Lee Park", maria.id, undefined, ""],
    ]);
    const [mail, ...others] = await mailsTo("sam.ortiz@example.com");
    expect(others).toHaveLength(0);
    expect(mail!.subject).toBe("Maria Delgado invites you to Red River Referrals");
    expect(mail!.replyTo).toBe("maria@example.com");
    expect(mail!.text).toContain("You would love the Big Lake requests.");
    expect(mail!.text).toContain("You get this mail because Maria Delgado, a member of Red River Referrals, typed your address");
    const stop = /Don't invite me again: (\S+)/.exec(mail!.text)?.[1];
    expect(readStopInvitingToken(context.services.config.sessionSecrets, new URL(stop!).searchParams.get("token"))).toBe(
      "sam.ortiz@example.com",
    );
    expect(mail!.headers).toMatchObject({ "List-Unsubscribe": `<${stop}>`, "List-Unsubscribe-Post": "List-Unsubscribe=One-Click" });
    expect(mail!.text).toMatch(/http:\/\/localhost\/register\?invitation=\S+/);
    expect(await mailsTo("lee@example.com")).toHaveLength(1);

    const page = (await inviteLoader({ request: get("/invite", mariaCookie), context, params: {} })).data;
    expect(page.sent.map((sent) => [sent.email, sent.outcome, sent.canRemind])).toEqual([
      ["sam.ortiz@example.com", "sent", false],
      ["lee@example.com", "sent", false],
    ]);
  });

  it("are refused, input kept, in production until the operator's postal address is set", async () => {
    const services = { ...context.services, config: { ...context.services.config, isProduction: true, postalAddress: undefined } };
    const fields = colleagueFields([{ name: "Sam Ortiz", email: "sam@example.com" }]);
    const answer = (await outcome(() =>
      inviteAction({ request: post("/invite", mariaCookie, fields), context: { ...context, services }, params: {} }),
    )) as Rejection;
    expect(answer.init?.status).toBe(503);
    expect(answer.data.error).toMatchObject({ "": [OUTREACH_MESSAGES.unavailable] });
    expect(answer.data.initialValue).toMatchObject({ colleagues: [{ name: "Sam Ortiz", email: "sam@example.com" }] });
    expect(outreachRows()).toHaveLength(0);
    expect(await sentMails(context.services)).toHaveLength(0);
  });

  it("refuses a malformed or duplicate address beside its field, keeps the input and mails nobody", async () => {
    const answer = (await inviteForm(
      colleagueFields([
        { name: "Sam Ortiz", email: "sam@example" },
        { name: "Lee Park", email: "lee@example.com" },
        { name: "Lee Again", email: "LEE@example.com" },
        { email: "nameless@example.com" },
      ]),
    )) as Rejection;
    expect(answer.init?.status).toBe(400);
    expect(answer.data.error).toMatchObject({
      "colleagues[0].email": ["Please enter a valid email address"],
      "colleagues[2].email": [OUTREACH_MESSAGES.duplicate],
      "colleagues[3].name": [OUTREACH_MESSAGES.nameRequired],
    });
    expect(answer.data.initialValue).toMatchObject({ colleagues: [{ email: "sam@example" }, {}, { name: "Lee Again" }, {}] });
    const empty = (await inviteForm(colleagueFields([{}, {}]))) as Rejection;
    expect(empty.init?.status).toBe(400);
    expect(empty.data.error).toMatchObject({ colleagues: [OUTREACH_MESSAGES.noColleague] });
    expect(outreachRows()).toHaveLength(0);
    expect(await sentMails(context.services)).toHaveLength(0);
  });

  it("answers 'they are already here' for a member's address, 'we can't invite' for a suppressed one, and mails neither", async () => {
    await insertAgent(context, { fullName: "Dana Reyes", email: "dana@example.com", status: "pending" });
    await suppressAddress(context.services, { email: "gone@example.com", reason: "asked", note: "", now: new Date() });
    const answer = (await inviteForm(
      colleagueFields([
        { name: "Dana Reyes", email: "dana@example.com" },
        { name: "Gone Person", email: "Gone@example.com" },
        { name: "Fresh Face", email: "fresh@example.com" },
      ]),
    )) as Rejection;
    expect(answer.init?.status).toBe(400);
    expect(answer.data.error).toEqual({
      "colleagues[0].email": [alreadyMemberMessage("Dana Reyes")],
      "colleagues[1].email": [OUTREACH_MESSAGES.suppressed],
    });
    // The suppressed address's message says no more than that.
    expect(OUTREACH_MESSAGES.suppressed).toBe("We can't invite this address.");
    expect(answer.data.initialValue).toMatchObject({
      colleagues: [{ name: "Dana Reyes" }, { email: "Gone@example.com" }, { name: "Fresh Face" }],
    });
    expect(outreachRows()).toHaveLength(0);
    expect(await sentMails(context.services)).toHaveLength(0);
  });

  it("invites an address once a month, whoever asks", async () => {
    await pastInvitation({ email: "sam@example.com", daysAgo: 29 });
    await pastInvitation({ email: "old@example.com", daysAgo: 31 });
    const ann = await insertAgent(context, { fullName: "Ann Archer", email: "ann@example.com" });
    const answer = (await inviteForm(
      colleagueFields([{ name: "Sam", email: "sam@example.com" }]),
      await sessionCookie(context, ann),
    )) as Rejection;
    expect(answer.init?.status).toBe(400);
    expect(answer.data.error).toEqual({ "colleagues[0].email": [OUTREACH_MESSAGES.recentlyInvited] });
    const again = (await inviteForm(colleagueFields([{ name: "Old", email: "old@example.com" }]))) as Response;
    expect(again.status).toBe(302);
    expect(await mailsTo("sam@example.com")).toHaveLength(0);
    expect(await mailsTo("old@example.com")).toHaveLength(1);
  });

  it("holds a member to 20 invitations a day and 100 in 30 days", async () => {
    for (let index = 0; index < OUTREACH_PER_MEMBER_PER_DAY - 1; index += 1) await pastInvitation({ daysAgo: 0.5 });
    const over = (await inviteForm(
      colleagueFields([
        { name: "One", email: "one@example.com" },
        { name: "Two", email: "two@example.com" },
      ]),
    )) as Rejection;
    expect(over.init?.status).toBe(429);
    expect(over.data.error).toMatchObject({ "": [OUTREACH_MESSAGES.overDailyLimit] });
    expect(over.data.initialValue).toMatchObject({ colleagues: [{ name: "One" }, { name: "Two" }] });
    expect(((await inviteForm(colleagueFields([{ name: "One", email: "one@example.com" }]))) as Response).status).toBe(302);

    for (let index = OUTREACH_PER_MEMBER_PER_DAY; index < OUTREACH_PER_MEMBER_PER_MONTH; index += 1) await pastInvitation({ daysAgo: 10 });
    const later = new Date(Date.now() + 2 * DAY);
    const result = await inviteColleagues(context.services, {
      inviter: maria,
      colleagues: [{ name: "Three", email: "three@example.com" }],
      note: undefined,
      now: later,
    });
    expect(result).toMatchObject({ ok: false, status: 429, formErrors: [OUTREACH_MESSAGES.overMonthlyLimit] });
    expect(await mailsTo("three@example.com")).toHaveLength(0);
  });
});

describe("the registration link", { timeout: 30_000 }, () => {
  async function invitedRow(): Promise<{ row: OutreachRow; link: string }> {
    await inviteForm(colleagueFields([{ name: "Sam Ortiz", email: "sam@example.com" }]));
    const [mail] = await mailsTo("sam@example.com");
    const link = /(http:\/\/localhost\/register\?invitation=\S+)/.exec(mail!.text)![1]!;
    return { row: outreachRows()[0]!, link };
  }

  it("opens registration with the name and e-mail filled in, stamps it opened, and credits the member", async () => {
    const { row, link } = await invitedRow();
    const page = (await registerLoader({ request: get(new URL(link).pathname + new URL(link).search, ""), context, params: {} })) as {
      previous: { fullName: string; email: string };
      invitation: { token: string; inviterName: string };
    };
    expect(page.previous).toMatchObject({ fullName: "Sam Ortiz", email: "sam@example.com" });
    expect(page.invitation.inviterName).toBe("Maria Delgado");
    expect(context.services.store.outreach.get(row.id)?.openedAt).toBeDefined();
    let list = (await inviteLoader({ request: get("/invite", mariaCookie), context, params: {} })).data;
    expect(list.sent[0]?.outcome).toBe("opened");

    const started = (await outcome(() =>
      register({
        request: postForm("/register", {
          fullName: "Sam Ortiz",
          email: "sam@example.com",
          phone: "(214) 555-0100",
          state: "TX",
          city: "Big Lake",
          invitation: page.invitation.token,
        }),
        context,
        params: {},
      }),
    )) as Response;
    const cookie = (started.headers.get("Set-Cookie") ?? "").split(";")[0]!;
    const body = new FormData();
    const profile = {
      password: "Correct-Horse-42",
      confirmPassword: "Correct-Horse-42",
      licenseNumber: "0654321",
      licenseState: "TX",
      brokerage: "Lone Star Realty",
      brokerLicenseNumber: "9001234",
      brokerEmail: "broker@lonestar.example",
      specialties: "Residential",
    };
    for (const [name, value] of Object.entries(profile)) body.append(name, value);
    await outcome(() =>
      completeProfile({
        request: new Request("http://localhost/complete-profile", { method: "POST", body, headers: { Cookie: cookie } }),
        context,
        params: {},
      }),
    );
    const sam = context.services.store.agents.by("email", "sam@example.com")[0]!;
    expect(sam).toMatchObject({ invitedBy: maria.id, status: "pending", membershipType: "founder" });
    expect(context.services.store.outreach.get(row.id)?.agentId).toBe(sam.id);
    list = (await inviteLoader({ request: get("/invite", mariaCookie), context, params: {} })).data;
    expect(list.sent[0]?.outcome).toBe("registered");
    await context.services.store.agents.update(sam.id, { status: "approved" });
    list = (await inviteLoader({ request: get("/invite", mariaCookie), context, params: {} })).data;
    expect(list.sent[0]?.outcome).toBe("approved");
  });

  it("refuses a forged or expired link with 400 and the page's message, filling nothing in", async () => {
    const { row, link } = await invitedRow();
    const token = new URL(link).searchParams.get("invitation")!;
    const [carried, signature] = token.split(".");
    const forgedToken = `${Buffer.from(JSON.stringify(["someone-else", 9_999_999_999])).toString("base64url")}.${signature}`;
    const expired = outreachLink(context.services, row, new Date(Date.now() - 31 * DAY));
    for (const url of [
      `/register?invitation=${encodeURIComponent(forgedToken)}`,
      `/register?invitation=${carried}.x`,
      new URL(expired).pathname + new URL(expired).search,
    ]) {
      const answer = (await registerLoader({ request: get(url, ""), context, params: {} })) as unknown as {
        init: ResponseInit;
        data: { invitation: null; invitationRefused: boolean; previous?: unknown };
      };
      expect(answer.init.status).toBe(400);
      expect(answer.data).toMatchObject({ invitation: null, invitationRefused: true });
      expect(answer.data.previous).toBeUndefined();
    }
    expect(OUTREACH_MESSAGES.linkInvalid).toMatch(/not valid or has expired/);
  });
});

describe("the one reminder", () => {
  function remind(id: string) {
    return outcome(() =>
      inviteAction({ request: post("/invite?remind", mariaCookie, { intent: "remind", outreachId: id }), context, params: {} }),
    );
  }

  it("goes once, 7 days after the invitation, with a fresh link, and not before", async () => {
    const early = await pastInvitation({ email: "early@example.com", daysAgo: 6 });
    const due = await pastInvitation({ email: "due@example.com", daysAgo: 8 });
    const refused = (await remind(early.id)) as Rejection;
    expect(refused.init?.status).toBe(409);
    expect(refused.data.error).toMatchObject({ "": [OUTREACH_MESSAGES.reminderNotDue] });
    expect(((await remind(due.id)) as Response).status).toBe(302);
    expect(((await remind(due.id)) as Rejection).init?.status).toBe(409);
    const mails = await mailsTo("due@example.com");
    expect(mails.map((mail) => mail.subject)).toEqual(["Reminder: Maria Delgado invites you to Red River Referrals"]);
    expect(mails[0]!.headers).toMatchObject({ "List-Unsubscribe-Post": "List-Unsubscribe=One-Click" });
    expect(await mailsTo("early@example.com")).toHaveLength(0);
  });

  it("is not sent for another member's invitation", async () => {
    const ann = await insertAgent(context, { fullName: "Ann Archer", email: "ann@example.com" });
    const hers = await pastInvitation({ inviterId: ann.id, email: "hers@example.com", daysAgo: 8 });
    expect(((await remind(hers.id)) as Rejection).init?.status).toBe(404);
    expect(await mailsTo("hers@example.com")).toHaveLength(0);
  });
});

const { fake } = useFakeSheets();
const running: Services[] = [];
afterEach(async () => {
  await Promise.all(running.splice(0).map((services) => stopServices(services)));
});

describe.each(["sqlite", "sheets"] as const)("two instances on %s", { timeout: 60_000 }, (driver) => {
  it("inviting one address at the same moment send one mail and store one row", async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), "outreach-"));
    const spreadsheetId = `outreach-${newId()}`;
    if (driver === "sheets") fake.spreadsheet(spreadsheetId);
    const sheets =
      driver === "sheets" ? { GOOGLE_SHEETS_ID: spreadsheetId, GOOGLE_SHEETS_API_URL: fake.url, SHEETS_WRITE_CALLS_PER_MINUTE: "300" } : {};
    const config = loadConfig({ NODE_ENV: "test", DATA_DIR: dataDir, SUPPORT_EMAIL: "support@example.test", ...sheets });
    const all = [createServices(config), createServices(config)] as const;
    running.push(...all);
    await all[0].store.refresh();
    await all[1].store.refresh();
    const now = new Date();
    const inviters = await Promise.all(
      all.map((services, index) =>
        services.store.agents.insert({
          ...maria,
          id: `inviter-${index}`,
          email: `inviter${index}@example.com`,
          fullName: `Inviter ${index}`,
        }),
      ),
    );
    await all[0].store.refresh();
    await all[1].store.refresh();
    const results = await Promise.all(
      all.map((services, index) =>
        inviteColleagues(services, {
          inviter: inviters[index]!,
          colleagues: [{ name: "Sam", email: "sam@example.com" }],
          note: undefined,
          now,
        }),
      ),
    );
    expect(results.filter((result) => result.ok)).toHaveLength(1);
    expect(results.find((result) => !result.ok)).toMatchObject({
      status: 409,
      fieldErrors: { "colleagues[0].email": [OUTREACH_MESSAGES.recentlyInvited] },
    });
    await Promise.all(all.map((services) => services.notifier.idle()));
    const mails = (await readOutbox(outboxDirectory(config))).filter((mail) => mail.to === "sam@example.com");
    expect(mails).toHaveLength(1);
    expect((await all[1].store.outreach.readStored()).filter((row) => row.email === "sam@example.com")).toHaveLength(1);
  });
});
