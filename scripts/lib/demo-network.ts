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
 * Everyone here is fictional: e-mails are on the reserved `.example` domain and phone
 * numbers are in the 555-0100..0199 range kept for fiction.
 */
import { conversationIdFor } from "~/domain/conversation";
import type { MarketState, Specialty } from "~/domain/enums";
import type {
  Agent,
  AgentStatus,
  MembershipType,
  Message,
  Referral,
  ReferralEvent,
  ReferralRequest,
  RequestResponse,
} from "~/domain/workbook/tabs";
import { agentNamed, clockAt, DAY_MS, demoId, hashKey, HOUR_MS, seededRandom, type RequestSeed, type ResponseSeed } from "./demo-kit";
import { buildDemoReferrals, DEAL_REQUESTS, DEAL_RESPONSES } from "./demo-referrals";

export { seededRandom };

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
// Places, brokerages and words

type Place = { state: MarketState; zip: string; areaCode: string; region: string };

const PLACES = {
  Houston: { state: "TX", zip: "77002", areaCode: "713", region: "the Greater Houston area" },
  "Sugar Land": { state: "TX", zip: "77478", areaCode: "281", region: "the Greater Houston area" },
  Galveston: { state: "TX", zip: "77550", areaCode: "409", region: "the Gulf Coast" },
  Dallas: { state: "TX", zip: "75201", areaCode: "214", region: "the Dallas-Fort Worth Metroplex" },
  Plano: { state: "TX", zip: "75024", areaCode: "972", region: "the Dallas-Fort Worth Metroplex" },
  McKinney: { state: "TX", zip: "75069", areaCode: "469", region: "the Dallas-Fort Worth Metroplex" },
  Frisco: { state: "TX", zip: "75034", areaCode: "469", region: "the Dallas-Fort Worth Metroplex" },
  "Fort Worth": { state: "TX", zip: "76102", areaCode: "817", region: "the Dallas-Fort Worth Metroplex" },
  Denton: { state: "TX", zip: "76201", areaCode: "940", region: "North Texas" },
  Austin: { state: "TX", zip: "78701", areaCode: "512", region: "Central Texas" },
  "Round Rock": { state: "TX", zip: "78664", areaCode: "512", region: "Central Texas" },
  Waco: { state: "TX", zip: "76701", areaCode: "254", region: "Central Texas" },
  "College Station": { state: "TX", zip: "77840", areaCode: "979", region: "the Brazos Valley" },
  "San Antonio": { state: "TX", zip: "78205", areaCode: "210", region: "the Hill Country and South Texas" },
  "Corpus Christi": { state: "TX", zip: "78401", areaCode: "361", region: "the Coastal Bend" },
  McAllen: { state: "TX", zip: "78501", areaCode: "956", region: "the Rio Grande Valley" },
  "El Paso": { state: "TX", zip: "79901", areaCode: "915", region: "the Borderland" },
  Lubbock: { state: "TX", zip: "79401", areaCode: "806", region: "the South Plains" },
  Amarillo: { state: "TX", zip: "79101", areaCode: "806", region: "the Texas Panhandle" },
  Midland: { state: "TX", zip: "79701", areaCode: "432", region: "the Permian Basin" },
  Tyler: { state: "TX", zip: "75701", areaCode: "903", region: "East Texas" },
  Sherman: { state: "TX", zip: "75090", areaCode: "903", region: "Texoma" },
  "Wichita Falls": { state: "TX", zip: "76301", areaCode: "940", region: "the Red River Valley" },
  "Oklahoma City": { state: "OK", zip: "73102", areaCode: "405", region: "the Oklahoma City metro" },
  Edmond: { state: "OK", zip: "73034", areaCode: "405", region: "the Oklahoma City metro" },
  Norman: { state: "OK", zip: "73069", areaCode: "405", region: "the Oklahoma City metro" },
  Moore: { state: "OK", zip: "73160", areaCode: "405", region: "the Oklahoma City metro" },
  Stillwater: { state: "OK", zip: "74074", areaCode: "405", region: "north central Oklahoma" },
  Tulsa: { state: "OK", zip: "74103", areaCode: "918", region: "Green Country" },
  "Broken Arrow": { state: "OK", zip: "74012", areaCode: "918", region: "Green Country" },
  Lawton: { state: "OK", zip: "73501", areaCode: "580", region: "southwest Oklahoma" },
  Enid: { state: "OK", zip: "73701", areaCode: "580", region: "north central Oklahoma" },
  Ardmore: { state: "OK", zip: "73401", areaCode: "580", region: "southern Oklahoma" },
  Durant: { state: "OK", zip: "74701", areaCode: "580", region: "Texoma" },
} as const satisfies Record<string, Place>;

