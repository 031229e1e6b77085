/**
 * The demo's referral agreements: deals between demo agents in every status, from a
 * proposal waiting for the demo login's signature to fees received months ago, each with
 * its timeline, both electronic acceptances and the agreement's exact text.
 *
 * Each deal is built the way the app builds it (app/server/referrals/referrals.server.ts):
 * the terms go through the proposal form's schema, each step through its form's schema and
 * the pipeline's order and party rules, the brokers are copied from the profiles, each
 * acceptance covers the SHA-256 of the agreement's text, the term ends `termEnd` after
 * signing and each step sets the app's columns (`stepPatch`: the fee at closing from the
 * gross commission). A deal whose story the app would refuse throws instead of being
 * written.
 */
import {
  otherParty,
  partyOf,
  proposalDefaults,
  proposalSchema,
  stepSchemas,
  stepPatch,
  termEnd,
  termsFromProposal,
  type StepInput,
} from "~/domain/referrals/agreement";
import type { ReferralSide } from "~/domain/referrals/labels";
import { checkStep, PIPELINE_STEPS, type PipelineStep, type ReferralParty } from "~/domain/referrals/status";
import type { Agent, Referral, ReferralEvent, ReferralRequest, RequestResponse } from "~/domain/workbook/tabs";
import { agreementHash } from "~/server/referrals/agreement-text.server";
import { asSignedBy, hasSigned, partiesFor } from "~/server/referrals/referrals.server";
import { agentNamed, clockAt, demoId, type RequestSeed, type ResponseSeed } from "./demo-kit";

// ---------------------------------------------------------------------------
// The requests and responses the deals came from: most long expired by now

