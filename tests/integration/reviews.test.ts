/**
 * Double-blind reviews through the routes on the SQLite store: what each party's page is
 * sent before and after publication, one review per party, who may review at all, replies,
 * staff hiding, reports, the dashboard's list and the invitation mails.
 */
import type { AppLoadContext } from "@remix-run/node";
import { afterEach, describe, expect, it } from "vitest";
import { agentIdOf } from "../../app/domain/agent-id";
import type { Agent, Referral } from "../../app/domain/workbook/tabs";
import { loader as profileLoader } from "../../app/routes/agent.$agentId";
import { loader as dashboardLoader } from "../../app/routes/member-dashboard";
import { action as referralAction } from "../../app/routes/referrals.$id._index/route";
import { NOTICES } from "../../app/domain/notices";
import { action as reviewAction, loader as reviewLoader } from "../../app/routes/referrals.$id.review";
import { action as reportAction, loader as reportLoader } from "../../app/routes/report";
import { action as blockAction } from "../../app/routes/settings.blocked";
import { inviteToReviewEndedReferrals } from "../../app/server/jobs/review-invitations.server";
import { REVIEW_REFUSALS } from "../../app/server/reviews/reviews.server";
import type { Store } from "../../app/server/store/store.server";
import { agentRecord, referralRecord } from "../support/records";
import { sentMails, testContext } from "../support/services";
import { get, outcome, post, sessionCookie, type Rejection } from "./requests-support";

const opened: Store[] = [];
afterEach(async () => {
  await Promise.all(opened.splice(0).map((store) => store.stop()));
});

const DAY_MS = 86_400_000;

type Who = "ann" | "bob" | "cat";
type Network = { context: AppLoadContext; agents: Record<Who, Agent>; cookies: Record<Who, string>; referral: Referral };

/** Ann referred a client to Bob; the referral ended with the fee received. Cat is another member. */
async function network(fields: Partial<Referral> = { status: "fee_received" }, env: Record<string, string> = {}): Promise<Network> {
  const context = testContext({}, env);
  opened.push(context.services.store);
  await context.services.store.refresh();
  const insert = (fullName: string, extra: Partial<Agent> = {}) =>
    context.services.store.agents.insert(
      agentRecord({ fullName, email: `${fullName.split(" ")[0]!.toLowerCase()}@example.com`, ...extra }),
    );
  const agents = { ann: await insert("Ann Archer"), bob: await insert("Bob Brooks"), cat: await insert("Cat Cole") };
  const referral = await context.services.store.referrals.insert(referralRecord(agents.ann, agents.bob, fields));
  const cookies = {
    ann: await sessionCookie(context, agents.ann),
    bob: await sessionCookie(context, agents.bob),
    cat: await sessionCookie(context, agents.cat),
  };
  return { context, agents, cookies, referral };
}

const path = (n: Network) => `/referrals/${n.referral.id}/review`;

function review(fields: Record<string, string> = {}) {
  return { intent: "review", overall: "4", communication: "5", clientCare: "4", text: "Kept me posted.", ...fields };
}

/** Ann reviews Bob, the receiving side (the fee); Bob reviews Ann, the referring side (the referral's quality). */
function write(n: Network, who: "ann" | "bob", fields: Record<string, string> = {}) {
  const aspect: Record<string, string> = who === "ann" ? { feeAsAgreed: "5" } : { referralQuality: "3" };
  return outcome(() =>
    reviewAction({
      request: post(path(n), n.cookies[who], review({ ...aspect, ...fields })),
      context: n.context,
      params: { id: n.referral.id },
    }),
  );
}

type ReviewPage = {
  notice: string | null;
  review: {
    mine: { text: string; hidden: boolean } | null;
    theirs: { text: string; reply: string | null } | null;
    published: boolean;
    canWrite: boolean;
  };
};

