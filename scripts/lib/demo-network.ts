/**
 * The demo network `npm run seed:demo` puts in an empty store: agents across Texas and
 * Oklahoma, open requests of every type, responses, conversations and referral
 * agreements (demo-referrals.ts), so every page has something real-looking to show.
 *
 * Deterministic: the same `now` gives the same records. Ids come from a hash of each
 * record's fixed key, so they never change between runs and a seed that stopped half
 * way can be completed by inserting the records whose ids are missing. Choices that
 * only need to look varied (phone numbers, brokerages, bios) come from a seeded
 * pseudo-random generator. Times are relative to `now`.
 *
 * The people, places, requests and conversations themselves are data, in `demo-data/`;
 * this module turns them into the tabs' records. Everyone there is fictional: e-mails are
 * on the reserved `.example` domain and phone numbers are in the 555-0100..0199 range
 * kept for fiction.
 */
import { conversationIdFor } from "~/domain/conversation";
import type { MarketState } from "~/domain/enums";
import type {
  Agent,
  Broker,
  Invitation,
  MembershipType,
  OutreachRow,
  Message,
  Referral,
  ReferralEvent,
  ReferralRequest,
  RequestResponse,
  Review,
} from "~/domain/workbook/tabs";
import { approvedAgent } from "./agent-record";
import { APPROVED, DEMO_VIP_CODE, FOUNDERS, LOGIN_AGENT, NOT_APPROVED, VIPS } from "./demo-data/agents";
import { CONVERSATIONS } from "./demo-data/conversations";
import { DEAL_REQUESTS, DEAL_RESPONSES } from "./demo-data/deal-requests";
import {
  BIO_CLOSINGS,
  BIO_OPENINGS,
  FORMER_JOBS,
  LOCAL_BROKERAGES,
  PLACES,
  SPECIALTY_PHRASES,
  STATEWIDE_BROKERAGES,
  type BioFacts,
} from "./demo-data/places";
import { REQUESTS, RESPONSES } from "./demo-data/requests";
import { TRACK_RECORD_CONVERSATIONS } from "./demo-data/track-record";
import { agentNamed, clockAt, DAY_MS, demoId, hashKey, HOUR_MS, seededRandom, type RequestSeed, type ResponseSeed } from "./demo-kit";
import { demoMarkets } from "./demo-markets";
import { withDemoBrokers } from "./demo-brokers";
import { buildDemoReferrals } from "./demo-referrals";
import type { BrokerSignoff } from "~/domain/workbook/tabs";
import type { PushSubscription } from "~/domain/workbook/push-tab";
import { buildDemoInvitations, demoRespondBy } from "./demo-invitations";
import { buildDemoPushSubscriptions } from "./demo-push";
import { buildDemoReviews } from "./demo-reviews";
import { buildDemoOutreach, buildDemoSuppressions, type DemoSuppression } from "./demo-outreach";

export const DEMO_EMAIL_DOMAIN = "demo.example";

type ConversationRead = { conversationId: string; agentEmail: string; lastReadAt: string };

export type DemoNetwork = {
  agents: Agent[];
  requests: ReferralRequest[];
  responses: RequestResponse[];
  messages: Message[];
  /** How far each agent has read each demo conversation (the ConversationMembers tab keeps this). */
  reads: ConversationRead[];
  /** Referral agreements in every status, and their timelines. */
  referrals: Referral[];
  referralEvents: ReferralEvent[];
  /** Each side's broker sign-off: attested, asked by mail and waiting, approved through the link. */
  brokerSignoffs: BrokerSignoff[];
  /** Reviews of the deals that ended: published, waiting for the other party, and one still to write. */
  reviews: Review[];
  /** Invitations to respond: open, answered Not a fit, one request past its Respond by, and one to the demo login. */
  invitations: Invitation[];
  /** Brokers outside TREC's data that staff confirmed for the broker's view. */
  brokers: Broker[];
  /** The demo login's two devices with push on for messages and invitations. */
  pushSubscriptions: PushSubscription[];
  /** The demo login's invitations to join, in every outcome, one of them to her request in Alpine. */
  outreach: OutreachRow[];
  /** Addresses never invited again: one asked, one bounced. */
  suppressions: DemoSuppression[];
  /** The approved agent whose login the seed prints: owns requests, has responses and conversations. */
  loginEmail: string;
};

function pick<T>(random: () => number, items: readonly T[]): T {
  return items[Math.floor(random() * items.length)]!;
}

function between(random: () => number, low: number, high: number): number {
  return low + Math.floor(random() * (high - low + 1));
}

function shuffled<T>(random: () => number, items: readonly T[]): T[] {
  const copy = [...items];
  for (let i = copy.length - 1; i > 0; i -= 1) {
    const j = Math.floor(random() * (i + 1));
    [copy[i], copy[j]] = [copy[j]!, copy[i]!];
  }
  return copy;
}