type City = keyof typeof PLACES;
type Region = (typeof PLACES)[City]["region"];

/** Firms that work a whole state, and local firms by region: an agent joins one of either. */
const STATEWIDE_BROKERAGES: Record<MarketState, readonly string[]> = {
  TX: ["Lone Star Realty Group", "Bluebonnet Homes Realty", "Red River Realty Partners"],
  OK: ["Sooner State Realty", "Redbud Realty Group", "Red River Realty Partners"],
};

const LOCAL_BROKERAGES: Record<Region, readonly string[]> = {
  "the Greater Houston area": ["Gulf Coast Property Partners", "Bayou City Realty"],
  "the Gulf Coast": ["Gulf Coast Property Partners"],
  "the Coastal Bend": ["Gulf Coast Property Partners"],
  "the Dallas-Fort Worth Metroplex": ["Metroplex Premier Properties", "Trinity Oaks Realty"],
  "North Texas": ["Metroplex Premier Properties"],
  "Central Texas": ["Brazos River Real Estate", "Hill Country Land & Ranch"],
  "the Brazos Valley": ["Brazos River Real Estate"],
  "the Hill Country and South Texas": ["Alamo City Realty Co.", "Hill Country Land & Ranch"],
  "the Rio Grande Valley": ["Alamo City Realty Co."],
  "the Texas Panhandle": ["Panhandle Plains Realty", "Caprock Land & Home"],
  "the South Plains": ["Panhandle Plains Realty", "Caprock Land & Home"],
  "the Permian Basin": ["Caprock Land & Home"],
  "the Borderland": ["Franklin Mountain Realty"],
  "East Texas": ["Piney Woods Realty"],
  Texoma: ["Texoma Lake & Land"],
  "the Red River Valley": ["Texoma Lake & Land"],
  "the Oklahoma City metro": ["Prairie Wind Real Estate", "Cimarron Realty Partners"],
  "north central Oklahoma": ["Cimarron Realty Partners"],
  "Green Country": ["Green Country Realty", "Arkansas River Realty"],
  "southwest Oklahoma": ["Cross Timbers Land Co."],
  "southern Oklahoma": ["Cross Timbers Land Co.", "Texoma Lake & Land"],
};

const SPECIALTY_PHRASES: Record<Specialty, string> = {
  Residential: "residential homes",
  "First-Time Buyers": "first-time buyers",
  Luxury: "luxury homes",
  "New Construction": "new construction",
  Commercial: "commercial property",
  Investment: "investment property",
  "Residential Income": "rental and multifamily property",
  "Commercial Income": "income-producing commercial property",
  "Farm and Ranch": "farm and ranch land",
  Land: "raw land and acreage",
  Auction: "real-estate auctions",
  Barndominium: "barndominiums",
  "Recreational (RV and Glamping)": "RV parks and glamping sites",
};

const FORMER_JOBS = [
  "schoolteacher",
  "loan officer",
  "general contractor",
  "petroleum landman",
  "registered nurse",
  "Army logistics officer",
  "title examiner",
  "property manager",
];

type BioFacts = {
  first: string;
  city: string;
  region: string;
  years: number;
  deals: number;
  focus: string;
  otherState: string;
  job: string;
};