async function page(n: Network, who: Who): Promise<ReviewPage> {
  return (await reviewLoader({ request: get(path(n), n.cookies[who]), context: n.context, params: { id: n.referral.id } }))
    .data as ReviewPage;
}

async function profileTexts(n: Network, viewer: Who, of: Agent): Promise<string[]> {
  const id = agentIdOf(of);
  const profile = (await profileLoader({
    request: get(`/agent/${id}`, n.cookies[viewer]),
    context: n.context,
    params: { agentId: id },
  })) as {
    reviews: { text: string }[];
  };
  return profile.reviews.map((shown) => shown.text);
}

function statusOf(result: unknown): number | undefined {
  if (result instanceof Response) return result.status;
  return (result as Rejection).init?.status ?? undefined;
}

function formErrors(result: unknown): string[] {
  return (result as Rejection).data.error?.[""] ?? [];
}

/** Moves the stored reviews' times back, as if they had been written `days` ago. */
async function age(n: Network, days: number) {
  for (const row of n.context.services.store.reviews.by("referralId", n.referral.id))
    await n.context.services.store.reviews.update(row.id, { submittedAt: new Date(Date.now() - days * DAY_MS).toISOString() });
}

describe("the double-blind rule", () => {
  it("sends neither party the other's review until both have written one, then publishes both at once", async () => {
    const n = await network();
    const written = (await write(n, "ann", { text: "Ann on Bob: fee paid on time" })) as Response;
    expect(statusOf(written)).toBe(302);
    // Back to the page's own address; "Saved." rides in the flash cookie, shown by the next load only.
    expect(written.headers.get("Location")).toBe(path(n));
    const flash = written.headers.get("Set-Cookie")?.split(";")[0];
    const request = get(path(n), `${n.cookies.ann}; ${flash}`);
    const shown = await reviewLoader({ request, context: n.context, params: { id: n.referral.id } });
    expect(shown.data.notice).toBe(NOTICES.reviewSaved);
    expect((await page(n, "ann")).notice).toBeNull();

    const bobBefore = await page(n, "bob");
    expect(bobBefore.review).toMatchObject({ theirs: null, mine: null, published: false, canWrite: true });
    expect(JSON.stringify(bobBefore)).not.toContain("Ann on Bob");
    expect((await page(n, "ann")).review).toMatchObject({ mine: { text: "Ann on Bob: fee paid on time" }, theirs: null, published: false });
    expect(await profileTexts(n, "cat", n.agents.bob)).toEqual([]);

    // Ann may still change hers while it is blind.
    expect(statusOf(await write(n, "ann", { text: "Ann on Bob: fee paid early" }))).toBe(302);
    expect(statusOf(await write(n, "bob", { text: "Bob on Ann: a ready buyer" }))).toBe(302);

    expect((await page(n, "bob")).review).toMatchObject({
      theirs: { text: "Ann on Bob: fee paid early" },
      published: true,
      canWrite: false,
    });
    expect((await page(n, "ann")).review).toMatchObject({
      theirs: { text: "Bob on Ann: a ready buyer" },
      published: true,
      canWrite: false,
    });
    expect(await profileTexts(n, "cat", n.agents.bob)).toEqual(["Ann on Bob: fee paid early"]);
    expect(await profileTexts(n, "cat", n.agents.ann)).toEqual(["Bob on Ann: a ready buyer"]);

    const late = await write(n, "ann", { text: "Changed after publication" });
    expect(statusOf(late)).toBe(409);
    expect(formErrors(late)).toEqual([REVIEW_REFUSALS.published]);
    expect(n.context.services.store.reviews.all().map((row) => row.text)).toContain("Ann on Bob: fee paid early");
  });

  it("publishes a lone review 14 days after it was written, and the other party can then no longer write one", async () => {
    const n = await network();
    await write(n, "ann", { text: "Ann on Bob" });
    await age(n, 13);
    expect((await page(n, "bob")).review.theirs).toBeNull();
    await age(n, 14);
    expect((await page(n, "bob")).review).toMatchObject({ theirs: { text: "Ann on Bob" }, published: true, canWrite: false });
    expect(await profileTexts(n, "cat", n.agents.bob)).toEqual(["Ann on Bob"]);
    const tooLate = await write(n, "bob");
    expect(statusOf(tooLate)).toBe(409);
    expect(n.context.services.store.reviews.all()).toHaveLength(1);
  });
});