// ---------------------------------------------------------------------------
// The agents

function emailOf(name: string): string {
  return `${name.toLowerCase().replace(/[^a-z]+/g, ".")}@${DEMO_EMAIL_DOMAIN}`;
}

function slug(text: string): string {
  return text.toLowerCase().replace(/[^a-z0-9]+/g, "");
}

/** The sponsoring broker's license: one per brokerage and state, the same for all its agents there. */
function brokerLicense(state: MarketState, brokerage: string): string {
  const number = hashKey(`broker:${state}:${brokerage}`);
  return state === "TX" ? String(9_000_000 + (number % 999_999)) : String(150_000 + (number % 50_000));
}

function membershipFor(approvedIndex: number): MembershipType {
  if (approvedIndex < FOUNDERS) return "founder";
  return approvedIndex < FOUNDERS + VIPS ? "vip" : "member";
}

function buildAgents(now: Date, passwordHash: string): Agent[] {
  const random = seededRandom(hashKey("demo-network:agents"));
  const clock = clockAt(now);
  const phoneSuffixes = shuffled(
    random,
    Array.from({ length: 100 }, (_, i) => 100 + i),
  );
  const seeds = [...APPROVED, ...NOT_APPROVED];
  return seeds.map((seed, index) => {
    const place = PLACES[seed.city];
    const status = seed.status ?? "approved";
    const membershipType = status === "approved" ? membershipFor(index) : "member";
    const brokerage = pick(random, [...LOCAL_BROKERAGES[place.region], ...STATEWIDE_BROKERAGES[place.state]]);
    // Founders joined first, then the others; applications still waiting are a few days old.
    const joinedDaysAgo = status === "approved" ? 200 - index * 4.5 + random() : 1 + (index - APPROVED.length) * 1.3;
    const createdAt = clock.daysAgo(joinedDaysAgo);
    const licenseExpiration = new Date(Date.parse(createdAt) + between(random, 400, 720) * DAY_MS).toISOString().slice(0, 10);
    const years = between(random, 3, 24);
    const facts: BioFacts = {
      first: seed.name.split(" ")[0]!,
      city: seed.city,
      region: place.region,
      years,
      deals: Math.max(20, Math.round((years * between(random, 8, 18)) / 10) * 10),
      focus: seed.specialties
        .slice(0, 2)
        .map((specialty) => SPECIALTY_PHRASES[specialty])
        .join(" and "),
      otherState: place.state === "TX" ? "Oklahoma" : "Texas",
      job: pick(random, FORMER_JOBS),
    };
    return approvedAgent({
      id: demoId(`agent:${emailOf(seed.name)}`),
      fullName: seed.name,
      email: emailOf(seed.name),
      phone: `(${place.areaCode}) 555-0${phoneSuffixes[index]}`,
      state: place.state,
      city: seed.city,
      zipCode: place.zip,
      licenseNumber: place.state === "TX" ? `0${between(random, 500000, 799999)}` : String(between(random, 150000, 199999)),
      licenseState: place.state,
      licenseExpiration,
      brokerage,
      brokerEmail: `broker@${slug(brokerage)}.${DEMO_EMAIL_DOMAIN}`,
      brokerLicenseNumber: brokerLicense(place.state, brokerage),
      specialties: seed.specialties,
      ...demoMarkets(seed.city, place.state, index),
      bio: `${pick(random, BIO_OPENINGS)(facts)} ${pick(random, BIO_CLOSINGS)(facts)}`,
      membershipType,
      vipCode: membershipType === "vip" ? DEMO_VIP_CODE : "",
      status,
      statusNote: seed.statusNote ?? "",
      passwordHash,
      createdAt,
      updatedAt: status === "rejected" ? clock.daysAgo(joinedDaysAgo - 1) : undefined,
      invitedBy: seed.invitedByLogin ? demoId(`agent:${emailOf(LOGIN_AGENT)}`) : undefined,
    });
  });
}

/** The open requests and the older ones the demo's referral deals came from, with all their responses. */
const ALL_REQUESTS: readonly RequestSeed[] = [...REQUESTS, ...DEAL_REQUESTS];
const ALL_RESPONSES: readonly ResponseSeed[] = [...RESPONSES, ...DEAL_RESPONSES];

const REQUEST_LIFETIME_DAYS = 30;

