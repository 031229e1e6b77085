/**
 * The demo's places (cities with their ZIP code, area code and region), the brokerages
 * agents there join, and the words their bios are made of.
 */
import type { MarketState, Specialty } from "~/domain/enums";

type Place = { state: MarketState; zip: string; areaCode: string; region: string };

export const PLACES = {
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
  // Far from every other demo agent: the demo login's request there is answered by an agent she invited.
  Alpine: { state: "TX", zip: "79830", areaCode: "432", region: "the Permian Basin" },
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

export type City = keyof typeof PLACES;
type Region = (typeof PLACES)[City]["region"];

/** Firms that work a whole state, and local firms by region: an agent joins one of either. */
export const STATEWIDE_BROKERAGES: Record<MarketState, readonly string[]> = {
  TX: ["Lone Star Realty Group", "Bluebonnet Homes Realty", "Red River Realty Partners"],
  OK: ["Sooner State Realty", "Redbud Realty Group", "Red River Realty Partners"],
};

export const LOCAL_BROKERAGES: Record<Region, readonly string[]> = {
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

export const SPECIALTY_PHRASES: Record<Specialty, string> = {
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

export const FORMER_JOBS = [
  "schoolteacher",
  "loan officer",
  "general contractor",
  "petroleum landman",
  "registered nurse",
  "Army logistics officer",
  "title examiner",
  "property manager",
];

export type BioFacts = {
  first: string;
  city: string;
  region: string;
  years: number;
  deals: number;
  focus: string;
  otherState: string;
  job: string;
};

export const BIO_OPENINGS: readonly ((facts: BioFacts) => string)[] = [
  (f) => `${f.first} has helped families buy and sell in ${f.city} for ${f.years} years, with a focus on ${f.focus}.`,
  (f) => `Born and raised in ${f.region}, ${f.first} has spent ${f.years} years in real estate, most of them in ${f.focus}.`,
  (f) => `${f.years} years in ${f.city} real estate and more than ${f.deals} closed transactions, mostly ${f.focus}.`,
  (f) => `A former ${f.job}, ${f.first} brings ${f.years} years of ${f.city} market knowledge to every deal, specializing in ${f.focus}.`,
  (f) =>
    `${f.first} serves clients across ${f.region}, focusing on ${f.focus}, and has closed ${f.deals} transactions in ${f.years} years.`,
];

export const BIO_CLOSINGS: readonly ((facts: BioFacts) => string)[] = [
  (f) => `Happy to trade referrals across the Red River: send your ${f.otherState}-bound clients my way.`,
  () => "Answers referral partners the same day and keeps you updated until closing.",
  () => "Pays referral fees promptly at closing and keeps the referring agent in the loop.",
  (f) => `Ask about off-market opportunities in ${f.region}.`,
  () => "Works closely with local lenders, inspectors and title companies so referred clients close on time.",
];
