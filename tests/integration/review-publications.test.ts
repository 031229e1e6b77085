/**
 * The notice of a review published about a member (docs/decisions/0070), against the push
 * service stand-in (tests/mocks/push-service.ts): a push with the reviewer's name and stars and
 * the mail after the wait while the review's page is unopened, once per review across passes
 * and instances, publication by the blind period's end, the cutoff for old publications, the
 * member's choices, blocks and suspensions.
 */
import type { AppLoadContext } from "@remix-run/node";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import type { PushNotice } from "../../app/domain/push-notice";
import { reviewPath } from "../../app/domain/reviews";
import type { Agent, Referral, Review } from "../../app/domain/workbook/tabs";
import { loader as reviewLoader } from "../../app/routes/referrals.$id.review";
import { readOutbox } from "../../app/server/mail/mailer.server";
import { notifyPublishedReviews } from "../../app/server/jobs/review-publications.server";
import { createNotifier } from "../../app/server/notifier/notifier.server";
import { createPush } from "../../app/server/push/push.server";
import { createSendClaims } from "../../app/server/send-claims.server";
import { outboxDirectory } from "../../app/server/service-lifecycle.server";
import { startPushService, type PushServiceStandIn } from "../mocks/push-service";
import { agentRecord, referralRecord } from "../support/records";
import { testContext } from "../support/services";
import { get, sessionCookie } from "./requests-support";

let pushService: PushServiceStandIn;
beforeAll(async () => {
  pushService = await startPushService();
});
afterAll(() => pushService.close());

const opened: AppLoadContext[] = [];
afterEach(async () => {
  await Promise.all(opened.splice(0).map(async ({ services }) => (await services.notifier.stop(), await services.store.stop())));
});

const DAY_MS = 86_400_000;
/** Mails held back after a push wait this long here instead of 15 minutes. */
const WAIT_MS = 300;

const ann = agentRecord({ id: "rec-ann", fullName: "Ann Archer", email: "ann@example.com" });
const bob = agentRecord({ id: "rec-bob", fullName: "Bob Brooks", email: "bob@example.com", pushOn: ["reviews"] });

type Network = { context: AppLoadContext; referral: Referral; endpoint: string };

/** Ann referred a client ("Jane Client") to Bob, the fee was received; Bob has a device with push on for reviews. */
async function network(agents: readonly Agent[] = [ann, bob]): Promise<Network> {
  const context = testContext({}, { PUSH_MAIL_WAIT_MS: String(WAIT_MS) });
  opened.push(context);
  await context.services.store.refresh();
  for (const agent of agents) await context.services.store.agents.insert(agent);
  const referral = await context.services.store.referrals.insert(
    referralRecord(ann, bob, { status: "fee_received", clientName: "Jane Client" }),
  );
  const { endpoint, keys } = pushService.subscribe();
  await context.services.push.subscribe(bob, { endpoint, ...keys, deviceName: "Chrome on Android" }, new Date());
  return { context, referral, endpoint };
}

/** `reviewer`'s review of the other party, written at `submittedAt`. */
function write(n: Network, reviewer: Agent, submittedAt: Date, overall = 4): Promise<Review> {
  const reviewed = reviewer.email === ann.email ? bob : ann;
  return n.context.services.store.reviews.insert({
    id: `review-${reviewer.id}-${n.referral.id}`,
    referralId: n.referral.id,
    reviewerEmail: reviewer.email,
    reviewedEmail: reviewed.email,
    reviewedSide: reviewed.email === bob.email ? "receiving" : "referring",
    overall,
    communication: 5,
    clientCare: 4,
    feeAsAgreed: reviewed.email === bob.email ? 5 : undefined,
    referralQuality: reviewed.email === ann.email ? 3 : undefined,
    text: "Kept me posted about Jane Client every week.",
    submittedAt: submittedAt.toISOString(),
    updatedAt: undefined,
    reply: undefined,
    repliedAt: undefined,
    status: "visible",
  });
}

function pushesTo(n: Network) {
  const id = new URL(n.endpoint).pathname.split("/").pop();
  return pushService.received.filter((push) => push.subscriptionId === id);
}

/** The mails sent to Bob, once every queued and held mail has gone. */
async function mailsToBob(n: Network) {
  await n.context.services.notifier.idle();
  return (await readOutbox(outboxDirectory(n.context.services.config))).filter((mail) => mail.to === bob.email);
}