const BIO_OPENINGS: readonly ((facts: BioFacts) => string)[] = [
  (f) => `${f.first} has helped families buy and sell in ${f.city} for ${f.years} years, with a focus on ${f.focus}.`,
  (f) => `Born and raised in ${f.region}, ${f.first} has spent ${f.years} years in real estate, most of them in ${f.focus}.`,
  (f) => `${f.years} years in ${f.city} real estate and more than ${f.deals} closed transactions, mostly ${f.focus}.`,
  (f) => `A former ${f.job}, ${f.first} brings ${f.years} years of ${f.city} market knowledge to every deal, specializing in ${f.focus}.`,
  (f) =>
    `${f.first} serves clients across ${f.region}, focusing on ${f.focus}, and has closed ${f.deals} transactions in ${f.years} years.`,
];

const BIO_CLOSINGS: readonly ((facts: BioFacts) => string)[] = [
  (f) => `Happy to trade referrals across the Red River: send your ${f.otherState}-bound clients my way.`,
  () => "Answers referral partners the same day and keeps you updated until closing.",
  () => "Pays referral fees promptly at closing and keeps the referring agent in the loop.",
  (f) => `Ask about off-market opportunities in ${f.region}.`,
  () => "Works closely with local lenders, inspectors and title companies so referred clients close on time.",
];

// ---------------------------------------------------------------------------
// The agents

type AgentSeed = {
  name: string;
  city: City;
  specialties: readonly Specialty[];
  status?: AgentStatus;
  statusNote?: string;
};

/** Approved agents, oldest member first: the first ones are the founders. */
const APPROVED: readonly AgentSeed[] = [
  { name: "Maria Delgado", city: "Dallas", specialties: ["Residential", "First-Time Buyers", "Luxury"] },
  { name: "James Whitfield", city: "Houston", specialties: ["Residential", "Luxury"] },
  { name: "Priya Raman", city: "Austin", specialties: ["Residential", "New Construction", "First-Time Buyers"] },
  { name: "Carlos Benavides", city: "San Antonio", specialties: ["Investment", "Residential Income", "Residential"] },
  { name: "Hannah Kowalski", city: "Fort Worth", specialties: ["Residential", "First-Time Buyers"] },
  { name: "Sarah Whitlock", city: "Oklahoma City", specialties: ["Residential", "First-Time Buyers", "Investment"] },
  { name: "Travis Colbert", city: "Tulsa", specialties: ["Investment", "Residential Income", "Commercial"] },
  { name: "Wade Harlan", city: "Amarillo", specialties: ["Farm and Ranch", "Land", "Auction"] },
  { name: "Luis Ortega", city: "El Paso", specialties: ["Residential", "First-Time Buyers", "New Construction"] },
  { name: "Brooke Tate", city: "Lubbock", specialties: ["Farm and Ranch", "Land", "Residential"] },
  { name: "Tamika Jefferson", city: "Tyler", specialties: ["Barndominium", "Land", "Residential"] },
  { name: "Ethan Brooks", city: "Waco", specialties: ["Residential", "Barndominium", "Investment"] },
  { name: "Grace Nguyen", city: "McKinney", specialties: ["New Construction", "Residential", "First-Time Buyers"] },
  { name: "Derek Lindqvist", city: "Frisco", specialties: ["New Construction", "Luxury"] },
  { name: "Omar Haddad", city: "Houston", specialties: ["Commercial", "Commercial Income", "Investment"] },
  { name: "Emily Chen", city: "Norman", specialties: ["Residential", "Residential Income", "First-Time Buyers"] },
  { name: "Garrett Pierce", city: "Edmond", specialties: ["Luxury", "New Construction", "Residential"] },
  { name: "Roy Dunham", city: "Enid", specialties: ["Auction", "Farm and Ranch", "Land"] },
  { name: "Rebecca Stein", city: "Austin", specialties: ["Luxury", "Residential"] },
  { name: "Marcus Bell", city: "Dallas", specialties: ["Commercial", "Commercial Income"] },
  { name: "Mia Robertson", city: "Broken Arrow", specialties: ["Residential", "New Construction"] },
  { name: "Jesse Ramirez", city: "Lawton", specialties: ["First-Time Buyers", "Residential"] },
  { name: "Katie Sullivan", city: "Stillwater", specialties: ["Recreational (RV and Glamping)", "Residential Income", "Land"] },
  { name: "Sofia Castillo", city: "Houston", specialties: ["First-Time Buyers", "Residential"] },
  { name: "Javier Morales", city: "San Antonio", specialties: ["Commercial", "Land", "Investment"] },
  { name: "Caleb Whitaker", city: "Fort Worth", specialties: ["Farm and Ranch", "Barndominium", "Land"] },
  { name: "Ana Villarreal", city: "Corpus Christi", specialties: ["Residential", "Recreational (RV and Glamping)", "Investment"] },
  { name: "Tyler Boone", city: "College Station", specialties: ["Residential Income", "Investment", "Residential"] },
  { name: "Kendra Osei", city: "Plano", specialties: ["Luxury", "Residential"] },
  { name: "Dustin Pruitt", city: "Midland", specialties: ["Commercial", "Land", "Residential"] },
  { name: "Leah Abernathy", city: "Denton", specialties: ["First-Time Buyers", "Residential", "Residential Income"] },
  { name: "Nathan Price", city: "Oklahoma City", specialties: ["Commercial", "Commercial Income", "Investment"] },
  { name: "Alicia Monroe", city: "Tulsa", specialties: ["Luxury", "Residential"] },
  { name: "Cody McAllister", city: "Wichita Falls", specialties: ["Farm and Ranch", "Auction", "Residential"] },
  { name: "Naomi Fischer", city: "Round Rock", specialties: ["New Construction", "First-Time Buyers"] },
  { name: "Lauren Gaines", city: "Ardmore", specialties: ["Recreational (RV and Glamping)", "Land", "Farm and Ranch"] },
  { name: "Brandon Lee", city: "Sugar Land", specialties: ["Residential", "Luxury", "Investment"] },
  { name: "Jolene Hart", city: "Sherman", specialties: ["Barndominium", "Residential", "Land"] },
  { name: "Cole Hendricks", city: "Durant", specialties: ["Recreational (RV and Glamping)", "Residential", "Auction"] },
  { name: "Renee Dubois", city: "Galveston", specialties: ["Recreational (RV and Glamping)", "Residential Income", "Luxury"] },
];

