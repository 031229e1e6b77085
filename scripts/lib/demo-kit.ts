/**
 * What the demo network's builders share: ids and choices drawn from fixed keys, a clock
 * relative to the seed's `now`, and the shapes of the requests and responses they write.
 */
import type { MarketState, RequestType, Specialty } from "~/domain/enums";
import type { Agent } from "~/domain/workbook/tabs";

// ---------------------------------------------------------------------------
// Deterministic randomness

/** FNV-1a: a stable 32-bit number from a text key. */
export function hashKey(key: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < key.length; i += 1) {
    hash ^= key.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return hash >>> 0;
}

/** mulberry32: small, fast, and plenty for picking demo data. Returns numbers in [0, 1). */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** A version-4-shaped UUID drawn from the record's key, so it looks like the ids the app makes. */
export function demoId(key: string): string {
  const random = seededRandom(hashKey(`demo-network:${key}`));
  const bytes = Array.from({ length: 16 }, () => Math.floor(random() * 256));
  bytes[6] = (bytes[6]! & 0x0f) | 0x40;
  bytes[8] = (bytes[8]! & 0x3f) | 0x80;
  const hex = bytes.map((byte) => byte.toString(16).padStart(2, "0")).join("");
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

export const DAY_MS = 24 * 60 * 60 * 1000;
export const HOUR_MS = 60 * 60 * 1000;

/** A clock for one build: times `days` (fractions allowed) before `now`, to the minute, as ISO 8601 UTC. */
export function clockAt(now: Date) {
  const base = now.getTime();
  const at = (ms: number) => new Date(Math.floor(ms / 60_000) * 60_000).toISOString();
  return {
    daysAgo: (days: number) => at(base - days * DAY_MS),
    after: (iso: string, hours: number) => at(Date.parse(iso) + hours * HOUR_MS),
  };
}

export function agentNamed(agents: readonly Agent[], name: string): Agent {
  const agent = agents.find((candidate) => candidate.fullName === name);
  if (!agent) throw new Error(`The demo network has no agent named ${name}`);
  return agent;
}

export type RequestSeed = {
  key: string;
  owner: string;
  requestType: RequestType;
  title: string;
  location: string;
  state: MarketState;
  specialty: Specialty;
  priceRange: string;
  /** Referrals only: the referred client is a buyer or a seller. */
  clientType?: "buyer" | "seller";
  timeline: string;
  contactPreference: string;
  listingAddress?: string;
  listingMLS?: string;
  description: string;
  urgent?: boolean;
  daysAgo: number;
  status?: "deleted" | "expired";
};

export type ResponseSeed = { request: string; from: string; message: string; hoursLater: number };