export const DEAL_REQUESTS: readonly RequestSeed[] = [
  {
    key: "houston-jumbo-to-north-dallas",
    owner: "James Whitfield",
    requestType: "referral",
    title: "Houston buyer relocating to North Dallas",
    location: "Dallas",
    state: "TX",
    specialty: "Luxury",
    priceRange: "$1M - $2M",
    clientType: "buyer",
    timeline: "1month",
    contactPreference: "either",
    description:
      "Executive transferring to a Dallas headquarters. Around $1.2M, North Dallas, jumbo loan in process with a Houston lender.",
    daysAgo: 5.5,
  },
  {
    key: "okc-family-to-dallas",
    owner: "Sarah Whitlock",
    requestType: "referral",
    title: "OKC family moving to Dallas needs a buyer's agent",
    location: "Dallas",
    state: "TX",
    specialty: "Residential",
    priceRange: "$400k - $600k",
    clientType: "buyer",
    timeline: "1month",
    contactPreference: "either",
    description: "Clients are selling with me in Oklahoma City and buying in North Dallas for a new job. Four bedrooms, good schools.",
    daysAgo: 160,
    status: "expired",
  },
  {
    key: "dallas-to-el-paso",
    owner: "Maria Delgado",
    requestType: "referral",
    title: "Dallas client relocating to El Paso",
    location: "El Paso",
    state: "TX",
    specialty: "Residential",
    priceRange: "$200k - $400k",
    clientType: "buyer",
    timeline: "1month",
    contactPreference: "email",
    description: "Civilian job at Fort Bliss starting in the spring. Wants a three-bedroom home on the west side, first purchase in years.",
    daysAgo: 150,
    status: "expired",
  },
  {
    key: "dallas-investor-san-antonio",
    owner: "Maria Delgado",
    requestType: "referral",
    title: "Dallas investor wants San Antonio rentals",
    location: "San Antonio",
    state: "TX",
    specialty: "Investment",
    priceRange: "$200k - $400k",
    clientType: "buyer",
    timeline: "flexible",
    contactPreference: "either",
    description:
      "Repeat client buying a single-family rental near Joint Base San Antonio. Cash purchase, wants a local agent who knows rents.",
    daysAgo: 130,
    status: "expired",
  },
  {
    key: "amarillo-to-enid-wheat",
    owner: "Wade Harlan",
    requestType: "referral",
    title: "Amarillo farmer buying wheat ground near Enid",
    location: "Garfield County",
    state: "OK",
    specialty: "Farm and Ranch",
    priceRange: "$1M - $2M",
    clientType: "buyer",
    timeline: "flexible",
    contactPreference: "phone",
    description: "Long-time client expanding into Oklahoma: 300 to 500 acres of cropland, water rights a plus, 1031 exchange in progress.",
    daysAgo: 110,
    status: "expired",
  },
  {
    key: "dallas-retirees-to-tulsa",
    owner: "Maria Delgado",
    requestType: "referral",
    title: "Dallas couple retiring to Tulsa",
    location: "Tulsa",
    state: "OK",
    specialty: "Residential",
    priceRange: "$200k - $400k",
    clientType: "buyer",
    timeline: "1month",
    contactPreference: "either",
    description: "Retirees moving near their grandchildren in south Tulsa. Single story, low-maintenance yard, close to their church.",
    daysAgo: 95,
    status: "expired",
  },
  {
    key: "norman-condo-for-student",
    owner: "Maria Delgado",
    requestType: "referral",
    title: "Parents buying a condo near OU for their son",
    location: "Norman",
    state: "OK",
    specialty: "Residential Income",
    priceRange: "Under $200k",
    clientType: "buyer",
    timeline: "2weeks",
    contactPreference: "email",
    description: "Dallas parents want a two-bedroom condo within walking distance of campus, to rent the second room to a classmate.",
    daysAgo: 85,
    status: "expired",
  },
  {
    key: "austin-sellers-to-dallas",
    owner: "Priya Raman",
    requestType: "referral",
    title: "Austin sellers buying in Dallas",
    location: "Dallas",
    state: "TX",
    specialty: "Residential",
    priceRange: "$400k - $600k",
    clientType: "buyer",
    timeline: "1month",
    contactPreference: "either",
    description:
      "I am listing their Round Rock home; they need a Dallas agent for the purchase. Lakewood or Lake Highlands, four bedrooms.",
    daysAgo: 70,
    status: "expired",
  },
  {
    key: "dallas-seller-to-edmond",
    owner: "Maria Delgado",
    requestType: "referral",
    title: "Buyer moving from Dallas to Edmond",
    location: "Edmond",
    state: "OK",
    specialty: "Luxury",
    priceRange: "$800k - $1M",
    clientType: "buyer",
    timeline: "1month",
    contactPreference: "phone",
    description: "I am selling their Preston Hollow home. They want a newer five-bedroom home in Edmond with a pool.",
    daysAgo: 50,
    status: "expired",
  },
  {
    key: "houston-engineer-to-plano",
    owner: "James Whitfield",
    requestType: "referral",
    title: "Houston engineer relocating to Plano",
    location: "Plano",
    state: "TX",
    specialty: "Residential",
    priceRange: "$600k - $800k",
    clientType: "buyer",
    timeline: "1month",
    contactPreference: "either",
    description: "Transferring to a Legacy West office. Four bedrooms, Plano ISD, short commute; selling their Katy home with me.",
    daysAgo: 45,
    status: "expired",
  },
];

