/**
 * Reviews between the two parties of an ended referral: what each may read and write
 * (double-blind, docs/decisions/0044), storing a review and a reply, and the published
 * reviews a profile shows. The rules are in app/domain/reviews.ts; this reads and writes
 * the Reviews tab.
 */
import { CLAIM_KEYS } from "~/domain/claim-keys";
import { agentIdOf } from "~/domain/agent-id";
import { agentProfilePath } from "~/domain/directory-cards";
import type { ReplyInput, ReviewInput } from "~/domain/review-form";
import type { ProfileReview, ReviewToWrite, ReviewView } from "~/domain/review-views";
import {
  ASPECT_LABELS,
  isReviewable,
  publicationTimes,
  publishedReviews,
  ratedAspects,
  reviewStanding,
  sideAspect,
} from "~/domain/reviews";
import { otherParty, partyEmail, partyName } from "~/domain/referrals/agreement";
import type { ReferralParty } from "~/domain/referrals/status";
import type { Agent, Referral, Review } from "~/domain/workbook/tabs";
import { mayBeStored, rowIdFor } from "../idempotency-keys.server";
import { asModeratedReviews, isReplyHidden } from "../moderation/visibility.server";
import type { Services } from "../services.server";

export const REVIEW_REFUSALS = {
  notReviewable: "This referral can be reviewed once it ends: fee received, lost or expired.",
  published: "The reviews of this referral are published: a review can no longer be written or changed.",
  elsewhere: "Your review of this referral was saved from another page. Reload this page to see it.",
  noReview: "There is no published review of you to reply to.",
  replied: "You have already replied to this review.",
} as const;

type Refusal = { ok: false; status: 404 | 409; message: string };
export type ReviewResult = { ok: true; review: Review } | Refusal;

type ReviewServices = Pick<Services, "store" | "writeQueues" | "sendClaims">;

/** Every review of one referral (at most one per party), with the status staff's decisions give it. */
function reviewsOfReferral(services: Pick<Services, "store">, referralId: string): readonly Review[] {
  return asModeratedReviews(services, services.store.reviews.by("referralId", referralId));
}

function otherPartyOf(referral: Referral, party: ReferralParty) {
  const side = otherParty(party);
  return { email: partyEmail(referral, side), name: partyName(referral, side), side };
}

/** A review as pages show it: stars, the aspects it rated, the text and the reply (unless staff hid the reply). */
function reviewView(services: Pick<Services, "store">, review: Review): ReviewView {
  return {
    id: review.id,
    overall: review.overall ?? 0,
    aspects: ratedAspects(review).map((aspect) => ({ label: ASPECT_LABELS[aspect], stars: review[aspect]! })),
    text: review.text,
    reply: review.reply === undefined || isReplyHidden(services, review.id) ? null : review.reply,
    hidden: review.status === "hidden",
  };
}

/**
 * What the review page sends one party: their own review and, once published, the other's
 * review of them. Before publication nothing in the answer comes from the other's review:
 * not its text, its existence or its time (docs/decisions/0044).
 */
export function reviewPageView(services: Pick<Services, "store">, referral: Referral, party: ReferralParty, now: Date) {
  const other = otherPartyOf(referral, party);
  const member = partyEmail(referral, party);
  const standing = reviewStanding(reviewsOfReferral(services, referral.id), member, now);
  const { mine, theirs } = standing;
  return {
    referralId: referral.id,
    clientName: referral.clientName,
    otherName: other.name,
    otherSide: other.side,
    /** The third aspect the form asks, if one applies to how the referral ended. */
    sideAspect: sideAspect(other.side, referral.status) ?? null,
    mine: mine ? reviewView(services, mine) : null,
    /** The form opens with the member's own ratings while they may still change them. */
    draft: mine && standing.canWrite ? draftOf(mine) : null,
    theirs: theirs ? { ...reviewView(services, theirs), canReply: theirs.reply === undefined } : null,
    published: standing.published,
    publishedOn: standing.publishedAt?.slice(0, 10) ?? null,
    /** The member's own review is published by this day at the latest; nothing of the other party's is in it. */
    mineHiddenUntil: standing.mineHiddenUntil?.slice(0, 10) ?? null,
    canWrite: standing.canWrite,
  };
}

function draftOf(review: Review): Record<string, string> {
  const stars = (value: number | undefined) => (value === undefined ? "" : String(value));
  return {
    overall: stars(review.overall),
    communication: stars(review.communication),
    clientCare: stars(review.clientCare),
    feeAsAgreed: stars(review.feeAsAgreed),
    referralQuality: stars(review.referralQuality),
    text: review.text,
  };
}

/**
 * Writes the member's review of the other party, or changes it while the reviews are not
 * yet published. One review per party and referral: one decision at a time per member and
 * referral in this process, and a new row is claimed first (docs/decisions/0032), so two
 * posts at once, here or on two instances, store one row.
 */