/** Waiting for staff to check their license, and one staff turned down. */
const NOT_APPROVED: readonly AgentSeed[] = [
  { name: "Vanessa Ruiz", city: "Houston", specialties: ["Residential", "First-Time Buyers"], status: "pending" },
  { name: "Peter Nakamura", city: "Austin", specialties: ["Investment", "Commercial"], status: "pending" },
  { name: "Shawna Mitchell", city: "Tulsa", specialties: ["Residential"], status: "pending" },
  { name: "Hector Salinas", city: "McAllen", specialties: ["Farm and Ranch", "Land"], status: "pending" },
  { name: "Bethany Cross", city: "Moore", specialties: ["First-Time Buyers", "New Construction"], status: "pending" },
  {
    name: "Kyle Jordan",
    city: "Frisco",
    specialties: ["Residential"],
    status: "rejected",
    statusNote: "The license number was not found in the TREC public database. Reply to support with your current license number.",
  },
];

const FOUNDERS = 25;
const VIPS = 3;
const DEMO_VIP_CODE = "DEMO-VIP";
const LOGIN_AGENT = "Maria Delgado";

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
    return {
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
      bio: `${pick(random, BIO_OPENINGS)(facts)} ${pick(random, BIO_CLOSINGS)(facts)}`,
      photoUrl: "",
      membershipType,
      vipCode: membershipType === "vip" ? DEMO_VIP_CODE : "",
      status,
      statusNote: seed.statusNote ?? "",
      passwordHash,
      createdAt,
      updatedAt: status === "rejected" ? clock.daysAgo(joinedDaysAgo - 1) : undefined,
    };
  });
}

// ---------------------------------------------------------------------------
// Requests, responses and conversations