describe("who may review", () => {
  it("stores one review per party however many posts arrive at once", async () => {
    const n = await network();
    const posts = await Promise.all([
      write(n, "ann", { idempotencyKey: "11111111-1111-4111-8111-111111111111", text: "First" }),
      write(n, "ann", { idempotencyKey: "22222222-2222-4222-8222-222222222222", text: "Second" }),
      write(n, "ann", { idempotencyKey: "11111111-1111-4111-8111-111111111111", text: "First" }),
    ]);
    expect(posts.map(statusOf)).toEqual([302, 302, 302]);
    const rows = n.context.services.store.reviews.all();
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ reviewerEmail: "ann@example.com", reviewedEmail: "bob@example.com", reviewedSide: "receiving" });
  });

  it("answers a member who is not a party with the referral page's 404, on the page and the form", async () => {
    const n = await network();
    const shown = await outcome(() =>
      reviewLoader({ request: get(path(n), n.cookies.cat), context: n.context, params: { id: n.referral.id } }),
    );
    expect(statusOf(shown)).toBe(404);
    const posted = await outcome(() =>
      reviewAction({
        request: post(path(n), n.cookies.cat, review({ feeAsAgreed: "1" })),
        context: n.context,
        params: { id: n.referral.id },
      }),
    );
    expect(statusOf(posted)).toBe(404);
    expect(n.context.services.store.reviews.all()).toEqual([]);
  });

  it("refuses a referral that has not ended or was never signed", async () => {
    for (const fields of [{ status: "closed" as const }, { status: "expired" as const, signedAt: undefined }]) {
      const n = await network(fields);
      expect(statusOf(await outcome(() => page(n, "ann")))).toBe(404);
      expect(statusOf(await write(n, "ann"))).toBe(404);
      expect(n.context.services.store.reviews.all()).toEqual([]);
    }
  });

  it("asks nothing of the fee when the referral ended lost, and stores no fee rating posted anyway", async () => {
    const n = await network({ status: "lost" });
    const form = (await page(n, "ann")) as ReviewPage & { review: { sideAspect: string | null } };
    expect(form.review.sideAspect).toBeNull();
    expect(statusOf(await write(n, "ann", { feeAsAgreed: "1" }))).toBe(302);
    expect(statusOf(await write(n, "bob"))).toBe(302);
    const [annOnBob] = n.context.services.store.reviews.all().filter((row) => row.reviewerEmail === n.agents.ann.email);
    expect(annOnBob).toMatchObject({ communication: 5, clientCare: 4, feeAsAgreed: undefined });
    const published = (await page(n, "bob")) as ReviewPage & { review: { theirs: { aspects: { label: string }[] } } };
    expect(published.review.theirs.aspects.map((aspect) => aspect.label)).toEqual(["Communication", "Care of the client"]);
  });

  it("answers bad input with 400 and a message beside each field, the input kept", async () => {
    const n = await network({ status: "lost" });
    const refused = (await write(n, "bob", { overall: "6", communication: "", referralQuality: "", text: "x".repeat(1001) })) as Rejection;
    expect(statusOf(refused)).toBe(400);
    expect(refused.data.error).toMatchObject({
      overall: ["Please choose an overall rating from 1 to 5 stars"],
      communication: ["Please rate the communication from 1 to 5 stars"],
      referralQuality: ["Please rate the quality of the referral from 1 to 5 stars"],
      text: ["Please keep the review under 1,000 characters"],
    });
    expect(refused.data.initialValue).toMatchObject({ overall: "6", clientCare: "4", text: "x".repeat(1001) });
    expect(n.context.services.store.reviews.all()).toEqual([]);
  });
});

