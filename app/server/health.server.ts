import { createHash, timingSafeEqual } from "node:crypto";
import { getHeapStatistics } from "node:v8";
import type { Store, StoreHealth } from "./store/store.server";

export type HealthStatus = "ok" | "degraded";

/**
 * Degraded: the last refresh failed, the replica is older than three refresh periods,
 * a tab's structure is broken (staff must fix it), or the instance does not hear the
 * database's changes (another instance's messages wait for its timed refresh). Pages are
 * still served from the replica.
 */
export function healthStatus(
  store: Pick<StoreHealth, "lastError" | "stale" | "degradedTabs">,
  database: { listening: boolean } | null = null,
): HealthStatus {
  const storeOk = store.lastError === null && !store.stale && store.degradedTabs.length === 0;
  return storeOk && (database?.listening ?? true) ? "ok" : "degraded";
}

function digest(value: string): Buffer {
  return createHash("sha256").update(value).digest();
}

/**
 * True when the request carries `Authorization: Bearer <HEALTH_TOKEN>`. A header
 * rather than a query parameter, so the token never lands in access logs. The
 * comparison takes the same time whatever the guess.
 */
export function bearsHealthToken(request: Request, token: string | undefined): boolean {
  if (token === undefined) return false;
  const match = /^Bearer (.+)$/.exec(request.headers.get("Authorization") ?? "");
  return match?.[1] !== undefined && timingSafeEqual(digest(match[1]), digest(token));
}

const megabytes = (bytes: number) => Math.round((bytes / 2 ** 20) * 10) / 10;

/**
 * The process's memory for /healthz's details: resident size, V8's heap in use and its
 * ceiling (what `npm start` chose, decision 0077), and each tab the replica holds.
 */
export function memoryDetails(store: Pick<Store, "residentSizes">) {
  const { rss, heapUsed } = process.memoryUsage();
  return {
    rssMb: megabytes(rss),
    heapUsedMb: megabytes(heapUsed),
    heapLimitMb: megabytes(getHeapStatistics().heap_size_limit),
    replicaTabs: store.residentSizes(),
  };
}