const REQUESTS: readonly RequestSeed[] = [
  {
    key: "okc-relocation",
    owner: "Maria Delgado",
    requestType: "referral",
    title: "Relocating family needs an OKC buyer's agent",
    location: "Oklahoma City",
    state: "OK",
    specialty: "Residential",
    priceRange: "$200k - $400k",
    clientType: "buyer",
    timeline: "1month",
    contactPreference: "either",
    description:
      "Clients are relocating from Dallas for a job at Tinker AFB this summer. Two kids, want Moore or Midwest City schools, four bedrooms, already pre-approved. Standard 25% referral fee.",
    daysAgo: 3,
  },
  {
    key: "lake-highlands-listing",
    owner: "Maria Delgado",
    requestType: "listing",
    title: "Updated 4-bed with pool in Lake Highlands",
    location: "Dallas",
    state: "TX",
    specialty: "Residential",
    priceRange: "$400k - $600k",
    timeline: "2weeks",
    contactPreference: "email",
    listingAddress: "4182 Blue Sage Dr, Dallas, TX 75238",
    listingMLS: "20581234",
    description:
      "Coming-soon listing, 2,450 sq ft, pool, new kitchen and roof. Seller welcomes referred buyers; showings start next weekend.",
    daysAgo: 1,
  },
  {
    key: "round-rock-buyer",
    owner: "James Whitfield",
    requestType: "referral",
    title: "Houston buyer moving to Round Rock",
    location: "Round Rock",
    state: "TX",
    specialty: "Residential",
    priceRange: "$400k - $600k",
    clientType: "buyer",
    timeline: "1month",
    contactPreference: "phone",
    description:
      "Engineer transferring to a North Austin campus. Wants a newer three-bedroom within 20 minutes of the office, good schools.",
    daysAgo: 11,
  },
  {
    key: "panhandle-ranch",
    owner: "Wade Harlan",
    requestType: "buyer",
    title: "Cash buyer wants 300+ acres of grass ranch",
    location: "Panhandle / South Plains",
    state: "TX",
    specialty: "Farm and Ranch",
    priceRange: "$1M - $2M",
    timeline: "flexible",
    contactPreference: "phone",
    description:
      "Cash buyer looking for 300 to 600 acres of grassland with live water, within 90 minutes of Amarillo or Lubbock. Would also look at the Oklahoma panhandle.",
    daysAgo: 10,
  },
  {
    key: "tyler-retirees",
    owner: "Sarah Whitlock",
    requestType: "referral",
    title: "Retiring couple heading to Tyler",
    location: "Tyler",
    state: "TX",
    specialty: "Residential",
    priceRange: "$200k - $400k",
    clientType: "buyer",
    timeline: "1month",
    contactPreference: "email",
    description:
      "Long-time OKC clients retiring near family. Single-story, low-maintenance yard, close to medical care. Selling their Edmond home with me.",
    daysAgo: 5,
  },
  {
    key: "katy-strip-center",
    owner: "Omar Haddad",
    requestType: "listing",
    title: "Neighborhood strip center, 92% occupied",
    location: "Katy",
    state: "TX",
    specialty: "Commercial Income",
    priceRange: "$2M - $5M",
    timeline: "flexible",
    contactPreference: "email",
    listingAddress: "1400 Mason Creek Plaza, Katy, TX 77450",
    listingMLS: "87234561",
    description:
      "Eleven units, long-term national and local tenants, NNN leases. Offering memorandum available to agents with qualified investors.",
    daysAgo: 12,
  },
  {
    key: "lake-travis-luxury",
    owner: "Rebecca Stein",
    requestType: "buyer",
    title: "Buyer for Lake Travis waterfront",
    location: "Lakeway / Lake Travis",
    state: "TX",
    specialty: "Luxury",
    priceRange: "$2M - $5M",
    timeline: "flexible",
    contactPreference: "phone",
    description:
      "Qualified buyer wants deep-water frontage with a boat dock, four-plus bedrooms. Happy to see off-market and pocket listings.",
    daysAgo: 7,
  },
  {
    key: "stillwater-duplexes",
    owner: "Travis Colbert",
    requestType: "referral",
    title: "Investor wants duplexes near OSU",
    location: "Stillwater",
    state: "OK",
    specialty: "Residential Income",
    priceRange: "$200k - $400k",
    clientType: "buyer",
    timeline: "2weeks",
    contactPreference: "either",
    description:
      "Tulsa investor adding to a rental portfolio. Looking for two or three duplexes within a mile of campus, cash flow positive at current rents.",
    daysAgo: 2,
  },
  {
    key: "denton-first-home",
    owner: "Grace Nguyen",
    requestType: "buyer",
    title: "First-time buyers need a starter home near Denton",
    location: "Denton",
    state: "TX",
    specialty: "First-Time Buyers",
    priceRange: "$200k - $400k",
    timeline: "immediate",
    contactPreference: "either",
    description: "Young couple, FHA pre-approval, lease ends next month. Three bedrooms, fenced yard for the dog, commute to UNT.",
    urgent: true,
    daysAgo: 0.3,
  },
  {
    key: "frisco-spec-home",
    owner: "Derek Lindqvist",
    requestType: "listing",
    title: "New construction spec home, ready in 30 days",
    location: "Frisco",
    state: "TX",
    specialty: "New Construction",
    priceRange: "$800k - $1M",
    timeline: "1month",
    contactPreference: "email",
    listingAddress: "1187 Bluestem Trl, Frisco, TX 75034",
    listingMLS: "20599871",
    description:
      "Builder spec home, 3,600 sq ft, five bedrooms, three-car garage. Builder pays buyer-agent commission plus a closing-cost incentive.",
    daysAgo: 15,
  },
  {
    key: "fort-sill-pcs",
    owner: "Luis Ortega",
    requestType: "referral",
    title: "Military family moving to Fort Sill",
    location: "Lawton",
    state: "OK",
    specialty: "First-Time Buyers",
    priceRange: "Under $200k",
    clientType: "buyer",
    timeline: "immediate",
    contactPreference: "phone",
    description:
      "Army family with orders from Fort Bliss, arriving in three weeks. VA loan, first home purchase, want to be close to the post.",
    urgent: true,
    daysAgo: 1,
  },
  {
    key: "lindale-barndo",
    owner: "Tamika Jefferson",
    requestType: "buyer",
    title: "Buyer wants a barndominium on 10+ acres",
    location: "Smith County / Lindale",
    state: "TX",
    specialty: "Barndominium",
    priceRange: "$400k - $600k",
    timeline: "2weeks",
    contactPreference: "either",
    description: "Buyer wants an existing barndominium or a build-ready tract of 10 to 25 acres with a pond, within 30 minutes of Tyler.",
    daysAgo: 20,
  },
  {
    key: "enid-auction",
    owner: "Roy Dunham",
    requestType: "listing",
    title: "160 acres and farm equipment at auction",
    location: "Garfield County",
    state: "OK",
    specialty: "Auction",
    priceRange: "$800k - $1M",
    timeline: "flexible",
    contactPreference: "phone",
    listingAddress: "County Road 540 and N 30th St, Enid, OK 73701",
    listingMLS: "2412345",
    description:
      "Estate auction of 160 acres of wheat ground plus equipment. Buyer-agent participation paid; registration closes the week before the sale.",
    daysAgo: 25,
  },
  {
    key: "ba-to-frisco",
    owner: "Mia Robertson",
    requestType: "referral",
    title: "Client selling in Broken Arrow, buying in Frisco",
    location: "Frisco",
    state: "TX",
    specialty: "Residential",
    priceRange: "$600k - $800k",
    clientType: "buyer",
    timeline: "1month",
    contactPreference: "email",
    description:
      "I am listing their Broken Arrow home; they need a Frisco agent for the purchase. Four bedrooms, top-rated elementary school.",
    daysAgo: 8,
  },
  {
    key: "texoma-rv-park",
    owner: "Katie Sullivan",
    requestType: "buyer",
    title: "Buyer looking for an RV park or glamping site",
    location: "Lake Texoma area",
    state: "OK",
    specialty: "Recreational (RV and Glamping)",
    priceRange: "$1M - $2M",
    timeline: "flexible",
    contactPreference: "either",
    description: "Experienced operator wants an existing RV park or land zoned for glamping near Lake Texoma, either side of the river.",
    daysAgo: 26,
  },
  {
    key: "pearl-fourplex",
    owner: "Carlos Benavides",
    requestType: "listing",
    title: "Fourplex near the Pearl District",
    location: "San Antonio",
    state: "TX",
    specialty: "Investment",
    priceRange: "$800k - $1M",
    timeline: "2weeks",
    contactPreference: "either",
    listingAddress: "311 Brackenridge Row, San Antonio, TX 78215",
    listingMLS: "1789456",
    description:
      "Fully leased fourplex, renovated units, off-street parking. Rent roll and expenses available to agents with investor clients.",
    daysAgo: 4,
  },
  {
    key: "hill-country-acreage",
    owner: "Brooke Tate",
    requestType: "referral",
    title: "Land buyer for Hill Country acreage",
    location: "Fredericksburg",
    state: "TX",
    specialty: "Land",
    priceRange: "$400k - $600k",
    clientType: "buyer",
    timeline: "flexible",
    contactPreference: "email",
    description: "Lubbock client wants 20 to 40 acres with views and a build site near Fredericksburg for a future retirement home.",
    daysAgo: 18,
  },
  {
    key: "edmond-office",
    owner: "Nathan Price",
    requestType: "buyer",
    title: "Owner-user wants a small office building",
    location: "Edmond",
    state: "OK",
    specialty: "Commercial",
    priceRange: "$600k - $800k",
    timeline: "1month",
    contactPreference: "phone",
    description: "Dental practice looking for 3,000 to 5,000 sq ft to buy, good parking and visibility, Edmond or north OKC.",
    daysAgo: 6,
  },
  {
    key: "norman-seller",
    owner: "Hannah Kowalski",
    requestType: "referral",
    title: "Seller needs a listing agent in Norman",
    location: "Norman",
    state: "OK",
    specialty: "Residential",
    priceRange: "$200k - $400k",
    clientType: "seller",
    timeline: "2weeks",
    contactPreference: "phone",
    description:
      "My Fort Worth buyer is selling the Norman home they have owned since college. Three bedrooms near campus, good rental history.",
    daysAgo: 9,
  },
  {
    key: "uptown-townhome",
    owner: "Marcus Bell",
    requestType: "listing",
    title: "Townhome in Uptown (posted twice)",
    location: "Dallas",
    state: "TX",
    specialty: "Residential",
    priceRange: "$400k - $600k",
    timeline: "1month",
    contactPreference: "email",
    listingAddress: "2710 Cedar Springs Ct, Dallas, TX 75201",
    listingMLS: "20577410",
    description: "Two-story townhome, two bedrooms, rooftop deck.",
    daysAgo: 9,
    status: "deleted",
  },
  {
    key: "lake-waco-lot",
    owner: "Ethan Brooks",
    requestType: "buyer",
    title: "Buyer for a lake lot near Waco",
    location: "Lake Waco",
    state: "TX",
    specialty: "Land",
    priceRange: "Under $200k",
    timeline: "flexible",
    contactPreference: "either",
    description: "Weekend-home buyer wants a half-acre to two-acre lot with lake access.",
    daysAgo: 44,
    status: "expired",
  },
];

