/**
 * `npm run bench:matching`: the best-fit ranking at 20,000 agents in a temporary SQLite store
 * (the large network's requests and messages, bench/large-network.ts). Each agent lives in a
 * real Texas or Oklahoma place, drawn by population, and serves it and up to three places
 * within 50 miles at a radius of 10 to 100 miles; most were active lately. Prints the time
 * to build the index (the candidates filed by place, the counted signals, the track record)
 * and the time `bestFitAgents` takes per request, median and 95th percentile, over a few
 * hundred requests at real places, and over requests whose place is unknown (matched by state).
 *
 *   npm run bench:matching
 *   npm run bench:matching -- --agents 5000 --requests 200
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { parseArgs } from "node:util";
import { createCandidatePool } from "../app/domain/matching/candidate-pool";
import { countSignals } from "../app/domain/matching/signals";
import { createPointIndex } from "../app/domain/places/geo";
import { placeLabel, type Place } from "../app/domain/places/place-names";
import { SERVICE_RADII } from "../app/domain/places/service-radius";
import type { Agent, ReferralRequest } from "../app/domain/workbook/tabs";
import { loadConfig } from "../app/server/config.server";
import { bestFitAgents } from "../app/server/matching/best-fit.server";
import { matchCandidates, signalRows } from "../app/server/matching/candidate-index.server";
import { PLACES } from "../app/server/places/places.server";
import { createReplicaServices } from "../app/server/service-lifecycle.server";
import { createStoreFromConfig } from "../app/server/store/store.server";
import { createTrackRecordCache } from "../app/server/track-record/track-records.server";
import { seededRandom } from "../scripts/lib/demo-kit";
import { benchAgents, LARGE_NETWORK, writeNetwork } from "./large-network";

const { values: args } = parseArgs({ options: { agents: { type: "string" }, requests: { type: "string" } } });
const AGENTS = Number(args.agents ?? 20_000);
const REQUESTS = Number(args.requests ?? 400);
/** The budget for one request's ranking at 20,000 agents (docs/product.md#performance-budgets). */
const BUDGET_MS = 20;
const DAY_MS = 86_400_000;

/** Picks places in proportion to their population (a place the source gives none counts as 100 people). */
function byPopulation(random: () => number): () => Place {
  const cumulative: number[] = [];
  let total = 0;
  for (const place of PLACES) cumulative.push((total += place.population ?? 100));
  return () => {
    const target = random() * total;
    let low = 0;
    let high = cumulative.length - 1;
    while (low < high) {
      const middle = (low + high) >> 1;
      if (cumulative[middle]! < target) low = middle + 1;
      else high = middle;
    }
    return PLACES[low]!;
  };
}

/** The large network's agents, moved to real places with markets around them; nine in ten active in the last 60 days. */
function placedAgents(now: Date): Agent[] {
  const random = seededRandom(26_046);
  const somewhere = byPopulation(random);
  const nearby = createPointIndex(PLACES, (place) => [place]);
  return benchAgents(AGENTS).map((agent) => {
    const home = somewhere();
    const around = nearby.within(home, 50).map((near) => near.item);
    const served = [home, ...Array.from({ length: Math.floor(random() * 4) }, () => around[Math.floor(random() * around.length)]!)];
    return {
      ...agent,
      state: home.state,
      city: home.name,
      placesServed: [...new Set(served.map(placeLabel))],
      serviceRadius: SERVICE_RADII[Math.floor(random() * SERVICE_RADII.length)],
      updatedAt: random() < 0.9 ? new Date(now.getTime() - random() * 60 * DAY_MS).toISOString() : undefined,
    };
  });
}

const percentile = (sorted: readonly number[], share: number) => sorted[Math.min(sorted.length - 1, Math.floor(share * sorted.length))]!;

/** Wall-clock and CPU milliseconds: on a shared machine the CPU time is the one other work does not lengthen. */
type Timing = { wall: number; cpu: number };