export function saveReview(
  services: ReviewServices,
  options: { referral: Referral; party: ReferralParty; input: ReviewInput; now: Date },
): Promise<ReviewResult> {
  const { referral, party, input, now } = options;
  const member = partyEmail(referral, party);
  const other = otherPartyOf(referral, party);
  const key = CLAIM_KEYS.review.key(referral.id, member);
  return services.writeQueues.serially(key, async () => {
    if (!isReviewable(services.store.referrals.get(referral.id) ?? referral))
      return { ok: false, status: 409, message: REVIEW_REFUSALS.notReviewable };
    const standing = reviewStanding(reviewsOfReferral(services, referral.id), member, now);
    if (!standing.canWrite) return { ok: false, status: 409, message: REVIEW_REFUSALS.published };
    const ratings = {
      overall: input.overall,
      communication: input.communication,
      clientCare: input.clientCare,
      feeAsAgreed: "feeAsAgreed" in input ? input.feeAsAgreed : undefined,
      referralQuality: "referralQuality" in input ? input.referralQuality : undefined,
      text: input.text ?? "",
    };
    if (standing.mine) {
      const review = await services.store.reviews.update(standing.mine.id, { ...ratings, updatedAt: now.toISOString() });
      return { ok: true, review };
    }
    const id = rowIdFor(member, input.idempotencyKey);
    if (!(await services.sendClaims.claimAs(key, id, now))) return { ok: false, status: 409, message: REVIEW_REFUSALS.elsewhere };
    const review = await services.store.reviews.insertOnce(
      {
        id,
        referralId: referral.id,
        reviewerEmail: member,
        reviewedEmail: other.email,
        reviewedSide: other.side,
        ...ratings,
        submittedAt: now.toISOString(),
        updatedAt: undefined,
        reply: undefined,
        repliedAt: undefined,
        status: "visible",
      },
      mayBeStored(input.idempotencyKey),
    );
    return { ok: true, review };
  });
}

/** The reviewed member's one public reply to the other party's published review of them. */
export function replyToReview(
  services: Pick<Services, "store" | "writeQueues">,
  options: { referral: Referral; party: ReferralParty; input: ReplyInput; now: Date },
): Promise<ReviewResult> {
  const { referral, party, input, now } = options;
  const member = partyEmail(referral, party);
  return services.writeQueues.serially(`review-reply:${referral.id}/${member}`, async () => {
    const { theirs } = reviewStanding(reviewsOfReferral(services, referral.id), member, now);
    if (!theirs) return { ok: false, status: 404, message: REVIEW_REFUSALS.noReview };
    if (theirs.reply !== undefined) return { ok: false, status: 409, message: REVIEW_REFUSALS.replied };
    const review = await services.store.reviews.update(theirs.id, { reply: input.reply, repliedAt: now.toISOString() });
    return { ok: true, review };
  });
}

/** The published reviews of one member: every review of the referrals they were reviewed on, so each referral's publication is decided on both of its reviews. */
function publishedAbout(
  services: Pick<Services, "store">,
  email: string,
  now: Date,
): { reviews: Review[]; publishedAt: Map<string, string> } {
  const referralIds = new Set(services.store.reviews.by("reviewedEmail", email).map((review) => review.referralId));
  const ofReferrals = [...referralIds].flatMap((id) => reviewsOfReferral(services, id));
  return {
    reviews: publishedReviews(ofReferrals, now).filter((review) => review.reviewedEmail === email),
    publishedAt: publicationTimes(ofReferrals),
  };
}

/**
 * A member's published reviews for their profile, newest first, each with its reviewer (a
 * link when they still have a profile) and the reply. Blocks do not hide them: a review is
 * the record of a finished referral.
 */
export function profileReviews(
  services: Pick<Services, "store">,
  agent: Pick<Agent, "email">,
  viewer: Pick<Agent, "email">,
  now: Date,
): ProfileReview[] {
  const { reviews, publishedAt } = publishedAbout(services, agent.email, now);
  return reviews
    .map((review) => ({ review, at: publishedAt.get(review.referralId) ?? review.submittedAt }))
    .sort((a, b) => b.at.localeCompare(a.at) || b.review.submittedAt.localeCompare(a.review.submittedAt))
    .map(({ review, at }) => {
      const reviewer = services.store.agents.by("email", review.reviewerEmail)[0];
      const referral = services.store.referrals.get(review.referralId);
      const fallbackName = referral?.referringEmail === review.reviewerEmail ? referral.referringName : referral?.receivingName;
      return {
        ...reviewView(services, review),
        publishedOn: at.slice(0, 10),
        reviewerName: reviewer?.fullName ?? fallbackName ?? "A former member",
        reviewerPath: reviewer?.status === "approved" ? agentProfilePath(agentIdOf(reviewer)) : null,
        canReport: viewer.email !== review.reviewerEmail,
      };
    });
}

/** The ended referrals of a member still waiting for their review, newest first: the dashboard's "Reviews to write". */
export function reviewsToWrite({ store }: Pick<Services, "store">, member: Pick<Agent, "email">, now: Date): ReviewToWrite[] {
  return store.referrals
    .by("parties", member.email)
    .filter((referral) => isReviewable(referral))
    .filter((referral) => {
      const standing = reviewStanding(store.reviews.by("referralId", referral.id), member.email, now);
      return standing.canWrite && standing.mine === undefined;
    })
    .sort((a, b) => (b.updatedAt ?? b.createdAt).localeCompare(a.updatedAt ?? a.createdAt))
    .map((referral) => ({
      referralId: referral.id,
      clientName: referral.clientName,
      otherName: referral.referringEmail === member.email ? referral.receivingName : referral.referringName,
    }));
}