const RESPONSES: readonly ResponseSeed[] = [
  {
    request: "okc-relocation",
    from: "Sarah Whitlock",
    message: "I'd love to help. I show homes in Moore and Midwest City every week and know the Tinker commute well. Can we set up a call?",
    hoursLater: 5,
  },
  {
    request: "okc-relocation",
    from: "Nathan Price",
    message: "Happy to take this one: my office is ten minutes from Tinker, and I pay referral fees at closing.",
    hoursLater: 20,
  },
  {
    request: "lake-highlands-listing",
    from: "Grace Nguyen",
    message: "I have pre-approved buyers looking in Lake Highlands. Could I bring them to the first showing?",
    hoursLater: 6,
  },
  {
    request: "panhandle-ranch",
    from: "Roy Dunham",
    message: "A 480-acre grass ranch with a creek near Guymon is coming up off-market. Sending you the details by e-mail.",
    hoursLater: 30,
  },
  {
    request: "stillwater-duplexes",
    from: "Katie Sullivan",
    message: "Duplexes near campus rent fast here. I know of two that could come up off-market this month.",
    hoursLater: 8,
  },
  {
    request: "fort-sill-pcs",
    from: "Jesse Ramirez",
    message: "I work with Fort Sill families every month and can line up a VA-savvy lender and tours for the week they arrive.",
    hoursLater: 3,
  },
  {
    request: "lindale-barndo",
    from: "Jolene Hart",
    message: "I just sold a barndo on 15 acres outside Lindale and know two builders with lots ready. Happy to help.",
    hoursLater: 26,
  },
  {
    request: "ba-to-frisco",
    from: "Derek Lindqvist",
    message: "Frisco is my home market. I can send your clients a short list by school zone this week.",
    hoursLater: 12,
  },
  {
    request: "norman-seller",
    from: "Emily Chen",
    message: "I list near campus all the time and have investors asking for exactly this. Let's talk pricing.",
    hoursLater: 9,
  },
];