describe("after publication", () => {
  it("lets the reviewed member post one public reply, shown on their profile", async () => {
    const n = await network();
    await write(n, "ann", { text: "Ann on Bob" });
    const early = await outcome(() =>
      reviewAction({
        request: post(path(n), n.cookies.bob, { intent: "reply", reply: "Too early" }),
        context: n.context,
        params: { id: n.referral.id },
      }),
    );
    expect(statusOf(early)).toBe(404);
    await write(n, "bob", { text: "Bob on Ann" });
    const reply = (text: string) =>
      outcome(() =>
        reviewAction({
          request: post(path(n), n.cookies.bob, { intent: "reply", reply: text }),
          context: n.context,
          params: { id: n.referral.id },
        }),
      );
    expect(statusOf(await reply("Thank you, Ann."))).toBe(302);
    const again = await reply("A second reply");
    expect(statusOf(again)).toBe(409);
    expect(formErrors(again)).toEqual([REVIEW_REFUSALS.replied]);
    expect((await page(n, "bob")).review.theirs).toMatchObject({ reply: "Thank you, Ann." });
    const id = agentIdOf(n.agents.bob);
    const profile = (await profileLoader({ request: get(`/agent/${id}`, n.cookies.cat), context: n.context, params: { agentId: id } })) as {
      reviews: { text: string; reply: string | null; reviewerName: string; reviewerPath: string | null }[];
    };
    expect(profile.reviews).toEqual([
      expect.objectContaining({
        text: "Ann on Bob",
        reply: "Thank you, Ann.",
        reviewerName: "Ann Archer",
        reviewerPath: `/agent/${agentIdOf(n.agents.ann)}`,
      }),
    ]);
  });

  it("takes a review staff hid by its status off the profile and the other party's page; the reviewer sees it marked hidden", async () => {
    const n = await network();
    await write(n, "ann", { text: "Ann on Bob" });
    await write(n, "bob", { text: "Bob on Ann" });
    const annReview = n.context.services.store.reviews.by("reviewerEmail", "ann@example.com")[0]!;
    await n.context.services.store.reviews.update(annReview.id, { status: "hidden" });
    expect(await profileTexts(n, "cat", n.agents.bob)).toEqual([]);
    expect((await page(n, "bob")).review.theirs).toBeNull();
    expect((await page(n, "ann")).review.mine).toMatchObject({ text: "Ann on Bob", hidden: true });
    expect(await profileTexts(n, "cat", n.agents.ann)).toEqual(["Bob on Ann"]);
  });

  it("keeps a published review on the profile when either party blocks the other", async () => {
    const n = await network();
    await write(n, "ann", { text: "Ann on Bob" });
    await write(n, "bob", { text: "Bob on Ann" });
    const blocked = await outcome(() =>
      blockAction({
        request: post("/settings/blocked", n.cookies.bob, { intent: "block", agent: n.agents.ann.id, back: "/member-dashboard" }),
        context: n.context,
        params: {},
      }),
    );
    expect(statusOf(blocked)).toBe(302);
    expect(await profileTexts(n, "cat", n.agents.bob)).toEqual(["Ann on Bob"]);
    expect(await profileTexts(n, "bob", n.agents.bob)).toEqual(["Ann on Bob"]);
    expect(await profileTexts(n, "ann", n.agents.ann)).toEqual(["Bob on Ann"]);
  });

  it("lets a member report a published review, once, to staff; an unpublished one cannot be reported", async () => {
    const n = await network();
    await write(n, "ann", { text: "Ann on Bob" });
    const annReview = n.context.services.store.reviews.by("reviewerEmail", "ann@example.com")[0]!;
    const reportUrl = `/report?kind=review&id=${annReview.id}`;
    const unpublished = await outcome(() => reportLoader({ request: get(reportUrl, n.cookies.bob), context: n.context, params: {} }));
    expect(statusOf(unpublished)).toBe(404);

    await write(n, "bob", { text: "Bob on Ann" });
    const form = (await reportLoader({ request: get(reportUrl, n.cookies.bob), context: n.context, params: {} })).data;
    expect(form.item).toEqual({ kind: "review", title: "Review by Ann Archer" });
    const sent = await outcome(() =>
      reportAction({
        request: post(reportUrl, n.cookies.bob, { reason: "inappropriate", note: "Not true" }),
        context: n.context,
        params: {},
      }),
    );
    expect(statusOf(sent)).toBe(302);
    expect(n.context.services.store.reports.all()).toEqual([
      expect.objectContaining({ kind: "review", itemId: annReview.id, reporterEmail: "bob@example.com", reportedEmail: "ann@example.com" }),
    ]);
    const own = await outcome(() => reportLoader({ request: get(reportUrl, n.cookies.ann), context: n.context, params: {} }));
    expect(statusOf(own)).toBe(404);
  });
});

