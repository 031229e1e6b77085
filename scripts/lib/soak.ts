/**
 * The fault and load run: simulated members browse, post requests, respond and message
 * against two built app instances sharing one workbook on the fake Sheets server, while
 * the fake injects 429 storms, 500s, stalls and dropped connections. Afterwards the
 * workbook is read afresh and every write an instance acknowledged must be in it.
 *
 * Used by `npm run soak` (scripts/soak.ts, a few minutes) and by the short run inside
 * `npm test` (tests/integration/soak.test.ts), which goes through every fault once.
 */
import { randomBytes } from "node:crypto";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { newRequest, postRequestSchema } from "../../app/domain/referral-requests/forms";
import type { Agent, ReferralRequest } from "../../app/domain/workbook/tabs";
import { hashPassword } from "../../app/server/auth/password.server";
import { loadConfig } from "../../app/server/config.server";
import { createServices } from "../../app/server/service-lifecycle.server";
import type { Services } from "../../app/server/services.server";
import { newId } from "../../app/server/store/store.server";
import { logIn, postForm, productionEnv, startBuiltServer, type BuiltServer } from "./built-server";
import { matchers, startFakeSheets, type FakeSheetsServer } from "./fake-sheets/server";
import { agent as agentRecord } from "./sheets-send-bench";

export type SoakOptions = {
  durationMs: number;
  /** Simulated members, spread over the two instances; each does one thing at a time. */
  members: number;
  /** How long each fault, and each calm spell between two, lasts: four faults take eight phases. */
  phaseMs?: number;
  log: (line: string) => void;
};

export type SoakFigures = {
  durationSeconds: number;
  pagesServed: number;
  /** Pages answered 4xx (none are expected: every page asked for exists and is the member's to see). */
  pagesRefused: number;
  writesAcknowledged: number;
  /** 4xx, or the app's own 503, with a message on the page for the member. */
  writesRefusedWithMessage: number;
  /** A write answered neither with a redirect nor with a message. */
  writesUnexpected: number;
  /** A 5xx answer without the app's message (an error page): must be 0. */
  serverErrors: number;
  /** Requests that got no answer at all within the client's patience. */
  noAnswer: number;
  /** Acknowledged writes not in the workbook once the run is over: must be 0. */
  acknowledgedMissing: number;
  /** Rows stored twice (the same id), e.g. a retried append whose first try had landed. */
  duplicateRows: number;
  faultsInjected: Record<FaultName, number>;
  sheetsCalls: number;
  /** Both instances exited with code 0 on SIGTERM at the end. */
  cleanStops: boolean;
};

type FaultName = "429 storm" | "500s" | "stall" | "dropped connections";

const PASSWORD = "correct horse battery";
const PHASE_MS = 4_000;

/** A referral request's form as a member fills it in; each post and seeded request adds its own title. */
const REQUEST_FORM = {
  requestType: "referral",
  location: "Dallas",
  state: "TX",
  specialty: "Residential",
  priceRange: "$200k - $400k",
  clientType: "buyer",
  contactPreference: "either",
  description: "Load test.",
};
const CLIENT_PATIENCE_MS = 60_000;

type Write = { kind: "message" | "request" | "response"; marker: string; detail?: string };

/** Where each write redirects once stored; any other redirect (to the login page, say) is not an acknowledgement. */
const ACKNOWLEDGED_AT: Record<Write["kind"], string> = {
  message: "/messages?conversation=",
  request: "/referral-requests?tab=mine&notice=posted",
  response: "/referral-requests?notice=responded",
};

