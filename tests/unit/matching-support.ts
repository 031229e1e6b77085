/** Candidates, signals and places for the ranking's tests. */
import type { CandidateSignals, MatchCandidate, MatchRequest, NamedPlace } from "~/domain/matching/candidate";
import type { GeoPoint } from "~/domain/places/geo";
import { emptyWindowFigures, type TrackRecord } from "~/domain/track-record";
import type { TrackRecordRank } from "~/domain/track-record-ranking";

export const NOW = new Date("2026-11-27T12:00:00.000Z");
const DAY_MS = 86_400_000;

const place = (name: string, state: string, lat: number, lon: number): NamedPlace => ({ name, state, point: { lat, lon } });
export const PLACES = {
  tyler: place("Tyler", "TX", 32.3513, -95.3011),
  lindale: place("Lindale", "TX", 32.5157, -95.4094),
  longview: place("Longview", "TX", 32.5007, -94.7405),
  dallas: place("Dallas", "TX", 32.7767, -96.797),
  austin: place("Austin", "TX", 30.2672, -97.7431),
  houston: place("Houston", "TX", 29.7604, -95.3698),
  lubbock: place("Lubbock", "TX", 33.5779, -101.8552),
  tulsa: place("Tulsa", "OK", 36.154, -95.9928),
  okemah: place("Okemah", "OK", 35.4326, -96.3053),
} as const;

/** A point `miles` due north of `from` (a degree of latitude is about 69 miles). */
export function northOf(from: GeoPoint, miles: number): GeoPoint {
  return { lat: from.lat + miles / 69.05, lon: from.lon };
}

export function candidate(email: string, overrides: Partial<MatchCandidate> = {}): MatchCandidate {
  return {
    email,
    status: "approved",
    state: "TX",
    city: "Tyler",
    home: PLACES.tyler,
    places: [PLACES.tyler],
    radiusMiles: 25,
    specialties: ["Residential"],
    agentRowActiveAt: NOW.getTime() - DAY_MS,
    ...overrides,
  };
}

export function request(overrides: Partial<MatchRequest> = {}): MatchRequest {
  return {
    place: PLACES.tyler.point,
    state: "TX",
    specialty: "",
    priceRange: "$200k - $400k",
    posterEmail: "poster@example.com",
    ...overrides,
  };
}

/** A track record with `closed` referrals closed and, with `replyHours`, five first replies of that median. */
export function trackRecord(email: string, { closed = 0, replyHours }: { closed?: number; replyHours?: number }): TrackRecord {
  const figures = {
    ...emptyWindowFigures(),
    closed,
    firstReply: replyHours === undefined ? { count: 0, ms: undefined } : { count: 5, ms: replyHours * 3_600_000 },
  };
  return { email, memberSince: "2025-01-01T00:00:00.000Z", licenseCheck: undefined, openNow: 0, last12Months: figures, allTime: figures };
}

export type AgentSignals = {
  lastActiveAt?: number;
  experience?: Record<string, number>;
  declines?: Record<string, number>;
  record?: TrackRecord;
  rank?: TrackRecordRank;
};

export function signals(byEmail: Record<string, AgentSignals> = {}): CandidateSignals {
  const entries = Object.entries(byEmail);
  const pick = <T>(get: (own: AgentSignals) => T | undefined) =>
    new Map(entries.flatMap(([email, own]) => (get(own) === undefined ? [] : [[email, get(own)!] as const])));
  return {
    lastActiveAt: pick((own) => own.lastActiveAt),
    experience: pick((own) => (own.experience ? new Map(Object.entries(own.experience)) : undefined)),
    declines: pick((own) => (own.declines ? new Map(Object.entries(own.declines)) : undefined)),
    records: pick((own) => own.record),
    ranks: pick((own) => own.rank),
  };
}
