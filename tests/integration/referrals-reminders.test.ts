/**
 * The referral reminders and the term's expiry, run by the job after each store refresh,
 * here with a fake clock: each pass is given the time it runs at, days or weeks apart.
 */
import type { AppLoadContext } from "@remix-run/node";
import { beforeEach, describe, expect, it, vi } from "vitest";
import type { Agent, Referral } from "../../app/domain/workbook/tabs";
import { remindAndExpireReferrals, remindReferralsAfterRefreshes } from "../../app/server/jobs/referral-reminders.server";
import { stopServices } from "../../app/server/service-lifecycle.server";
import { referralRecord } from "../support/records";
import { insertAgent, testContext, sentMails } from "../support/services";

const DAY = 24 * 60 * 60 * 1000;
const START = new Date("2026-03-02T15:00:00.000Z");
const daysAfterStart = (days: number) => new Date(START.getTime() + days * DAY);
const iso = (date: Date) => date.toISOString();

let context: AppLoadContext;
let referring: Agent;
let receiving: Agent;

beforeEach(async () => {
  context = testContext();
  referring = await insertAgent(context, { fullName: "Maria Delgado", email: "maria@example.com", brokerage: "Sooner Homes" });
  receiving = await insertAgent(context, { fullName: "James Whitfield", email: "james@example.com", brokerage: "Lone Star Realty" });
});

/** A passes of the job at `now`, as after a store refresh. */
function pass(now: Date) {
  const { store, notifier, config, writeQueues, sendClaims } = context.services;
  return remindAndExpireReferrals({ store, notifier, config, writeQueues, claims: sendClaims }, now);
}

async function mailsTo(email: string) {
  return (await sentMails(context.services)).filter((mail) => mail.to === email);
}

function insertReferral(fields: Partial<Referral>): Promise<Referral> {
  return context.services.store.referrals.insert(referralRecord(referring, receiving, fields));
}

function stepsOf(referral: Referral): string[] {
  return context.services.store.referralEvents
    .by("referralId", referral.id)
    .map((event) => event.step)
    .sort();
}

async function addStep(referral: Referral, step: string, at: Date) {
  await context.services.store.referralEvents.insert({
    id: `${referral.id}-${step}-${at.getTime()}`,
    referralId: referral.id,
    step,
    byEmail: receiving.email,
    note: "",
    createdAt: iso(at),
  });
}

describe("the reminder of a quiet referral", () => {
  it("mails the receiving agent once a signed referral has had no step for 30 days, and records it", async () => {
    const referral = await insertReferral({ signedAt: iso(START), createdAt: iso(START) });
    expect(await pass(daysAfterStart(29))).toEqual({ reminded: 0, expired: 0 });
    expect(await mailsTo(receiving.email)).toHaveLength(0);

    expect(await pass(daysAfterStart(30))).toEqual({ reminded: 1, expired: 0 });
    const [mail] = await mailsTo(receiving.email);
    expect(mail?.subject).toBe("Reminder: your referral for J.D.");
    expect(mail?.text).toContain("Nothing has been recorded on this referral for 30 days");
    expect(mail?.text).toContain(`/referrals/${referral.id}`);
    expect(await mailsTo(referring.email)).toHaveLength(0);
    expect(context.services.store.referrals.get(referral.id)?.lastReminderAt).toBe(iso(daysAfterStart(30)));
    expect(stepsOf(referral)).toEqual(["reminder"]);
  });

  it("sends at most one reminder per referral a week, however often the job runs", async () => {
    const referral = await insertReferral({ signedAt: iso(START), createdAt: iso(START) });
    await pass(daysAfterStart(30));
    for (const day of [30, 31, 33, 36.9]) expect((await pass(daysAfterStart(day))).reminded).toBe(0);
    expect(await mailsTo(receiving.email)).toHaveLength(1);

    // A reminder is not news about the deal: a week later the referral is still quiet.
    expect((await pass(daysAfterStart(37))).reminded).toBe(1);
    expect(await mailsTo(receiving.email)).toHaveLength(2);
    expect(stepsOf(referral)).toEqual(["reminder", "reminder"]);
  });

  it("counts from the last step, not from the signing", async () => {
    const referral = await insertReferral({ signedAt: iso(START), createdAt: iso(START), status: "introduced" });
    await addStep(referral, "introduced", daysAfterStart(20));
    expect((await pass(daysAfterStart(45))).reminded).toBe(0);
    expect((await pass(daysAfterStart(50))).reminded).toBe(1);
  });

  it("leaves alone referrals not yet signed, closed or ended", async () => {
    for (const status of ["proposed", "closed", "fee_paid", "fee_received", "lost", "declined", "withdrawn", "expired"] as const)
      await insertReferral({ status, signedAt: iso(START), createdAt: iso(START) });
    expect(await pass(daysAfterStart(60))).toEqual({ reminded: 0, expired: 0 });
    expect(await mailsTo(receiving.email)).toHaveLength(0);
  });

  it("records the reminder but mails nobody who turned referral mails off", async () => {
    await context.services.store.agents.update(receiving.id, { mailOff: ["referrals"] });
    const referral = await insertReferral({ signedAt: iso(START), createdAt: iso(START) });
    expect((await pass(daysAfterStart(31))).reminded).toBe(1);
    expect(await mailsTo(receiving.email)).toHaveLength(0);
    expect(stepsOf(referral)).toEqual(["reminder"]);
  });
});