/** The fault phases, in turn, with a calm phase between each; `current()` names the one in force. */
function faultCycle(fake: FakeSheetsServer, counts: Record<FaultName, number>, phaseMs: number) {
  const faults: Array<[FaultName, () => void]> = [
    ["429 storm", () => fake.failNext(40, 429)],
    ["500s", () => fake.failNext(8, 500)],
    ["stall", () => fake.setLatency(2_500)],
    [
      "dropped connections",
      () => {
        fake.dropNext(3, "before");
        fake.dropNext(3, "after", matchers.writes);
      },
    ],
  ];
  let phase = 0;
  let current = "calm";
  const timer = setInterval(() => {
    fake.clearFaults();
    phase += 1;
    current = "calm";
    if (phase % 2 === 0) return;
    const [name, inject] = faults[((phase - 1) / 2) % faults.length]!;
    counts[name] += 1;
    current = name;
    inject();
  }, phaseMs);
  return {
    current: () => current,
    stop() {
      clearInterval(timer);
      fake.clearFaults();
    },
  };
}

type Outcome = "served" | "page refused" | "acknowledged" | "refused" | "unexpected" | "server error" | "no answer";

async function outcomeOf(response: Response, write: Write | undefined): Promise<Outcome> {
  const body = await response.text();
  const hasMessage = body.includes('role="alert"');
  if (response.status >= 500) return response.status === 503 && hasMessage ? "refused" : "server error";
  if (!write) return response.status < 400 ? "served" : "page refused";
  if (response.status === 302 || response.status === 303) {
    return response.headers.get("location")?.startsWith(ACKNOWLEDGED_AT[write.kind]) ? "acknowledged" : "unexpected";
  }
  return hasMessage || response.status === 429 ? "refused" : "unexpected";
}

/**
 * Members and their requests, stored as the app stores them, before the instances start;
 * all at once, so the Sheets driver sends each tab's rows in one paced write call.
 */
async function seedMembers(services: Services, members: number): Promise<{ agents: Agent[]; requests: ReferralRequest[] }> {
  const passwordHash = await hashPassword(services.config, PASSWORD);
  const agents = await Promise.all(
    Array.from({ length: members }, (_, i) => services.store.agents.insert({ ...agentRecord(i), passwordHash })),
  );
  const requests = await Promise.all(
    agents.flatMap((agent, i) =>
      [0, 1].map((j) => {
        const input = postRequestSchema.parse({ ...REQUEST_FORM, title: `Seeded request ${i}.${j}` });
        return services.store.requests.insert(newRequest({ id: newId(), input, agent, now: new Date() }));
      }),
    ),
  );
  return { agents, requests };
}

/** Services of the soak's own on the instances' workbook, to seed it and to read it back afresh. */
async function workbookServices(env: Record<string, string>): Promise<Services> {
  const services = createServices(loadConfig({ ...env, DATA_DIR: mkdtempSync(path.join(tmpdir(), "referral-soak-reader-")) }));
  await services.store.refresh();
  return services;
}