type ConversationSeed = {
  between: readonly [string, string];
  startsDaysAgo: number;
  lines: readonly (readonly [0 | 1, string])[];
  /** The last message is still unread by its recipient; otherwise both have read everything. */
  lastUnread?: boolean;
};

/** Each line is [sender, text]: 0 is the first agent named in `between`, 1 the second. */
const CONVERSATIONS: readonly ConversationSeed[] = [
  {
    between: ["Maria Delgado", "Sarah Whitlock"],
    startsDaysAgo: 2.5,
    lines: [
      [1, "Hi Maria, I saw your Tinker relocation request. I'd be glad to work with your clients in Moore or Midwest City."],
      [0, "Thanks Sarah! They're pre-approved around $350k and want to start touring in two weeks. Does a 25% referral fee work for you?"],
      [1, "25% works. I'll send the referral agreement over tonight."],
      [0, "Perfect. I'll introduce you to them by e-mail tomorrow morning."],
      [1, "Agreement is back, signed. Thank you!"],
    ],
    lastUnread: true,
  },
  {
    between: ["Maria Delgado", "James Whitfield"],
    startsDaysAgo: 6,
    lines: [
      [1, "Maria, do you know a Dallas lender you trust for jumbo loans? I have a buyer relocating from Houston."],
      [0, "Yes, I'll send you two names. Is your buyer looking in Preston Hollow or further north?"],
      [1, "North Dallas, around $1.2M. I'll send them your way with a referral agreement."],
      [0, "Sounds great. I'll call them this week."],
    ],
  },
  {
    between: ["Maria Delgado", "Wade Harlan"],
    startsDaysAgo: 9,
    lines: [
      [0, "Hi Wade, a Dallas client wants a weekend hunting property near Amarillo. Is that something you cover?"],
      [1, "It sure is. Most of what I'm seeing runs $2,500 to $3,500 an acre right now. How many acres are they after?"],
      [0, "Around 200 acres, under $700k. I'll send over their details."],
    ],
  },
  {
    between: ["Priya Raman", "Travis Colbert"],
    startsDaysAgo: 4,
    lines: [
      [1, "Priya, I have a Tulsa client moving to Austin for a tech job. Do you work Round Rock and Pflugerville?"],
      [0, "I do! Both are great for commuters. What's their budget?"],
      [1, "About $450k, three bedrooms, good schools."],
      [0, "Very doable in Pflugerville. Send them over and I'll set up a call."],
    ],
    lastUnread: true,
  },
];

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
  for (const seed of CONVERSATIONS) {
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
      createdAt: clock.after(start, index * Math.min(5, (seed.startsDaysAgo * 24) / (seed.lines.length + 1))),
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
  const agents = buildAgents(options.now, options.passwordHash);
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
  return {
    agents,
    requests,
    responses,
    ...buildConversations(options.now, agents),
    ...buildDemoReferrals({ now: options.now, agents, request: requestOf, response: responseOf }),
    loginEmail: emailOf(LOGIN_AGENT),
  };
}
