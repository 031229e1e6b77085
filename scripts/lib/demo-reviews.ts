/**
 * The demo's Reviews rows, from `demo-data/reviews.ts`: each review is written by one party
 * of a demo deal that ended (the rules of app/domain/reviews.ts are checked, so a review the
 * app would refuse throws instead of being written), its id fixed by the deal and the party.
 */
import { isReviewable, sideAspect } from "~/domain/reviews";
import type { Referral, Review } from "~/domain/workbook/tabs";
import { REVIEWS } from "./demo-data/reviews";
import { clockAt, demoId } from "./demo-kit";

export function buildDemoReviews(now: Date, referrals: readonly Referral[]): Review[] {
  const clock = clockAt(now);
  return REVIEWS.map((seed) => {
    const referral = referrals.find((row) => row.id === demoId(`referral:${seed.deal}`));
    if (!referral || !isReviewable(referral)) throw new Error(`The demo deal ${seed.deal} cannot be reviewed`);
    const reviewedSide = seed.by === "referring" ? "receiving" : "referring";
    const aspect = sideAspect(reviewedSide, referral.status);
    return {
      id: demoId(`review:${seed.deal}:${seed.by}`),
      referralId: referral.id,
      reviewerEmail: seed.by === "referring" ? referral.referringEmail : referral.receivingEmail,
      reviewedEmail: seed.by === "referring" ? referral.receivingEmail : referral.referringEmail,
      reviewedSide,
      overall: seed.overall,
      communication: seed.communication,
      clientCare: seed.clientCare,
      feeAsAgreed: aspect === "feeAsAgreed" ? seed.sideAspect : undefined,
      referralQuality: aspect === "referralQuality" ? seed.sideAspect : undefined,
      text: seed.text,
      submittedAt: clock.daysAgo(seed.daysAgo),
      updatedAt: undefined,
      reply: seed.reply?.text,
      repliedAt: seed.reply ? clock.daysAgo(seed.reply.daysAgo) : undefined,
      status: "visible",
    };
  });
}
