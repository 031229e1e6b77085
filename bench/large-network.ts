/**
 * The benchmark's network: approved agents, referral requests (some live, the rest
 * expired), and messages, written straight into a SQLite store file. Deterministic for
 * the same sizes. Agent 0 is the member the benchmark logs in as: they own a few live
 * requests and `memberMessages` of the messages, spread over conversations. Each request's
 * `responses` cell agrees with its Responses rows, as the app keeps it: a network that
 * disagreed would have the app rewriting counts while the bench measures.
 */
import path from "node:path";
import { conversationIdFor } from "../app/domain/conversation";
import { approvedAgent } from "../scripts/lib/agent-record";
import { seededRandom } from "../scripts/lib/demo-kit";
import { PRICE_RANGES, SPECIALTIES } from "../app/domain/enums";
import { expiresAtFor } from "../app/domain/referral-requests/expiry";
import { serialiseRecord } from "../app/domain/workbook/rows";
import {
  WORKBOOK,
  type Agent,
  type MembershipType,
  type Message,
  type ReferralRequest,
  type RequestResponse,
} from "../app/domain/workbook/tabs";
import { createSqliteDriver } from "../app/server/store/sqlite-driver.server";

export type NetworkSize = {
  agents: number;
  requests: number;
  liveRequests: number;
  messages: number;
  /** Messages to or from the logged-in member, part of `messages`. */
  memberMessages: number;
};

/** The large network of docs/product.md#performance-budgets. */
export const LARGE_NETWORK: NetworkSize = { agents: 5_000, requests: 2_000, liveRequests: 640, messages: 100_000, memberMessages: 1_000 };

export const BENCH_MEMBER_EMAIL = "agent0@bench.example.com";
/** Messages per conversation: the member's own messages fill conversations of this length. */
export const THREAD_LENGTH = 60;
export const DAY_MS = 24 * 60 * 60 * 1000;

// The word lists are kept as grids: one name per line would take a screen each.
// prettier-ignore
const FIRST_NAMES = [
  "James", "Maria", "Robert", "Sandra", "Michael", "Linda", "David", "Ana", "William", "Elizabeth", "José", "Jennifer",
  "Richard", "Sofía", "Thomas", "Karen", "Daniel", "Nancy", "Matthew", "Lisa", "Anthony", "Betty", "Mark", "Sarah",
  "Steven", "Sancha", "Paul", "Emily", "Andrew", "Michelle", "Joshua", "Zoë", "Kevin", "Dorothy", "Brian", "Renée",
];
// prettier-ignore
const LAST_NAMES = [
  "Smith", "Johnson", "Williams", "Brown", "Jones", "García", "Miller", "Davis", "Rodríguez", "Martínez", "Hernández",
  "Lopez", "Gonzalez", "Wilson", "Anderson", "Thomas", "Taylor", "Moore", "Jackson", "Martin", "Lee", "Pérez", "Sanders",
  "Thompson", "White", "Harris", "Sánchez", "Clark", "Ramirez", "Lewis", "Robinson", "Walker", "Young", "Allen", "King",
];
// prettier-ignore
const PLACES: Record<"TX" | "OK", readonly string[]> = {
  TX: ["Dallas", "Austin", "Houston", "San Antonio", "Fort Worth", "El Paso", "Plano", "Lubbock", "Amarillo", "Waco", "San Marcos", "Denton"],
  OK: ["Oklahoma City", "Tulsa", "Norman", "Broken Arrow", "Edmond", "Lawton", "Stillwater", "Enid", "Sand Springs", "Ardmore"],
};
// prettier-ignore
const BROKERAGES = [
  "Lone Star Realty", "Red River Homes", "Prairie Partners", "Hill Country Properties", "Sooner Realty Group",
  "Gulf Coast Brokers", "Panhandle Land Co.", "Crossroads Real Estate", "Bluebonnet Realty", "Redbud Realty",
];
export const LINES = [
  "Thanks for reaching out about the listing on Elm Street.",
  "My buyers are pre-approved and ready to tour this weekend.",
  "Could you send over the disclosures when you get a chance?",
  "Happy to split the referral fee at 25% as usual.",
  "They are relocating from Tulsa and want something near good schools.",
  "Sounds good, I will call you tomorrow morning.",
];

function pick<T>(random: () => number, items: readonly T[]): T {
  return items[Math.floor(random() * items.length)]!;
}

export function benchAgents(count: number, passwordHash = ""): Agent[] {
  const random = seededRandom(20_261_121);
  return Array.from({ length: count }, (_, i) => {
    const state = i % 2 === 0 ? "TX" : "OK";
    const fullName = `${pick(random, FIRST_NAMES)} ${pick(random, LAST_NAMES)}`;
    const specialties = SPECIALTIES.filter(() => random() < 0.25);
    const membershipType: MembershipType = i < 100 ? "founder" : i % 17 === 0 ? "vip" : "member";
    return approvedAgent({
      id: `bench-${i}`,
      fullName,
      email: `agent${i}@bench.example.com`,
      phone: `(${state === "TX" ? 214 : 405}) 555-${String(1000 + (i % 9000)).padStart(4, "0")}`,
      state,
      city: pick(random, PLACES[state]),
      licenseNumber: String(500000 + i),
      licenseState: state,
      licenseExpiration: "2027-12-31",
      brokerage: pick(random, BROKERAGES),
      specialties: specialties.length > 0 ? specialties : ["Residential"],
      bio: `${fullName.split(" ")[0]} has helped buyers and sellers for ${3 + (i % 20)} years.`,
      membershipType,
      passwordHash: i === 0 ? passwordHash : "",
      createdAt: new Date(Date.UTC(2025, 0, 1) + i * 60_000).toISOString(),
    });
  });
}