export const DEAL_RESPONSES: readonly ResponseSeed[] = [
  {
    request: "houston-jumbo-to-north-dallas",
    from: "Maria Delgado",
    message: "North Dallas luxury is my market, and I have two jumbo lenders I trust. Send them my way.",
    hoursLater: 3,
  },
  {
    request: "okc-family-to-dallas",
    from: "Maria Delgado",
    message: "North Dallas is my home market. I'd be glad to help them: can we talk this week?",
    hoursLater: 4,
  },
  {
    request: "dallas-to-el-paso",
    from: "Luis Ortega",
    message: "I work the west side every day and know the Fort Bliss relocation office. Happy to take them.",
    hoursLater: 7,
  },
  {
    request: "dallas-investor-san-antonio",
    from: "Carlos Benavides",
    message: "Rentals near JBSA are my specialty. I can send three options with current rents by Friday.",
    hoursLater: 5,
  },
  {
    request: "amarillo-to-enid-wheat",
    from: "Roy Dunham",
    message: "Two wheat farms near Enid are coming to auction this spring. I'll send the sale bills.",
    hoursLater: 10,
  },
  {
    request: "dallas-retirees-to-tulsa",
    from: "Travis Colbert",
    message: "South Tulsa has several single-story neighborhoods near churches. I'll line up a tour day.",
    hoursLater: 6,
  },
  {
    request: "norman-condo-for-student",
    from: "Emily Chen",
    message: "I sell condos near campus every semester. Two good ones just listed.",
    hoursLater: 3,
  },
  {
    request: "austin-sellers-to-dallas",
    from: "Maria Delgado",
    message: "Lakewood and Lake Highlands are where I live and work. I'd love to help your clients.",
    hoursLater: 2,
  },
  {
    request: "dallas-seller-to-edmond",
    from: "Garrett Pierce",
    message: "Edmond luxury is all I do. I can show them the new pool homes in the north end.",
    hoursLater: 8,
  },
  {
    request: "houston-engineer-to-plano",
    from: "Maria Delgado",
    message: "Plano is a short drive for me and I know the Legacy West commute well. Happy to help.",
    hoursLater: 5,
  },
];

// ---------------------------------------------------------------------------
// The deals

/** The request's poster or the agent who responded to it. */
type Side = "poster" | "responder";

/** One thing that happened to a deal, `daysAgo` before the seed's `now`. */
type DealStep =
  | { step: "sign"; by: ReferralParty; daysAgo: number }
  | { step: "declined" | "withdrawn"; daysAgo: number; note: string }
  | { step: "introduced" | "fee_paid" | "fee_received"; daysAgo: number; note?: string }
  /** The expected closing is `closesInDays` after `now`. */
  | { step: "under_contract"; daysAgo: number; closesInDays: number; note?: string }
  | { step: "closed"; daysAgo: number; salePrice: string; grossCommission: string; note?: string }
  | { step: "lost"; by: ReferralParty; daysAgo: number; reason: string; note?: string }
  /** The app's own step, a few minutes after the term ended. */
  | { step: "expired" };

type DealSeed = {
  key: string;
  request: string;
  responder: string;
  proposedBy: Side;
  referrer: Side;
  clientName: string;
  side?: ReferralSide;
  /** The fee: a percentage ("25") or a flat amount ("2,500.00"); the form's default percentage otherwise. */
  feePercent?: string;
  feeFlat?: string;
  termMonths?: number;
  terms?: string;
  proposedDaysAgo: number;
  steps: readonly DealStep[];
};