function buildRequests(now: Date, agents: readonly Agent[]): ReferralRequest[] {
  const clock = clockAt(now);
  return ALL_REQUESTS.map((seed) => {
    const owner = agentNamed(agents, seed.owner);
    const createdAt = clock.daysAgo(seed.daysAgo);
    return {
      id: demoId(`request:${seed.key}`),
      requestType: seed.requestType,
      title: seed.title,
      location: seed.location,
      state: seed.state,
      specialty: seed.specialty,
      priceRange: seed.priceRange,
      clientType: seed.clientType ?? "",
      timeline: seed.timeline,
      contactPreference: seed.contactPreference,
      listingAddress: seed.listingAddress ?? "",
      listingMLS: seed.listingMLS ?? "",
      description: seed.description,
      urgent: seed.urgent ?? false,
      agentEmail: owner.email,
      agentName: owner.fullName,
      status: seed.status ?? "active",
      responses: ALL_RESPONSES.filter((response) => response.request === seed.key).length,
      createdAt,
      updatedAt: seed.status === "deleted" ? clock.after(createdAt, 2) : undefined,
      expiresAt: clock.after(createdAt, REQUEST_LIFETIME_DAYS * 24),
      respondBy: demoRespondBy(now, seed.key, createdAt),
    };
  });
}

function buildResponses(now: Date, agents: readonly Agent[], requests: readonly ReferralRequest[]): RequestResponse[] {
  const clock = clockAt(now);
  return ALL_RESPONSES.map((seed, index) => {
    const request = requests[ALL_REQUESTS.findIndex((candidate) => candidate.key === seed.request)];
    if (!request) throw new Error(`The demo network has no request ${seed.request}`);
    const from = agentNamed(agents, seed.from);
    return {
      id: demoId(`response:${seed.request}:${index}`),
      requestId: request.id,
      fromEmail: from.email,
      fromName: from.fullName,
      toEmail: request.agentEmail,
      message: seed.message,
      createdAt: clock.after(request.createdAt, Math.min(seed.hoursLater, (now.getTime() - Date.parse(request.createdAt)) / HOUR_MS / 2)),
    };
  });
}

function buildConversations(now: Date, agents: readonly Agent[]): { messages: Message[]; reads: ConversationRead[] } {
  const clock = clockAt(now);
  const messages: Message[] = [];
  const reads: ConversationRead[] = [];
  for (const seed of [...CONVERSATIONS, ...TRACK_RECORD_CONVERSATIONS]) {
    const pair = [agentNamed(agents, seed.between[0]), agentNamed(agents, seed.between[1])] as const;
    const conversationId = conversationIdFor(pair[0].id, pair[1].id);
    const start = clock.daysAgo(seed.startsDaysAgo);
    const thread = seed.lines.map(([sender, text], index) => ({
      id: demoId(`message:${conversationId}:${index}`),
      conversationId,
      fromEmail: pair[sender].email,
      toEmail: pair[sender === 0 ? 1 : 0].email,
      text,
      // Replies come a few hours apart, all before now.
      createdAt: clock.after(start, index * (seed.hoursApart ?? Math.min(5, (seed.startsDaysAgo * 24) / (seed.lines.length + 1)))),
      via: seed.byMail?.includes(index) ? ("email" as const) : undefined,
    }));
    messages.push(...thread);
    const last = thread.at(-1)!;
    for (const agent of pair) {
      const unread = seed.lastUnread === true && last.toEmail === agent.email;
      reads.push({ conversationId, agentEmail: agent.email, lastReadAt: (unread ? thread.at(-2)! : last).createdAt });
    }
  }
  return { messages, reads };
}

/** Every demo record, with times relative to `now`; every agent gets `passwordHash`. */
export function buildDemoNetwork(options: { now: Date; passwordHash: string }): DemoNetwork {
  const agents = buildAgents(options.now, options.passwordHash).map((agent) =>
    agent.email === emailOf(LOGIN_AGENT) ? { ...agent, pushOn: ["messages", "invitations"] } : agent,
  );
  const login = agents.find((agent) => agent.email === emailOf(LOGIN_AGENT))!;
  const requests = buildRequests(options.now, agents);
  const responses = buildResponses(options.now, agents, requests);
  const found = <T>(record: T | undefined, what: string): T => {
    if (record === undefined) throw new Error(`The demo network has no ${what}`);
    return record;
  };
  const requestOf = (key: string) => found(requests[ALL_REQUESTS.findIndex((seed) => seed.key === key)], `request ${key}`);
  const responseOf = (requestKey: string, fromName: string) =>
    found(
      responses[ALL_RESPONSES.findIndex((seed) => seed.request === requestKey && seed.from === fromName)],
      `response from ${fromName} to ${requestKey}`,
    );
  const deals = withDemoBrokers(
    buildDemoReferrals({ now: options.now, agents, request: requestOf, response: responseOf }),
    options.now,
    agents,
  );
  return {
    agents,
    requests,
    responses,
    ...buildConversations(options.now, agents),
    ...deals,
    reviews: buildDemoReviews(options.now, deals.referrals),
    invitations: buildDemoInvitations(options.now, agents, requestOf),
    pushSubscriptions: buildDemoPushSubscriptions(options.now, login),
    outreach: buildDemoOutreach({ now: options.now, login, agents, requestOf, emailOf }),
    suppressions: buildDemoSuppressions(options.now, emailOf),
    loginEmail: emailOf(LOGIN_AGENT),
  };
}
