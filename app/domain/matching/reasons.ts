/**
 * Why an agent is suggested, in plain words shown joined by " · ": "Serves Tyler, 12 mi",
 * "Farm and Ranch", "2 past requests in the $200k - $400k range", "replies in about 2 hours",
 * "3 referrals closed". Each figure is the one the score read.
 */
import { countOf } from "../count-labels";
import { replyTimeLabel } from "../track-record-text";
import type { CandidateSignals, MatchRequest } from "./candidate";
import type { Reached, Reach } from "./candidate-pool";
import { experienceIn } from "./score";

export function bestFitReasons({ candidate, reach }: Reached, request: MatchRequest, signals: CandidateSignals): string[] {
  const record = signals.records.get(candidate.email);
  const experience = experienceIn(signals, candidate.email, request.priceRange);
  const closed = record?.allTime.closed ?? 0;
  const replies = replyTimeLabel(record);
  return [
    whereText(reach, candidate),
    request.specialty,
    experience > 0 ? `${countOf(experience, "past request")} in the ${request.priceRange} range` : "",
    // Mid-line, after the place: the card's "Replies in …" starts lower case here.
    replies ? replies.charAt(0).toLowerCase() + replies.slice(1) : "",
    closed > 0 ? `${countOf(closed, "referral")} closed` : "",
  ].filter((reason) => reason !== "");
}

/** "Serves Tyler, 12 mi" (a place they serve), "Based in Tyler, 12 mi" (their own city), or "Based in Tyler, TX" when the request's place is unknown. */
function whereText(reach: Reach, candidate: { city: string; state: string }): string {
  if (reach.kind === "state") return candidate.city ? `Based in ${candidate.city}, ${candidate.state}` : `Serves ${candidate.state}`;
  const miles = Math.round(reach.miles);
  const where = `${reach.kind === "serves" ? "Serves" : "Based in"} ${reach.place.name}`;
  return miles === 0 ? where : `${where}, ${miles} mi`;
}