export async function runSoak({ durationMs, members, phaseMs = PHASE_MS, log }: SoakOptions): Promise<SoakFigures> {
  const fake = await startFakeSheets();
  // Like Google, the fake serves only spreadsheets that exist.
  fake.spreadsheet("soak");
  const env = {
    ...productionEnv(mkdtempSync(path.join(tmpdir(), "referral-soak-"))),
    // The fake Sheets server needs no credentials, which only a non-production mode allows.
    NODE_ENV: "test",
    GOOGLE_SHEETS_ID: "soak",
    GOOGLE_SHEETS_API_URL: fake.url,
    STORE_REFRESH_SECONDS: "1",
    // Logging in is not what the run measures: bcrypt's least cost (decision 0040) leaves the time to the load.
    PASSWORD_HASH_COST: "4",
  };

  const seed = await workbookServices(env);
  const { agents, requests } = await seedMembers(seed, members);
  await seed.store.stop();

  const servers: BuiltServer[] = await Promise.all([0, 1].map(() => startBuiltServer(["node", "scripts/start.mjs"], env)));
  // Every member is logged in before the clock starts, so the whole run is load and faults.
  const cookies = await Promise.all(agents.map((agent, index) => logIn(servers[index % 2]!.baseUrl, agent.email, PASSWORD)));
  log(
    `Soak: two instances (${servers.map((s) => s.baseUrl).join(", ")}) on one workbook, ${members} members, ${Math.round(durationMs / 1000)} s`,
  );

  const counts = {
    served: 0,
    "page refused": 0,
    acknowledged: 0,
    refused: 0,
    unexpected: 0,
    "server error": 0,
    "no answer": 0,
  } satisfies Record<Outcome, number>;
  const acknowledged: Write[] = [];
  const faultsInjected: Record<FaultName, number> = { "429 storm": 0, "500s": 0, stall: 0, "dropped connections": 0 };
  const problems: string[] = [];
  const startedAt = Date.now();
  const deadline = startedAt + durationMs;
  const faults = faultCycle(fake, faultsInjected, phaseMs);

  async function member(index: number): Promise<void> {
    const me = agents[index]!;
    const server = servers[index % 2]!;
    const cookie = cookies[index]!;
    const others = agents.filter((agent) => agent.id !== me.id);
    const theirRequests = requests.filter((request) => request.agentEmail !== me.email);
    const pick = <T>(items: T[]) => items[Math.floor(Math.random() * items.length)]!;

    const record = async (label: string, send: () => Promise<Response>, write?: Write) => {
      const sentAt = Date.now();
      const phaseAtSend = faults.current();
      let outcome: Outcome;
      try {
        const response = await send();
        outcome = await outcomeOf(response, write);
        if (outcome === "unexpected") problems.push(`${label}: answered ${response.status} ${response.headers.get("location") ?? ""}`);
      } catch (error) {
        outcome = "no answer";
        problems.push(`${label}: ${error instanceof Error ? error.message : String(error)}`);
      }
      counts[outcome] += 1;
      if (outcome === "server error" || outcome === "page refused") problems.push(`${label}: ${outcome}`);
      if (outcome === "acknowledged" && write) {
        const detail = `sent by ${me.email} to ${server.baseUrl} at ${((sentAt - startedAt) / 1000).toFixed(1)} s during "${phaseAtSend}", answered after ${Date.now() - sentAt} ms`;
        acknowledged.push({ ...write, detail });
      }
    };
    const get = (pathname: string) => () =>
      fetch(`${server.baseUrl}${pathname}`, { headers: { Cookie: cookie }, signal: AbortSignal.timeout(CLIENT_PATIENCE_MS) });
    const post = (pathname: string, fields: Record<string, string>) => () =>
      postForm(server.baseUrl, pathname, cookie, new URLSearchParams(fields), AbortSignal.timeout(CLIENT_PATIENCE_MS));

    while (Date.now() < deadline) {
      const marker = randomBytes(6).toString("hex");
      const roll = Math.random();
      if (roll < 0.6) {
        const page = pick([
          "/",
          "/directory?state=TX",
          "/member-dashboard",
          "/referral-requests",
          "/messages",
          `/referral-requests/${pick(requests).id}`,
        ]);
        await record(`GET ${page}`, get(page));
      } else if (roll < 0.75) {
        const text = `Soak message ${marker}`;
        await record("send a message", post(`/messages?to=${pick(others).id}`, { intent: "send", text }), {
          kind: "message",
          marker: text,
        });
      } else if (roll < 0.9) {
        const message = `Soak response ${marker}`;
        await record("respond", post(`/referral-requests/${pick(theirRequests).id}/respond`, { message }), {
          kind: "response",
          marker: message,
        });
      } else {
        const title = `Soak request ${marker}`;
        // The form posts to its own address, which names the type.
        await record("post a request", post("/post-request?type=referral", { ...REQUEST_FORM, title }), { kind: "request", marker: title });
      }
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }

  await Promise.all(agents.map((_, index) => member(index)));
  faults.stop();
  const durationSeconds = Math.round((Date.now() - startedAt) / 1000);

  // Stopped the way an operator does; each instance finishes its requests in flight first.
  const exits = await Promise.all(
    servers.map((server) => {
      server.child.kill("SIGTERM");
      return server.exited;
    }),
  );
  const cleanStops = exits.every((exit) => exit.code === 0);
  if (!cleanStops) problems.push(`instance exits: ${JSON.stringify(exits)}`);

  const check = await workbookServices(env);
  const { store } = check;
  const stored = {
    message: new Set(store.messages.all().map((row) => row.text)),
    response: new Set(store.responses.all().map((row) => row.message)),
    request: new Set(store.requests.all().map((row) => row.title)),
  };
  const book = fake.spreadsheet("soak");
  const missing = acknowledged.filter((write) => !stored[write.kind].has(write.marker));
  for (const write of missing.slice(0, 10)) {
    // In the sheet but not read back (an invalid row), or not in the sheet at all.
    const rows = book.sheets.flatMap((sheet) =>
      book.rows(sheet.title).flatMap((cells, i) => (cells.includes(write.marker) ? [`${sheet.title} row ${i + 1}`] : [])),
    );
    problems.push(
      `acknowledged ${write.kind} missing: ${write.marker} (${rows.length > 0 ? `in the sheet at ${rows.join(", ")}` : "not in the sheet"}), ${write.detail}`,
    );
  }
  for (const invalid of store.health().invalidRows.slice(0, 5)) problems.push(`invalid row: ${JSON.stringify(invalid)}`);
  const duplicateRows = book.sheets.reduce((total, sheet) => {
    const idColumn = book.headers(sheet.title).indexOf("id");
    const ids =
      idColumn < 0
        ? []
        : book
            .rows(sheet.title)
            .slice(1)
            .map((row) => row[idColumn])
            .filter(Boolean);
    return total + ids.length - new Set(ids).size;
  }, 0);
  await check.store.stop();
  const sheetsCalls = fake.calls.length;
  await fake.close();

  for (const problem of problems.slice(0, 20)) log(`  problem: ${problem}`);
  if (counts["server error"] > 0 || missing.length > 0) {
    for (const server of servers) {
      const notable = server
        .output()
        .split("\n")
        .filter((line) => /^\S/.test(line) && !line.startsWith("npm warn"));
      log(`--- ${server.baseUrl} log lines (first 40):\n${notable.slice(0, 40).join("\n")}`);
    }
  }

  return {
    durationSeconds,
    pagesServed: counts.served,
    pagesRefused: counts["page refused"],
    writesAcknowledged: counts.acknowledged,
    writesRefusedWithMessage: counts.refused,
    writesUnexpected: counts.unexpected,
    serverErrors: counts["server error"],
    noAnswer: counts["no answer"],
    acknowledgedMissing: missing.length,
    duplicateRows,
    faultsInjected,
    sheetsCalls,
    cleanStops,
  };
}

export function formatFigures(figures: SoakFigures): string {
  const faults = Object.entries(figures.faultsInjected)
    .map(([name, count]) => `${name} ×${count}`)
    .join(", ");
  return [
    `Soak run, ${figures.durationSeconds} s, two instances on one workbook (faults: ${faults}; ${figures.sheetsCalls} Sheets calls)`,
    `  pages served                      ${figures.pagesServed}`,
    `  pages refused (4xx)               ${figures.pagesRefused}`,
    `  writes acknowledged               ${figures.writesAcknowledged}`,
    `  writes refused with a message     ${figures.writesRefusedWithMessage}`,
    `  writes answered without either    ${figures.writesUnexpected}`,
    `  5xx without a message (must be 0) ${figures.serverErrors}`,
    `  no answer within 60 s             ${figures.noAnswer}`,
    `  acknowledged writes missing (0)   ${figures.acknowledgedMissing}`,
    `  rows stored twice                 ${figures.duplicateRows}`,
    `  clean stops on SIGTERM            ${figures.cleanStops ? "yes" : "no"}`,
  ].join("\n");
}
