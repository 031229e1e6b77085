/**
 * The best-fit agents for a request: those who serve its place, with its specialty, approved,
 * active lately and neither the poster nor blocked; best score first (`score.ts`).
 */
import type { CandidateSignals, MatchCandidate, MatchRequest } from "./candidate";
import { candidatesReaching, type CandidatePool, type Reach, type Reached } from "./candidate-pool";
import { bestFitReasons } from "./reasons";
import { bestFitScore } from "./score";

/** An agent who has written nothing for this long is not suggested. */
export const ACTIVE_DAYS = 90;
const DAY_MS = 86_400_000;

export type RankOptions = {
  readonly limit: number;
  /** The members the poster blocked or who blocked the poster. */
  readonly blocked: ReadonlySet<string>;
  /** Agents left out on purpose, e.g. those already invited. */
  readonly excluded: ReadonlySet<string>;
  readonly now: Date;
};

export type RankedCandidate = {
  readonly candidate: MatchCandidate;
  readonly reach: Reach;
  readonly score: number;
  readonly reasons: readonly string[];
};

export function rankCandidates(
  pool: CandidatePool,
  signals: CandidateSignals,
  request: MatchRequest,
  options: RankOptions,
): RankedCandidate[] {
  const activeSince = options.now.getTime() - ACTIVE_DAYS * DAY_MS;
  const isEligible = ({ candidate }: Reached) =>
    candidate.status === "approved" &&
    candidate.email !== request.posterEmail &&
    !options.blocked.has(candidate.email) &&
    !options.excluded.has(candidate.email) &&
    (request.specialty === "" || candidate.specialties.includes(request.specialty)) &&
    lastActiveAt(candidate, signals) >= activeSince;
  const scored: Scored[] = [];
  for (const reached of candidatesReaching(pool, request.place, request.state)) {
    if (isEligible(reached))
      scored.push({ candidate: reached.candidate, reach: reached.reach, score: bestFitScore(reached, request, signals) });
  }
  return best(scored, options.limit, byScore).map((ranked) => ({ ...ranked, reasons: bestFitReasons(ranked, request, signals) }));
}

function lastActiveAt(candidate: MatchCandidate, signals: CandidateSignals): number {
  return Math.max(candidate.agentRowActiveAt, signals.lastActiveAt.get(candidate.email) ?? Number.NEGATIVE_INFINITY);
}

type Scored = Reached & { readonly score: number };

/** Higher score first, then nearer, then by e-mail, so equal scores always come out in one order. */
function byScore(a: Scored, b: Scored): number {
  return b.score - a.score || (a.reach.miles ?? 0) - (b.reach.miles ?? 0) || (a.candidate.email < b.candidate.email ? -1 : 1);
}

/** The first `limit` of `items` in `compare`'s order, without sorting them all: a request can reach thousands of agents. */
function best<T>(items: readonly T[], limit: number, compare: (a: T, b: T) => number): T[] {
  const kept: T[] = [];
  if (limit <= 0) return kept;
  for (const item of items) {
    if (kept.length === limit && compare(item, kept[limit - 1]!) >= 0) continue;
    let at = kept.length;
    while (at > 0 && compare(item, kept[at - 1]!) < 0) at -= 1;
    kept.splice(at, 0, item);
    if (kept.length > limit) kept.pop();
  }
  return kept;
}