const DEALS: readonly DealSeed[] = [
  // The demo login's: one in each status.
  {
    key: "okc-tinker-sarah",
    request: "okc-relocation",
    responder: "Sarah Whitlock",
    proposedBy: "responder",
    referrer: "poster",
    clientName: "Dana",
    proposedDaysAgo: 2.1,
    steps: [
      { step: "sign", by: "referring", daysAgo: 1.9 },
      { step: "sign", by: "receiving", daysAgo: 1.7 },
    ],
  },
  {
    key: "okc-tinker-nathan",
    request: "okc-relocation",
    responder: "Nathan Price",
    proposedBy: "poster",
    referrer: "poster",
    clientName: "Dana",
    proposedDaysAgo: 2.15,
    steps: [
      {
        step: "withdrawn",
        daysAgo: 2.05,
        note: "My clients chose an agent who shows homes in Moore every week. Thank you for the quick reply!",
      },
    ],
  },
  {
    key: "lake-highlands-grace",
    request: "lake-highlands-listing",
    responder: "Grace Nguyen",
    proposedBy: "responder",
    referrer: "responder",
    clientName: "Kevin",
    feePercent: "20",
    termMonths: 6,
    terms: "Covers the purchase of 4182 Blue Sage Dr only.",
    proposedDaysAgo: 0.6,
    steps: [{ step: "sign", by: "referring", daysAgo: 0.58 }],
  },
  {
    key: "north-dallas-jumbo",
    request: "houston-jumbo-to-north-dallas",
    responder: "Maria Delgado",
    proposedBy: "poster",
    referrer: "poster",
    clientName: "Greg",
    proposedDaysAgo: 5,
    steps: [
      { step: "sign", by: "referring", daysAgo: 5 },
      { step: "sign", by: "receiving", daysAgo: 4.8 },
      { step: "introduced", daysAgo: 4, note: "Introduced by e-mail; they fly in next weekend." },
    ],
  },
  {
    key: "plano-engineer",
    request: "houston-engineer-to-plano",
    responder: "Maria Delgado",
    proposedBy: "poster",
    referrer: "poster",
    clientName: "R.K.",
    proposedDaysAgo: 44,
    steps: [
      { step: "sign", by: "referring", daysAgo: 44 },
      { step: "sign", by: "receiving", daysAgo: 43.6 },
      { step: "introduced", daysAgo: 43, note: "Introduced by e-mail; they tour the weekend of the 14th." },
      { step: "under_contract", daysAgo: 12, closesInDays: 18, note: "Option period ends Friday." },
    ],
  },
  {
    key: "austin-sellers",
    request: "austin-sellers-to-dallas",
    responder: "Maria Delgado",
    proposedBy: "poster",
    referrer: "poster",
    clientName: "Ben",
    proposedDaysAgo: 69,
    steps: [
      { step: "sign", by: "referring", daysAgo: 69 },
      { step: "sign", by: "receiving", daysAgo: 68.5 },
      { step: "introduced", daysAgo: 68 },
      { step: "under_contract", daysAgo: 40, closesInDays: -9 },
      { step: "closed", daysAgo: 8, salePrice: "485,000.00", grossCommission: "14,550.00", note: "Funded at Lakewood Title." },
    ],
  },
  {
    key: "tulsa-retirees",
    request: "dallas-retirees-to-tulsa",
    responder: "Travis Colbert",
    proposedBy: "responder",
    referrer: "poster",
    clientName: "Ruth",
    feePercent: "30",
    proposedDaysAgo: 94,
    steps: [
      { step: "sign", by: "receiving", daysAgo: 94 },
      { step: "sign", by: "referring", daysAgo: 93.5 },
      { step: "introduced", daysAgo: 93 },
      { step: "under_contract", daysAgo: 60, closesInDays: -30 },
      { step: "closed", daysAgo: 35, salePrice: "310,000.00", grossCommission: "9,300.00" },
      { step: "fee_paid", daysAgo: 25, note: "Check mailed from my broker to yours." },
    ],
  },
  {
    key: "san-antonio-rental",
    request: "dallas-investor-san-antonio",
    responder: "Carlos Benavides",
    proposedBy: "poster",
    referrer: "poster",
    clientName: "Luis",
    feeFlat: "2,500.00",
    proposedDaysAgo: 129,
    steps: [
      { step: "sign", by: "referring", daysAgo: 129 },
      { step: "sign", by: "receiving", daysAgo: 128.8 },
      { step: "introduced", daysAgo: 128 },
      { step: "under_contract", daysAgo: 100, closesInDays: -75 },
      { step: "closed", daysAgo: 75, salePrice: "265,000.00", grossCommission: "7,950.00" },
      { step: "fee_paid", daysAgo: 68 },
      { step: "fee_received", daysAgo: 60, note: "Received by our broker. Thanks, Carlos!" },
    ],
  },
  {
    key: "okc-family",
    request: "okc-family-to-dallas",
    responder: "Maria Delgado",
    proposedBy: "poster",
    referrer: "poster",
    clientName: "T.J.",
    proposedDaysAgo: 159,
    steps: [
      { step: "sign", by: "referring", daysAgo: 159 },
      { step: "sign", by: "receiving", daysAgo: 158.7 },
      { step: "introduced", daysAgo: 158 },
      { step: "under_contract", daysAgo: 130, closesInDays: -100 },
      { step: "closed", daysAgo: 100, salePrice: "540,000.00", grossCommission: "16,200.00" },
      { step: "fee_paid", daysAgo: 92 },
      { step: "fee_received", daysAgo: 88 },
    ],
  },
  {
    key: "norman-condo",
    request: "norman-condo-for-student",
    responder: "Emily Chen",
    proposedBy: "poster",
    referrer: "poster",
    clientName: "Pat",
    proposedDaysAgo: 84,
    steps: [
      { step: "sign", by: "referring", daysAgo: 84 },
      { step: "sign", by: "receiving", daysAgo: 83.8 },
      { step: "introduced", daysAgo: 83 },
      {
        step: "lost",
        by: "receiving",
        daysAgo: 20,
        reason: "The parents decided to rent for another year.",
        note: "They may buy next spring.",
      },
    ],
  },
  {
    key: "el-paso-relocation",
    request: "dallas-to-el-paso",
    responder: "Luis Ortega",
    proposedBy: "poster",
    referrer: "poster",
    clientName: "Marisol",
    termMonths: 3,
    proposedDaysAgo: 148,
    steps: [
      { step: "sign", by: "referring", daysAgo: 148 },
      { step: "sign", by: "receiving", daysAgo: 147 },
      { step: "introduced", daysAgo: 146 },
      { step: "expired" },
    ],
  },
  {
    key: "edmond-luxury",
    request: "dallas-seller-to-edmond",
    responder: "Garrett Pierce",
    proposedBy: "responder",
    referrer: "poster",
    clientName: "Ann",
    feePercent: "15",
    proposedDaysAgo: 49,
    steps: [{ step: "declined", daysAgo: 48.5, note: "I keep to 25% on relocation referrals; happy to talk again." }],
  },
  // Between other agents.
  {
    key: "fort-sill-jesse",
    request: "fort-sill-pcs",
    responder: "Jesse Ramirez",
    proposedBy: "poster",
    referrer: "poster",
    clientName: "Mike",
    proposedDaysAgo: 0.8,
    steps: [
      { step: "sign", by: "referring", daysAgo: 0.8 },
      { step: "sign", by: "receiving", daysAgo: 0.7 },
      { step: "introduced", daysAgo: 0.4 },
    ],
  },
  {
    key: "norman-seller-emily",
    request: "norman-seller",
    responder: "Emily Chen",
    proposedBy: "poster",
    referrer: "poster",
    clientName: "Chris",
    proposedDaysAgo: 8,
    steps: [
      { step: "sign", by: "referring", daysAgo: 8 },
      { step: "sign", by: "receiving", daysAgo: 7.5 },
    ],
  },
  {
    key: "frisco-derek",
    request: "ba-to-frisco",
    responder: "Derek Lindqvist",
    proposedBy: "responder",
    referrer: "poster",
    clientName: "Jen",
    feePercent: "20",
    proposedDaysAgo: 7,
    steps: [{ step: "sign", by: "receiving", daysAgo: 7 }],
  },
  {
    key: "enid-wheat",
    request: "amarillo-to-enid-wheat",
    responder: "Roy Dunham",
    proposedBy: "poster",
    referrer: "poster",
    clientName: "Earl",
    feeFlat: "5,000.00",
    proposedDaysAgo: 108,
    steps: [
      { step: "sign", by: "referring", daysAgo: 108 },
      { step: "sign", by: "receiving", daysAgo: 107 },
      { step: "introduced", daysAgo: 106 },
      { step: "under_contract", daysAgo: 80, closesInDays: -50 },
      { step: "closed", daysAgo: 50, salePrice: "1,120,000.00", grossCommission: "33,600.00" },
      { step: "fee_paid", daysAgo: 45 },
      { step: "fee_received", daysAgo: 44 },
    ],
  },
];

