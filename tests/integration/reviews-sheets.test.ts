/**
 * Reviews on the Sheets driver (the fake Sheets server), with two app instances on one
 * workbook: the double-blind rule read back by the other instance, one review per party
 * when both instances take one at the same moment, a non-party refused, a review staff hid
 * in the sheet, a reported review, and the invitations mailed once.
 */
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import type { AppLoadContext } from "@remix-run/node";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { agentIdOf } from "../../app/domain/agent-id";
import { reviewSchemas } from "../../app/domain/review-form";
import type { Agent } from "../../app/domain/workbook/tabs";
import { loader as profileLoader } from "../../app/routes/agent.$agentId";
import { action as reviewAction, loader as reviewLoader } from "../../app/routes/referrals.$id.review";
import { action as reportAction } from "../../app/routes/report";
import { loadConfig } from "../../app/server/config.server";
import { inviteToReviewEndedReferrals } from "../../app/server/jobs/review-invitations.server";
import { readOutbox } from "../../app/server/mail/mailer.server";
import { saveReview } from "../../app/server/reviews/reviews.server";
import { createServices, outboxDirectory, stopServices } from "../../app/server/service-lifecycle.server";
import type { Services } from "../../app/server/services.server";
import { newId } from "../../app/server/store/store.server";
import { useFakeSheets } from "../support/fake-sheets";
import { agentRecord, referralRecord } from "../support/records";
import { get, outcome, post, sessionCookie } from "./requests-support";

const { fake } = useFakeSheets();
const running: Services[] = [];
afterAll(async () => {
  await Promise.all(running.splice(0).map((services) => stopServices(services)));
});

/** Two instances on one new spreadsheet, shared by the tests (making one is slow); Ann, Bob and Cat are members. */
async function openWorkbook() {
  const dataDir = mkdtempSync(path.join(tmpdir(), "reviews-sheets-"));
  const spreadsheetId = `reviews-${newId()}`;
  fake.spreadsheet(spreadsheetId);
  const config = loadConfig({
    NODE_ENV: "test",
    DATA_DIR: dataDir,
    SUPPORT_EMAIL: "support@example.test",
    GOOGLE_SHEETS_ID: spreadsheetId,
    GOOGLE_SHEETS_API_URL: fake.url,
    // The quota's pacing is tested in store-sheets-quota; here it would only make the test wait.
    SHEETS_WRITE_CALLS_PER_MINUTE: "300",
  });
  const [first, second] = [createServices(config), createServices(config)] as const;
  running.push(first, second);
  await first.store.refresh();
  const insert = (fullName: string) =>
    first.store.agents.insert(agentRecord({ fullName, email: `${fullName.split(" ")[0]!.toLowerCase()}@example.com` }));
  const ann = await insert("Ann Archer");
  const bob = await insert("Bob Brooks");
  const cat = await insert("Cat Cole");
  await second.store.refresh();
  const context: AppLoadContext = { services: first, nonce: "test-nonce" };
  const cookies = {
    ann: await sessionCookie(context, ann),
    bob: await sessionCookie(context, bob),
    cat: await sessionCookie(context, cat),
  };
  const outbox = async () => {
    await Promise.all([first.notifier.idle(), second.notifier.idle()]);
    return readOutbox(outboxDirectory(config));
  };
  return { first, second, context, ann, bob, cat, cookies, outbox };
}

let shared: Awaited<ReturnType<typeof openWorkbook>>;
beforeAll(async () => {
  shared = await openWorkbook();
}, 60_000);

/** The shared workbook with a new referral from Ann to Bob that ended with the fee received, read by both instances. */
async function workbook() {
  const referral = await shared.first.store.referrals.insert(referralRecord(shared.ann, shared.bob, { status: "fee_received" }));
  await shared.second.store.refresh();
  return { ...shared, referral };
}

type Workbook = Awaited<ReturnType<typeof workbook>>;

function write(w: Workbook, who: "ann" | "bob", text: string) {
  const aspect: Record<string, string> = who === "ann" ? { feeAsAgreed: "5" } : { referralQuality: "4" };
  const fields = { intent: "review", overall: "5", communication: "4", clientCare: "5", text, ...aspect };
  return outcome(() =>
    reviewAction({
      request: post(`/referrals/${w.referral.id}/review`, w.cookies[who], fields),
      context: w.context,
      params: { id: w.referral.id },
    }),
  );
}

async function theirs(w: Workbook, who: "ann" | "bob" | "cat") {
  const shown = await outcome(() =>
    reviewLoader({ request: get(`/referrals/${w.referral.id}/review`, w.cookies[who]), context: w.context, params: { id: w.referral.id } }),
  );
  if (shown instanceof Response) return shown.status;
  return (shown as { data: { review: { theirs: { text: string } | null } } }).data.review.theirs?.text ?? null;
}