describe("invitations", () => {
  it("lists the review to write on the dashboard until it is written", async () => {
    const n = await network();
    const listed = async () =>
      (
        (await dashboardLoader({ request: get("/member-dashboard", n.cookies.ann), context: n.context, params: {} })) as {
          reviewsToWrite: { referralId: string; otherName: string }[];
        }
      ).reviewsToWrite;
    expect(await listed()).toEqual([{ referralId: n.referral.id, clientName: "J.D.", otherName: "Bob Brooks" }]);
    await write(n, "ann");
    expect(await listed()).toEqual([]);
  });

  it("mails both parties once when a step ends the referral, not again on the job's passes, and not a member who turned the kind off", async () => {
    const n = await network({ status: "fee_paid" });
    const { services } = n.context;
    await services.store.agents.update(n.agents.bob.id, { mailOff: ["reviews"] });
    const step = await outcome(() =>
      referralAction({
        request: post(`/referrals/${n.referral.id}`, n.cookies.ann, { intent: "fee_received" }),
        context: n.context,
        params: { id: n.referral.id },
      }),
    );
    expect(statusOf(step)).toBe(302);
    await services.notifier.idle();
    expect(inviteToReviewEndedReferrals(services, new Date())).toBe(0);
    const invitations = (await sentMails(services)).filter((mail) => mail.subject.startsWith("Review your referral"));
    expect(invitations.map((mail) => [mail.to, mail.subject])).toEqual([["ann@example.com", "Review your referral with Bob Brooks"]]);
    expect(invitations[0]!.text).toContain(`/referrals/${n.referral.id}/review`);
    expect(invitations[0]!.headers?.["List-Unsubscribe"]).toBeDefined();

    // Bob turns the kind back on: the job's next pass invites him, once.
    await services.store.agents.update(n.agents.bob.id, { mailOff: [] });
    expect(inviteToReviewEndedReferrals(services, new Date())).toBe(1);
    await services.notifier.idle();
    expect(inviteToReviewEndedReferrals(services, new Date())).toBe(0);
    const after = (await sentMails(services)).filter((mail) => mail.subject.startsWith("Review your referral"));
    expect(after.map((mail) => mail.to).sort()).toEqual(["ann@example.com", "bob@example.com"]);
  });

  it("invites the parties of a referral staff ended in the sheet, on the job's pass", async () => {
    const n = await network({ status: "closed" });
    const { services } = n.context;
    expect(inviteToReviewEndedReferrals(services, new Date())).toBe(0);
    await services.store.referrals.update(n.referral.id, { status: "lost" });
    expect(inviteToReviewEndedReferrals(services, new Date())).toBe(2);
    const mails = await sentMails(services);
    expect(mails.map((mail) => mail.to).sort()).toEqual(["ann@example.com", "bob@example.com"]);
  });
});
