import type { CandidateSignals, CountedSignals, MatchCandidate, NamedPlace } from "~/domain/matching/candidate";
import { createCandidatePool, type CandidatePool } from "~/domain/matching/candidate-pool";
import { countSignals, type SignalRows } from "~/domain/matching/signals";
import type { Place } from "~/domain/places/place-names";
import { DEFAULT_SERVICE_RADIUS } from "~/domain/places/service-radius";
import type { Agent, TabKey } from "~/domain/workbook/tabs";
import { findPlace } from "../places/places.server";
import { NOT_COUNTED, type MessageAggregate } from "../messages/message-queries.server";
import { asModeratedInvitations } from "../moderation/visibility.server";
import type { Store } from "../store/store.server";
import type { TrackRecordCache } from "../track-record/track-records.server";

/** What the ranking reads for one request: the candidates filed by place, and what they did. */
type BestFitIndex = { readonly pool: CandidatePool; readonly signals: CandidateSignals };

/** The best-fit ranking's index, kept between requests: one per process, in `Services`. */
export type BestFitIndexCache = {
  /**
   * The index for the store's current rows. The candidates are filed again only when the
   * agents tab changed; the signals are counted again when a tab they read changed (after a
   * new message, read or mark alone, at most every `CHATTY_SETTLE_MS`); the track record is
   * `Services.trackRecords`' own.
   */
  current(now?: Date): BestFitIndex;
};

/** The tabs the signals are counted from (`countSignals`; Moderation: staff hide invitations there), with the messages' latest activity, last. */
const SIGNAL_TABS = [
  "requests",
  "responses",
  "referrals",
  "referralEvents",
  "marks",
  "invitations",
  "moderation",
] as const satisfies readonly TabKey[];
/**
 * What changes many times a minute and moves only last-activity times, which the ranking
 * compares with 90 days: the marks (by their place in `SIGNAL_TABS`) and the messages' activity.
 */
const CHATTY = new Set([SIGNAL_TABS.indexOf("marks"), SIGNAL_TABS.length]);
/** After a change to chatty tabs alone, the signals are counted again at most this often: an activity time ten minutes late changes no 90-day test that matters. */
export const CHATTY_SETTLE_MS = 600_000;

type Counted = { versions: number[]; countedAt: number; signals: CountedSignals };

export function createBestFitIndexCache(
  store: Store,
  trackRecords: TrackRecordCache,
  messageActivity: MessageAggregate<ReadonlyMap<string, string>>,
): BestFitIndexCache {
  let pool: { version: number; pool: CandidatePool } | undefined;
  let counted: Counted | undefined;
  return {
    current(now = new Date()) {
      const agentsVersion = store.agents.version();
      if (pool?.version !== agentsVersion) {
        pool = { version: agentsVersion, pool: createCandidatePool(matchCandidates(store.agents.all())) };
      }
      const versions = [...SIGNAL_TABS.map((name) => store[name].version()), messageActivity.version()];
      if (!counted || !isCurrent(counted, versions, now.getTime())) {
        counted = { versions, countedAt: now.getTime(), signals: countSignals(signalRows(store, messageActivity.current())) };
      }
      const { records, ranks } = trackRecords.current(now);
      return { pool: pool.pool, signals: { ...counted.signals, records, ranks } };
    },
  };
}

/** Whether the signals were counted from the current rows, leaving aside chatty tabs' changes within `CHATTY_SETTLE_MS`. */
function isCurrent(counted: Counted, versions: readonly number[], now: number): boolean {
  const changed = versions.flatMap((version, i) => (counted.versions[i] !== version ? [i] : []));
  // The messages' activity's first count (from version 0) is taken at once: it is not one new message but all of them.
  const chatty = (i: number) => CHATTY.has(i) && counted.versions[i] !== NOT_COUNTED;
  return changed.every(chatty) && (changed.length === 0 || now - counted.countedAt < CHATTY_SETTLE_MS);
}

export function signalRows(store: Store, messageActivity: ReadonlyMap<string, string>): SignalRows {
  return {
    requests: store.requests.all(),
    responses: store.responses.all(),
    referrals: store.referrals.all(),
    referralEvents: store.referralEvents.all(),
    messageActivity,
    marks: store.marks.all(),
    // An invitation staff hid no longer counts as a Not a fit, whichever cell hid it.
    invitations: asModeratedInvitations({ store }, store.invitations.all()),
  };
}

/**
 * The Agents rows as the ranking reads them: their places looked up in the place list (a
 * place not in it is left out). Agents share their places: each is looked up once.
 */
export function matchCandidates(agents: readonly Agent[]): MatchCandidate[] {
  const known = new Map<string, NamedPlace | undefined>();
  const lookUp = (text: string, state?: string) => {
    const key = `${text}|${state ?? ""}`;
    if (!known.has(key)) {
      const place = findPlace(text, state);
      known.set(key, place && namedPlace(place));
    }
    return known.get(key);
  };
  return agents.map((agent) => ({
    email: agent.email,
    status: agent.status,
    state: agent.state,
    city: agent.city,
    home: lookUp(agent.city, agent.state),
    places: agent.placesServed.flatMap((text) => lookUp(text) ?? []),
    radiusMiles: agent.serviceRadius ?? DEFAULT_SERVICE_RADIUS,
    specialties: agent.specialties,
    agentRowActiveAt: Math.max(...[agent.createdAt, agent.updatedAt, agent.sessionsEndedAt].map(timeOf)),
  }));
}

const namedPlace = (place: Place): NamedPlace => ({ name: place.name, state: place.state, point: { lat: place.lat, lon: place.lon } });
const timeOf = (iso: string | undefined) => (iso ? Date.parse(iso) : Number.NEGATIVE_INFINITY);