/** Live requests posted over the last 20 days, the rest 40 to 100 days ago and expired; every 50th is the member's. */
function benchRequests(agents: readonly Agent[], size: NetworkSize, now: Date): ReferralRequest[] {
  const random = seededRandom(7_031);
  return Array.from({ length: size.requests }, (_, i) => {
    const live = i < size.liveRequests;
    const agent = i % 50 === 0 ? agents[0]! : pick(random, agents);
    const createdAt = new Date(now.getTime() - (live ? random() * 20 : 40 + random() * 60) * DAY_MS).toISOString();
    const requestType = pick(random, ["referral", "listing", "buyer"] as const);
    const city = pick(random, PLACES[agent.state as "TX" | "OK"]);
    return {
      id: `bench-request-${i}`,
      requestType,
      title: `${requestType === "listing" ? "Listing" : "Buyer"} in ${city} needs an agent`,
      location: city,
      state: agent.state,
      specialty: pick(random, SPECIALTIES),
      priceRange: pick(random, PRICE_RANGES),
      clientType: requestType === "referral" ? "buyer" : "",
      timeline: "1month",
      contactPreference: "either",
      listingAddress: requestType === "listing" ? `${100 + i} Main St` : "",
      listingMLS: "",
      description: `${pick(random, LINES)} ${pick(random, LINES)} Family of four, flexible on timing, looking around ${city}.`,
      urgent: i % 9 === 0,
      agentEmail: agent.email,
      agentName: agent.fullName,
      status: live ? "active" : "expired",
      responses: responsesTo(i),
      createdAt,
      updatedAt: undefined,
      expiresAt: expiresAtFor(createdAt),
    };
  });
}

/** How many members answered the `i`th request: 0 to 3. */
function responsesTo(request: number): number {
  return request % 4;
}

/** The responses to each request, from the agents after its poster's place in the list. */
function benchResponses(agents: readonly Agent[], requests: readonly ReferralRequest[]): RequestResponse[] {
  const random = seededRandom(9_117);
  const placeOf = new Map(agents.map((agent, place) => [agent.email, place]));
  return requests.flatMap((request, i) => {
    const poster = placeOf.get(request.agentEmail)!;
    return Array.from({ length: responsesTo(i) }, (_, n) => {
      const from = agents[(poster + 1 + n * 37 + i) % agents.length]!;
      return {
        id: `bench-response-${i}-${n}`,
        requestId: request.id,
        fromEmail: from.email,
        fromName: from.fullName,
        toEmail: request.agentEmail,
        message: pick(random, LINES),
        createdAt: new Date(Date.parse(request.createdAt) + (n + 1) * 3_600_000).toISOString(),
      };
    });
  });
}

/**
 * The two agents of the `thread`th thread of THREAD_LENGTH messages (the first writes its
 * even messages): the member with agents 1, 2, ... for the member's own messages, else a
 * pair of other agents, which repeats every `agents - 1` threads. A pair of one agent twice
 * has no messages.
 */
export function threadAgents(agents: readonly Agent[], thread: number, own: boolean): [Agent, Agent] {
  const others = agents.length - 1;
  if (own) return [agents[0]!, agents[1 + (thread % others)]!];
  return [agents[1 + ((thread * 7) % others)]!, agents[1 + ((thread * 13 + 5) % others)]!];
}

/**
 * Messages in threads of THREAD_LENGTH: the member's own first (with agents 1, 2, ...),
 * then threads between other agents, oldest first over the last 200 days.
 */
function benchMessages(agents: readonly Agent[], size: NetworkSize, now: Date): Message[] {
  const random = seededRandom(4_242);
  const messages: Message[] = [];
  const start = now.getTime() - 200 * DAY_MS;
  for (let i = 0; i < size.messages; i += 1) {
    const [a, b] = threadAgents(agents, Math.floor(i / THREAD_LENGTH), i < size.memberMessages);
    const [from, to] = i % 2 === 0 ? [a, b] : [b, a];
    if (from.id === to.id) continue;
    messages.push({
      id: `bench-message-${i}`,
      conversationId: conversationIdFor(from.id, to.id),
      fromEmail: from.email,
      toEmail: to.email,
      text: pick(random, LINES),
      createdAt: new Date(start + (i / size.messages) * 199 * DAY_MS).toISOString(),
    });
  }
  return messages;
}

/** Writes the network into `dataDir/store.sqlite`, in chunks so memory stays flat; `agents` replaces `benchAgents`' when a bench shapes its own. */
export async function writeNetwork(
  dataDir: string,
  size: NetworkSize,
  memberPasswordHash: string,
  now = new Date(),
  agents: readonly Agent[] = benchAgents(size.agents, memberPasswordHash),
): Promise<void> {
  const driver = createSqliteDriver(path.join(dataDir, "store.sqlite"));
  await driver.ensureTabs(Object.values(WORKBOOK));
  const write = async <T extends object>(tab: (typeof WORKBOOK)[keyof typeof WORKBOOK], records: readonly T[]) => {
    for (let i = 0; i < records.length; i += 5_000) {
      // Each tab's records match its own definition; the union of tabs loses that link.
      await driver.appendRows(
        tab,
        records.slice(i, i + 5_000).map((record) => serialiseRecord(tab as never, record as never)),
      );
    }
  };
  await write(WORKBOOK.agents, agents);
  const requests = benchRequests(agents, size, now);
  await write(WORKBOOK.requests, requests);
  await write(WORKBOOK.responses, benchResponses(agents, requests));
  await write(WORKBOOK.messages, benchMessages(agents, size, now));
  await driver.close();
}