describe("a review published about a member", () => {
  it("pushes the reviewer's name and stars to the reviewed member, then mails once the wait ends with the page unopened", async () => {
    const n = await network();
    const now = new Date();
    await write(n, ann, new Date(now.getTime() - 60_000), 4);
    await write(n, bob, now, 5);
    // Both written: published at once, and each reviewed member is told.
    expect(notifyPublishedReviews(n.context.services, now)).toBe(2);
    await n.context.services.notifier.idle();

    const [push, ...more] = pushesTo(n);
    expect(more).toEqual([]);
    expect(pushService.invalid).toEqual([]);
    expect(push!.payload).toEqual({
      title: "A review of you is published",
      body: "Ann Archer rated you 4 of 5 stars.",
      url: reviewPath(n.referral.id),
      tag: `review:${n.referral.id}`,
    } satisfies PushNotice);
    expect((push!.payload as PushNotice).body.length).toBeLessThanOrEqual(100);
    expect(push!.text).not.toContain("Jane Client");
    expect(push!.text).not.toContain("Kept me posted");
    expect(push!.urgency).toBe("normal");

    const mails = await mailsToBob(n);
    expect(mails.map((mail) => mail.subject)).toEqual(["Ann Archer reviewed you"]);
    expect(mails[0]!.text).toContain(reviewPath(n.referral.id));
    expect(mails[0]!.text).not.toContain("Kept me posted");
  });

  it("sends no mail when the member opened the review's page before the wait ended", async () => {
    const n = await network();
    const now = new Date();
    await write(n, ann, now);
    await write(n, bob, now);
    notifyPublishedReviews(n.context.services, now);
    await expect.poll(() => pushesTo(n).length).toBe(1);
    await reviewLoader({
      request: get(reviewPath(n.referral.id), await sessionCookie(n.context, bob)),
      context: n.context,
      params: { id: n.referral.id },
    });
    expect(await mailsToBob(n)).toEqual([]);
  });

  it("tells once: a second pass and a second instance's pass send nothing more", async () => {
    const n = await network();
    const now = new Date();
    await write(n, ann, now);
    await write(n, bob, now);
    const { services } = n.context;
    notifyPublishedReviews(services, now);
    await services.notifier.idle();
    // A second instance: its own claims, push and notifier over the same store.
    const other = createNotifier({
      driver: { driver: "outbox", send: async () => undefined },
      claims: createSendClaims({ store: services.store, uniqueKey: false }),
      config: services.config,
      push: createPush({ store: services.store, writeQueues: services.writeQueues, config: services.config }),
    });
    expect(notifyPublishedReviews(services, new Date(now.getTime() + 60_000))).toBe(0);
    notifyPublishedReviews({ ...services, notifier: other }, new Date(now.getTime() + 60_000));
    await other.idle();
    expect(pushesTo(n)).toHaveLength(1);
    expect(await mailsToBob(n)).toHaveLength(1);
  });

  it("tells the reviewed member once the blind period ends when only one review was written", async () => {
    const n = await network();
    const written = new Date(Date.now() - 13 * DAY_MS);
    await write(n, ann, written);
    expect(notifyPublishedReviews(n.context.services, new Date())).toBe(0);
    const afterBlindPeriod = new Date(written.getTime() + 14 * DAY_MS + 60_000);
    expect(notifyPublishedReviews(n.context.services, afterBlindPeriod)).toBe(1);
    await n.context.services.notifier.idle();
    expect(pushesTo(n)).toHaveLength(1);
  });

  it("stays quiet about a review published before the cutoff, as on the first deploy", async () => {
    const n = await network();
    const old = new Date(Date.now() - 3 * DAY_MS);
    await write(n, ann, old);
    await write(n, bob, old);
    expect(notifyPublishedReviews(n.context.services, new Date())).toBe(0);
    expect(pushesTo(n)).toEqual([]);
    expect(await mailsToBob(n)).toEqual([]);
  });

  it("sends neither push nor mail to a member with both off for reviews, and only the chosen one otherwise", async () => {
    const quiet = await network([ann, { ...bob, pushOn: [], mailOff: ["reviews"] }]);
    const pushOnly = await network([ann, { ...bob, mailOff: ["reviews"] }]);
    const mailOnly = await network([ann, { ...bob, pushOn: ["messages"] }]);
    const now = new Date();
    for (const n of [quiet, pushOnly, mailOnly]) {
      await write(n, ann, now);
      await write(n, bob, now);
      notifyPublishedReviews(n.context.services, now);
    }
    expect(pushesTo(quiet)).toEqual([]);
    expect(await mailsToBob(quiet)).toEqual([]);
    expect(await mailsToBob(pushOnly)).toEqual([]);
    expect(pushesTo(pushOnly)).toHaveLength(1);
    expect(pushesTo(mailOnly)).toEqual([]);
    expect(await mailsToBob(mailOnly)).toHaveLength(1);
  });

  it("tells nothing to a member who blocked the reviewer, nor of a suspended reviewer's review, nor to a suspended member", async () => {
    const blocked = await network();
    await blocked.context.services.store.blocks.insert({
      id: "block-1",
      blockerEmail: bob.email,
      blockedEmail: ann.email,
      status: "active",
      createdAt: new Date().toISOString(),
      updatedAt: undefined,
    });
    const suspendedReviewer = await network([{ ...ann, status: "suspended" }, bob]);
    const suspendedMember = await network([ann, { ...bob, status: "suspended" }]);
    const now = new Date();
    for (const n of [blocked, suspendedReviewer, suspendedMember]) {
      await write(n, ann, now);
      await write(n, bob, now);
      notifyPublishedReviews(n.context.services, now);
    }
    for (const n of [blocked, suspendedReviewer, suspendedMember]) {
      expect(pushesTo(n)).toEqual([]);
      expect(await mailsToBob(n)).toEqual([]);
    }
  });
});