// ---------------------------------------------------------------------------
// Building a deal as the app would have

/** Where the demo's signatures came from: addresses kept for documentation, everyday browsers. */
const SIGNING_IPS = ["192.0.2.14", "198.51.100.27", "203.0.113.52", "192.0.2.88", "198.51.100.140"];
const SIGNING_AGENTS = [
  "Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Mobile/15E148 Safari/604.1",
  "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36",
  "Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Safari/605.1.15",
];

/** The demo's records a deal refers to, as the network built them. */
export type DealRecords = {
  now: Date;
  agents: readonly Agent[];
  request: (key: string) => ReferralRequest;
  response: (requestKey: string, fromName: string) => RequestResponse;
};

type Deal = { referral: Referral; events: ReferralEvent[]; parties: Record<ReferralParty, Agent> };

/** A date input's day for a time: what a party would have typed. */
function dayOf(iso: string): string {
  return iso.slice(0, 10);
}

function addEvent(deal: Deal, key: string, step: string, by: string, note: string, at: string): void {
  deal.events.push({
    id: demoId(`referral-event:${key}:${deal.events.length}`),
    referralId: deal.referral.id,
    step,
    byEmail: by,
    note,
    createdAt: at,
  });
}

/** The proposal: the form's defaults for the request, the deal's terms, the brokers from both profiles. */
function propose(seed: DealSeed, records: DealRecords, at: string): Deal {
  const request = records.request(seed.request);
  const response = records.response(seed.request, seed.responder);
  const poster = agentNamed(records.agents, request.agentName);
  const responder = agentNamed(records.agents, seed.responder);
  const proposer = seed.proposedBy === "poster" ? poster : responder;
  const defaults = proposalDefaults(request, seed.proposedBy === "poster");
  const input = proposalSchema.parse({
    ...defaults,
    referrer: seed.referrer === seed.proposedBy ? "me" : "them",
    clientName: seed.clientName,
    side: seed.side ?? defaults.side,
    feeType: seed.feeFlat === undefined ? "percent" : "flat",
    feePercent: seed.feePercent ?? defaults.feePercent,
    feeFlat: seed.feeFlat,
    termMonths: seed.termMonths ?? defaults.termMonths,
    terms: seed.terms,
  });
  const [referring, receiving] = seed.referrer === "poster" ? [poster, responder] : [responder, poster];
  const draft: Referral = {
    id: demoId(`referral:${seed.key}`),
    requestId: request.id,
    responseId: response.id,
    status: "proposed",
    proposedByEmail: proposer.email,
    ...partiesFor(referring, receiving),
    ...termsFromProposal(input),
    createdAt: at,
  };
  const deal: Deal = { referral: { ...draft, agreementHash: agreementHash(draft) }, events: [], parties: { referring, receiving } };
  addEvent(deal, seed.key, "proposed", proposer.email, "", at);
  return deal;
}

