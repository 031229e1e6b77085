/**
 * The weekly digest's selection as it was before decision 0039, kept for `npm run bench:digest`
 * to print beside today's: every request filtered (its dates parsed) once per member.
 */
import type { DigestWeek } from "../app/domain/digest";
import { wantsMail } from "../app/domain/notifications";
import { isLive } from "../app/domain/referral-requests/expiry";
import type { Agent, ReferralRequest } from "../app/domain/workbook/tabs";

type Reader = Pick<Agent, "email" | "state" | "specialties">;

/** In the member's state and, when they listed specialties, one of them. */
function inMarket(request: ReferralRequest, member: Reader): boolean {
  const sameState = request.state.trim().toUpperCase() === member.state.trim().toUpperCase();
  const specialties = member.specialties.map((specialty) => specialty.trim().toLowerCase());
  return sameState && (specialties.length === 0 || specialties.includes(request.specialty.trim().toLowerCase()));
}

/** Each member who wants the digest, with the requests the old code selected for them (a member with none left out). */
export function digestsPerMember(members: readonly Agent[], requests: readonly ReferralRequest[], week: DigestWeek, now: Date) {
  return members
    .filter((member) => wantsMail(member, "digest"))
    .map((member) => ({ member, requests: selectPerMember(requests, member, week, now) }))
    .filter((digest) => digest.requests.length > 0);
}

function selectPerMember(requests: readonly ReferralRequest[], member: Reader, week: DigestWeek, now: Date): ReferralRequest[] {
  const from = week.since.getTime();
  const until = week.dueAt.getTime();
  const email = member.email.trim().toLowerCase();
  return requests
    .filter((request) => {
      const postedAt = Date.parse(request.createdAt);
      return (
        postedAt >= from &&
        postedAt < until &&
        isLive(request, now) &&
        request.agentEmail.trim().toLowerCase() !== email &&
        inMarket(request, member)
      );
    })
    .sort((a, b) => Date.parse(b.createdAt) - Date.parse(a.createdAt));
}