function timed<T>(work: () => T): Timing & { result: T } {
  const cpuBefore = process.cpuUsage();
  const start = performance.now();
  const result = work();
  const wall = performance.now() - start;
  const used = process.cpuUsage(cpuBefore);
  return { wall, cpu: (used.user + used.system) / 1000, result };
}

/** Each request's times, each kind sorted. */
function timeEach(requests: readonly ReferralRequest[], rank: (request: ReferralRequest) => unknown): { wall: number[]; cpu: number[] } {
  const times = requests.map((request) => timed(() => rank(request)));
  const ascending = (a: number, b: number) => a - b;
  return { wall: times.map((time) => time.wall).sort(ascending), cpu: times.map((time) => time.cpu).sort(ascending) };
}

const ms = (value: number) => `${value.toFixed(1)} ms`;
const both = (time: Timing) => `${ms(time.wall)} (CPU ${ms(time.cpu)})`;
const spread = (times: { wall: number[]; cpu: number[] }) =>
  `median ${ms(percentile(times.wall, 0.5))}, p95 ${ms(percentile(times.wall, 0.95))}; CPU median ${ms(percentile(times.cpu, 0.5))}, p95 ${ms(percentile(times.cpu, 0.95))}`;

async function main(): Promise<void> {
  const dataDir = mkdtempSync(path.join(tmpdir(), "bench-matching-"));
  try {
    const now = new Date();
    const size = { ...LARGE_NETWORK, agents: AGENTS };
    await writeNetwork(dataDir, size, "", now, placedAgents(now));
    const store = createStoreFromConfig(loadConfig({ NODE_ENV: "test", DATA_DIR: dataDir, APP_URL: "http://127.0.0.1" }));
    await store.refresh();
    const services = createReplicaServices(store);

    const index = timed(() => services.bestFit.current(now));
    const candidates = timed(() => matchCandidates(store.agents.all()));
    const pool = timed(() => createCandidatePool(candidates.result));
    const trackRecords = timed(() => createTrackRecordCache(store, services.messageQueries.openings).current(now));
    const signals = timed(() => countSignals(signalRows(store, services.messageQueries.latestActivity.current())));

    const random = seededRandom(4_601);
    const somewhere = byPopulation(random);
    const stored = store.requests.all();
    const atPlaces = Array.from({ length: REQUESTS }, (_, i) => {
      const place = somewhere();
      return {
        ...stored[i % stored.length]!,
        location: `${place.name} area`,
        state: place.state,
        specialty: i % 4 === 0 ? "" : stored[i % stored.length]!.specialty,
      };
    });
    const unknownPlaces = atPlaces.slice(0, Math.max(1, REQUESTS / 4)).map((request) => ({ ...request, location: "the lake house" }));
    const rank = (request: ReferralRequest) => bestFitAgents(services, request, { limit: 5, excludeEmails: new Set(), now });
    timeEach(atPlaces.slice(0, 50), rank);
    const known = timeEach(atPlaces, rank);
    const unknown = timeEach(unknownPlaces, rank);
    const found = atPlaces.map((request) => rank(request).length);

    console.log(`Best-fit ranking at ${AGENTS} agents, ${size.requests} requests and ${size.messages} messages (Node ${process.version}):`);
    console.log(`  Index build on first use: ${both(index)}; apart: candidates read from the Agents rows ${both(candidates)},`);
    console.log(`    filed by place ${both(pool)}, signals counted ${both(signals)}, track record ${both(trackRecords)}.`);
    console.log(`  Per request at a known place (${REQUESTS}): ${spread(known)} (budget < ${BUDGET_MS} ms);`);
    console.log(`    ${found.filter((count) => count === 5).length} of ${found.length} found five agents.`);
    console.log(`  Per request matched by state, place unknown (${unknownPlaces.length}): ${spread(unknown)}.`);
    await store.stop();
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
}

await main();
