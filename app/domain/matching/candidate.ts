/**
 * What the best-fit ranking reads about a request and about the agents who might take it.
 * Pure data: the server builds it from the workbook (app/server/matching/), the tests by hand.
 */
import type { GeoPoint } from "../places/geo";
import type { TrackRecord } from "../track-record";
import type { TrackRecordRank } from "../track-record-ranking";
import type { AgentStatus } from "../workbook/tabs";

/** A place on the map with the name the reasons show ("Tyler"). */
export type NamedPlace = { readonly name: string; readonly state: string; readonly point: GeoPoint };

/** An agent as the ranking sees them: what the Agents tab says of their market and standing. */
export type MatchCandidate = {
  readonly email: string;
  readonly status: AgentStatus;
  readonly state: string;
  /** Their city as the Agents tab has it. */
  readonly city: string;
  /** Their own city, when the place list knows it: served within `HOME_REACH_MILES` whatever they list. */
  readonly home: NamedPlace | undefined;
  /** The places they serve that the place list knows (a typo is left out). */
  readonly places: readonly NamedPlace[];
  /** How far around `places` they serve, in miles. */
  readonly radiusMiles: number;
  readonly specialties: readonly string[];
  /** Their latest own change to the Agents row (joining, an edit, a logout), in ms. */
  readonly agentRowActiveAt: number;
};

/** A request as the ranking sees it. */
export type MatchRequest = {
  /** Where the client is; undefined when its city or area is not a known place (then matched by state). */
  readonly place: GeoPoint | undefined;
  readonly state: string;
  /** "" when the request names none. */
  readonly specialty: string;
  readonly priceRange: string;
  readonly posterEmail: string;
};

/** Counts per agent, by e-mail then by key (a price range, a specialty). */
export type CountsByAgent = ReadonlyMap<string, ReadonlyMap<string, number>>;

/** What agents did in the network beside their Agents row, counted from the other tabs (`countSignals`). */
export type CountedSignals = {
  /** The latest time each agent wrote anything (a request, a response, a message, a read, a mark, a referral step, an answer to an invitation), in ms. */
  readonly lastActiveAt: ReadonlyMap<string, number>;
  /** Requests they posted, responded to or had a referral from, by price range. */
  readonly experience: CountsByAgent;
  /** Invitations they answered "Not a fit", by the request's specialty ("" for none). */
  readonly declines: CountsByAgent;
};

/** Everything the score reads beside the Agents row: the counted signals and the track record as it is (`Services.trackRecords`), never counted twice. */
export type CandidateSignals = CountedSignals & {
  readonly records: ReadonlyMap<string, TrackRecord>;
  readonly ranks: ReadonlyMap<string, TrackRecordRank>;
};