/** One party's acceptance of the text as it reads with their broker; the second one signs the agreement. */
function sign(deal: Deal, key: string, party: ReferralParty, at: string): void {
  const signer = deal.parties[party];
  const text = asSignedBy(deal.referral, signer);
  const hash = agreementHash(text);
  if (hash !== deal.referral.agreementHash) throw new Error(`Demo referral ${key}: the text changed when ${signer.fullName} signed`);
  const index = deal.events.length;
  const otherSigned = hasSigned({ ...deal.referral, agreementHash: hash }, otherParty(party));
  deal.referral = {
    ...deal.referral,
    [`${party}SignedName`]: signer.fullName,
    [`${party}SignedAt`]: at,
    [`${party}SignedIp`]: SIGNING_IPS[index % SIGNING_IPS.length],
    [`${party}SignedAgent`]: SIGNING_AGENTS[index % SIGNING_AGENTS.length],
    [`${party}SignedHash`]: hash,
    updatedAt: at,
    ...(otherSigned
      ? { status: "signed" as const, signedAt: at, termEndsAt: termEnd(new Date(at), deal.referral.termMonths).toISOString() }
      : {}),
  };
  addEvent(deal, key, "accepted", signer.email, `Signed by ${signer.fullName} as the ${party} agent.`, at);
  if (otherSigned) addEvent(deal, key, "signed", signer.email, "Both parties signed.", at);
}