async function profileTexts(w: Workbook, of: Agent): Promise<string[]> {
  const id = agentIdOf(of);
  const profile = (await profileLoader({ request: get(`/agent/${id}`, w.cookies.cat), context: w.context, params: { agentId: id } })) as {
    reviews: { text: string }[];
  };
  return profile.reviews.map((shown) => shown.text);
}

const statusOf = (result: unknown) =>
  result instanceof Response ? result.status : (result as { init?: { status?: number } }).init?.status;

describe("reviews on the Sheets store", { timeout: 60_000 }, () => {
  it("keeps each review blind until both are written, then both publish; the other instance reads the same rows", async () => {
    const w = await workbook();
    expect(statusOf(await write(w, "ann", '=HYPERLINK("http://x") paid on time'))).toBe(302);
    expect(await theirs(w, "bob")).toBeNull();
    expect(await profileTexts(w, w.bob)).not.toContain('=HYPERLINK("http://x") paid on time');
    expect(statusOf(await write(w, "bob", "Ready buyer"))).toBe(302);
    expect(await theirs(w, "bob")).toBe('=HYPERLINK("http://x") paid on time');
    expect(await theirs(w, "ann")).toBe("Ready buyer");
    expect(await profileTexts(w, w.bob)).toContain('=HYPERLINK("http://x") paid on time');

    await w.second.store.refresh();
    const rowsOf = (services: Services) =>
      [...services.store.reviews.by("referralId", w.referral.id)].sort((a, b) => a.reviewerEmail.localeCompare(b.reviewerEmail));
    expect(rowsOf(w.second)).toHaveLength(2);
    expect(rowsOf(w.second)).toEqual(rowsOf(w.first));
  });

  it("stores one review when the same party's review is taken on both instances at the same moment", async () => {
    const w = await workbook();
    const input = (key: string) =>
      reviewSchemas.referralQuality.parse({
        intent: "review",
        idempotencyKey: key,
        overall: "4",
        communication: "4",
        clientCare: "4",
        referralQuality: "4",
      });
    const now = new Date();
    const results = await Promise.all([
      saveReview(w.first, { referral: w.referral, party: "receiving", input: input("11111111-1111-4111-8111-111111111111"), now }),
      saveReview(w.second, { referral: w.referral, party: "receiving", input: input("22222222-2222-4222-8222-222222222222"), now }),
    ]);
    expect(results.filter((result) => result.ok)).toHaveLength(1);
    await w.first.store.refresh();
    const rows = w.first.store.reviews.by("referralId", w.referral.id);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ reviewerEmail: "bob@example.com", reviewedSide: "referring" });
  });

  it("refuses a member who is not a party with 404", async () => {
    const w = await workbook();
    expect(await theirs(w, "cat")).toBe(404);
  });

  it("takes off the profile a review staff hid in the sheet, and stores a member's report of one", async () => {
    const w = await workbook();
    await write(w, "ann", "Ann on Bob, later hidden");
    await write(w, "bob", "Bob on Ann, kept");
    const annReview = w.first.store.reviews.by("referralId", w.referral.id).find((row) => row.reviewerEmail === "ann@example.com")!;
    expect(await profileTexts(w, w.bob)).toContain("Ann on Bob, later hidden");

    const reportUrl = `/report?kind=review&id=${annReview.id}`;
    const report = await outcome(() =>
      reportAction({ request: post(reportUrl, w.cookies.bob, { reason: "other", note: "=1+1" }), context: w.context, params: {} }),
    );
    expect(statusOf(report)).toBe(302);
    await w.second.store.refresh();
    expect(w.second.store.reports.all()).toContainEqual(expect.objectContaining({ kind: "review", itemId: annReview.id, note: "=1+1" }));

    // Staff set the status cell: here through the other instance's store, which writes the sheet as an edit would.
    await w.second.store.reviews.update(annReview.id, { status: "hidden" });
    await w.first.store.refresh();
    expect(await profileTexts(w, w.bob)).not.toContain("Ann on Bob, later hidden");
    expect(await profileTexts(w, w.ann)).toContain("Bob on Ann, kept");
  });

  it("invites each party once however many instances run the pass", async () => {
    const w = await workbook();
    const now = new Date();
    inviteToReviewEndedReferrals(w.first, now);
    inviteToReviewEndedReferrals(w.second, now);
    const mails = (await w.outbox()).filter((mail) => mail.text.includes(`/referrals/${w.referral.id}/review`));
    expect(mails.map((mail) => mail.to).sort()).toEqual(["ann@example.com", "bob@example.com"]);
  });
});