describe("the reminder before the term ends", () => {
  it("mails both parties within 14 days of the term's end, then weekly until it ends", async () => {
    const termEndsAt = daysAfterStart(100);
    const referral = await insertReferral({
      signedAt: iso(START),
      createdAt: iso(START),
      status: "under_contract",
      termEndsAt: iso(termEndsAt),
    });
    await addStep(referral, "under_contract", daysAfterStart(80));
    expect((await pass(daysAfterStart(85))).reminded).toBe(0);

    expect((await pass(daysAfterStart(86))).reminded).toBe(1);
    const [toReferring] = await mailsTo(referring.email);
    const [toReceiving] = await mailsTo(receiving.email);
    expect(toReferring?.text).toContain("The referral's term ends within 14 days");
    expect(toReceiving?.text).toContain("The referral's term ends within 14 days");
    expect(toReceiving?.text).not.toContain("for 30 days");

    expect((await pass(daysAfterStart(90))).reminded).toBe(0);
    expect((await pass(daysAfterStart(93))).reminded).toBe(1);
    expect(await mailsTo(referring.email)).toHaveLength(2);
  });
});

describe("the term's expiry", () => {
  it("expires an open pipeline referral whose term passed, appends the step and mails both parties", async () => {
    const signed = await insertReferral({ termEndsAt: iso(daysAfterStart(10)) });
    const introduced = await insertReferral({ status: "introduced", termEndsAt: iso(daysAfterStart(10)) });
    const underContract = await insertReferral({ status: "under_contract", termEndsAt: iso(daysAfterStart(10)) });
    const closed = await insertReferral({ status: "closed", termEndsAt: iso(daysAfterStart(10)) });
    // The day before, the term was about to end: a reminder, no expiry.
    expect(await pass(daysAfterStart(9))).toEqual({ reminded: 3, expired: 0 });

    expect((await pass(daysAfterStart(10))).expired).toBe(3);
    const { store } = context.services;
    for (const referral of [signed, introduced, underContract]) {
      expect(store.referrals.get(referral.id)?.status).toBe("expired");
      expect(stepsOf(referral)).toEqual(["expired", "reminder"]);
    }
    expect(store.referrals.get(closed.id)?.status).toBe("closed");
    const expiredMails = (await mailsTo(referring.email)).filter((mail) => mail.subject === "Referral expired: J.D.");
    expect(expiredMails).toHaveLength(3);
    expect((await mailsTo(receiving.email)).filter((mail) => mail.subject === "Referral expired: J.D.")).toHaveLength(3);

    // Expired is final: the next pass neither expires nor reminds it again.
    expect(await pass(daysAfterStart(60))).toEqual({ reminded: 0, expired: 0 });
  });

  it("follows a status staff corrected in the sheet: a referral staff marked closed does not expire", async () => {
    const referral = await insertReferral({ termEndsAt: iso(daysAfterStart(10)) });
    await context.services.store.referrals.update(referral.id, { status: "closed" });
    expect((await pass(daysAfterStart(11))).expired).toBe(0);
    expect(context.services.store.referrals.get(referral.id)?.status).toBe("closed");
  });
});

describe("the job", () => {
  it("runs after each timed store refresh, at the time its clock says", async () => {
    const timed = testContext({}, { STORE_REFRESH_SECONDS: "0.05" });
    const { store, notifier, config, writeQueues, sendClaims } = timed.services;
    const [maria, james] = [await insertAgent(timed, { email: "m@example.com" }), await insertAgent(timed, { email: "j@example.com" })];
    // Signed today with a year's term: only a clock 13 months on sees it expired.
    const referral = await store.referrals.insert(referralRecord(maria, james, { signedAt: iso(new Date()) }));
    const later = new Date(Date.now() + 400 * DAY);
    const job = remindReferralsAfterRefreshes({ store, notifier, config, writeQueues, claims: sendClaims }, () => later);
    try {
      store.start();
      await vi.waitFor(() => expect(store.referrals.get(referral.id)?.status).toBe("expired"), { timeout: 5_000 });
      expect(store.referralEvents.by("referralId", referral.id).map((event) => event.createdAt)).toEqual([iso(later)]);
    } finally {
      await job.stop();
      await stopServices(timed.services);
    }
  });
});