/** A pipeline step, refused unless the app would take it: from the status it follows, by the party it belongs to. */
function takeStep(deal: Deal, key: string, input: StepInput, party: ReferralParty, at: string): void {
  const check = checkStep(deal.referral.status, input.intent, party);
  if (!check.ok) throw new Error(`Demo referral ${key}: ${input.intent} is ${check.reason} from ${deal.referral.status}`);
  deal.referral = { ...deal.referral, ...stepPatch(deal.referral, input), status: input.intent, updatedAt: at };
  const note = input.intent === "lost" ? [`Reason: ${input.reason}`, input.note ?? ""].filter(Boolean).join("\n") : (input.note ?? "");
  addEvent(deal, key, input.intent, deal.parties[party].email, note, at);
}

/** The party a step belongs to: the pipeline's rule, or the one the deal names for a step either may take. */
function partyFor(step: PipelineStep, named?: ReferralParty): ReferralParty {
  const rule = PIPELINE_STEPS[step].by;
  if (rule !== "either") return rule;
  if (!named) throw new Error(`Demo referral step ${step} needs the party who took it`);
  return named;
}

function happen(deal: Deal, seed: DealSeed, step: DealStep, records: DealRecords): void {
  const clock = clockAt(records.now);
  const key = seed.key;
  if (step.step === "expired") {
    // The app's pass after a refresh, a few minutes after the term ended.
    const at = clock.after(deal.referral.termEndsAt ?? "", 0.1);
    deal.referral = { ...deal.referral, status: "expired", updatedAt: at };
    addEvent(deal, key, "expired", "", "The term ended with no closing.", at);
    return;
  }
  const at = clock.daysAgo(step.daysAgo);
  switch (step.step) {
    case "sign":
      return sign(deal, key, step.by, at);
    case "declined":
    case "withdrawn": {
      // The proposer withdraws; the other party declines.
      const proposer = partyOf(deal.referral, deal.referral.proposedByEmail)!;
      const by = deal.parties[step.step === "withdrawn" ? proposer : otherParty(proposer)];
      deal.referral = { ...deal.referral, status: step.step, updatedAt: at };
      return addEvent(deal, key, step.step, by.email, step.note, at);
    }
    case "under_contract":
      return takeStep(
        deal,
        key,
        stepSchemas.under_contract.parse({
          intent: step.step,
          expectedCloseDate: dayOf(clock.daysAgo(-step.closesInDays)),
          note: step.note,
        }),
        partyFor(step.step),
        at,
      );
    case "closed":
      return takeStep(
        deal,
        key,
        stepSchemas.closed.parse({
          intent: step.step,
          closeDate: dayOf(at),
          salePrice: step.salePrice,
          grossCommission: step.grossCommission,
          note: step.note,
        }),
        partyFor(step.step),
        at,
      );
    case "lost":
      return takeStep(
        deal,
        key,
        stepSchemas.lost.parse({ intent: step.step, reason: step.reason, note: step.note }),
        partyFor(step.step, step.by),
        at,
      );
    default:
      return takeStep(deal, key, stepSchemas[step.step].parse({ intent: step.step, note: step.note }), partyFor(step.step), at);
  }
}

/** Every demo deal's Referrals row and ReferralEvents rows, as they stand at `now`. */
export function buildDemoReferrals(records: DealRecords): { referrals: Referral[]; referralEvents: ReferralEvent[] } {
  const clock = clockAt(records.now);
  const deals = DEALS.map((seed) => {
    const deal = propose(seed, records, clock.daysAgo(seed.proposedDaysAgo));
    for (const step of seed.steps) happen(deal, seed, step, records);
    checkTimes(seed, deal, records);
    return deal;
  });
  return { referrals: deals.map((deal) => deal.referral), referralEvents: deals.flatMap((deal) => deal.events) };
}

/** A deal's story must run forward from its response and end before `now`. */
function checkTimes(seed: DealSeed, deal: Deal, records: DealRecords): void {
  const response = records.response(seed.request, seed.responder);
  const times = [response.createdAt, ...deal.events.map((event) => event.createdAt)].map(Date.parse);
  const inOrder = times.every((time, index) => index === 0 || time >= times[index - 1]!);
  if (!inOrder || times.at(-1)! > records.now.getTime())
    throw new Error(`Demo referral ${seed.key}: its steps must follow its response in order and end before now`);
}
