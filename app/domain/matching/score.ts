/**
 * The best-fit score: points out of 100 for how close, how specialised, how experienced in
 * the price range, how quick to reply and how good a track record, less points for each
 * "Not a fit" in the same specialty. The weights and why are in docs/decisions/0046; the
 * staff guide's "Best-fit agents" explains them to staff.
 */
import { MIN_CASES } from "../track-record";
import type { CandidateSignals, MatchRequest } from "./candidate";
import type { Reached } from "./candidate-pool";

const WEIGHTS = {
  /** Full at the request's place, none at 100 miles. */
  distance: 35,
  /** Full for a specialist (the request's specialty among at most `FOCUSED_SPECIALTIES`), less the more they list. */
  specialty: 15,
  /** Full from `SEASONED_REQUESTS` requests in the request's price range. */
  experience: 20,
  /** Full for a median first reply within the hour, none from `SLOW_REPLY_HOURS`. */
  replies: 15,
  /** Half from the shrunk review stars, half from the shrunk close rate (the Best track record order's figures). */
  trackRecord: 15,
  /** Taken off for each "Not a fit" the agent answered to a request of the same specialty. */
  notAFit: 10,
} as const;

const DISTANCE_SCALE_MILES = 100;
const FOCUSED_SPECIALTIES = 3;
const SEASONED_REQUESTS = 5;
const SLOW_REPLY_HOURS = 48;
/** Where a figure the agent has too few cases for sits: half way, neither helped nor hurt. */
const UNKNOWN = 0.5;
const HOUR_MS = 3_600_000;

export function bestFitScore({ candidate, reach }: Reached, request: MatchRequest, signals: CandidateSignals): number {
  const email = candidate.email;
  return (
    WEIGHTS.distance * closeness(reach.miles) +
    WEIGHTS.specialty * focus(request.specialty, candidate.specialties) +
    WEIGHTS.experience * Math.min(1, experienceIn(signals, email, request.priceRange) / SEASONED_REQUESTS) +
    WEIGHTS.replies * replySpeed(signals, email) +
    WEIGHTS.trackRecord * standing(signals, email) -
    WEIGHTS.notAFit * declinesFor(signals, email, request.specialty)
  );
}

/** 1 at the place, 0 from `DISTANCE_SCALE_MILES`; 0 for everyone when the request's place is unknown. */
function closeness(miles: number | null): number {
  return miles === null ? 0 : Math.max(0, 1 - miles / DISTANCE_SCALE_MILES);
}

/** 0 when the request names no specialty; else 1 for an agent listing few specialties, less for one who lists many. */
function focus(specialty: string, specialties: readonly string[]): number {
  if (specialty === "" || !specialties.includes(specialty)) return 0;
  return Math.min(1, FOCUSED_SPECIALTIES / specialties.length);
}

export function experienceIn(signals: CandidateSignals, email: string, priceRange: string): number {
  return signals.experience.get(email)?.get(priceRange) ?? 0;
}

function declinesFor(signals: CandidateSignals, email: string, specialty: string): number {
  return signals.declines.get(email)?.get(specialty) ?? 0;
}

/** From the last 12 months' median first reply, counted only from `MIN_CASES` replies like the cards' reply time. */
function replySpeed(signals: CandidateSignals, email: string): number {
  const reply = signals.records.get(email)?.last12Months.firstReply;
  if (!reply || reply.ms === undefined || reply.count < MIN_CASES) return UNKNOWN;
  return Math.max(0, 1 - Math.max(0, reply.ms / HOUR_MS - 1) / (SLOW_REPLY_HOURS - 1));
}

/** The track record's rank: the stars (1 to 5) and the close rate, both already pulled toward the network's figures. */
function standing(signals: CandidateSignals, email: string): number {
  const rank = signals.ranks.get(email);
  if (!rank) return UNKNOWN;
  return ((rank.stars - 1) / 4 + rank.closeRate) / 2;
}
