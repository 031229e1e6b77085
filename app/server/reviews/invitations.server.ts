/**
 * The mail inviting both parties of an ended referral to review each other: sent once per
 * party and referral, across instances (claimed `review-invite:<referral>/<e-mail>`), to a
 * party who is still a member, wants this kind of mail and has not written their review.
 */
import { CLAIM_KEYS } from "~/domain/claim-keys";
import { reviewPath, reviewStanding } from "~/domain/reviews";
import type { Referral } from "~/domain/workbook/tabs";
import { publicUrl } from "../accounts/urls.server";
import type { Config } from "../config.server";
import { reviewInvitationMail } from "../mail/review-mail.server";
import type { Notifier } from "../notifier/notifier.server";
import type { Store } from "../store/store.server";
import { wantsMail } from "~/domain/notifications";

export type InvitationDeps = {
  store: Pick<Store, "agents" | "reviews" | "sendClaims">;
  notifier: Pick<Notifier, "enqueue">;
  config: Pick<Config, "appUrl" | "port">;
};

/**
 * Queues the invitations of a referral that has just become reviewable (or still is): one
 * to each party not yet invited. Resolves to how many were queued; the claim in the
 * notifier decides which are sent.
 */
export function inviteReviewers(deps: InvitationDeps, referral: Referral, now: Date, request?: Request): number {
  const reviews = deps.store.reviews.by("referralId", referral.id);
  const parties = [
    [referral.referringEmail, referral.receivingName],
    [referral.receivingEmail, referral.referringName],
  ] as const;
  let queued = 0;
  for (const [email, otherName] of parties) {
    const once = CLAIM_KEYS["review-invite"].key(referral.id, email);
    // Decided from the replica first, so a pass after every refresh costs no claim call.
    if (deps.store.sendClaims.by("key", once).length > 0) continue;
    const standing = reviewStanding(reviews, email, now);
    if (!standing.canWrite || standing.mine) continue;
    const agent = deps.store.agents.by("email", email)[0];
    if (!agent || agent.status !== "approved" || !wantsMail(agent, "reviews")) continue;
    const link = publicUrl(deps.config, reviewPath(referral.id), request);
    deps.notifier.enqueue(
      {
        mail: reviewInvitationMail({ referral, to: email, otherName, link }),
        about: `the review invitation of referral ${referral.id} to ${email}`,
        member: { recipient: agent, kind: "reviews", reason: "you were a party to this referral", request },
      },
      { once, now },
    );
    queued += 1;
  }
  return queued;
}
