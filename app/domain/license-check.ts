/**
 * License checks: reading TREC's license holder records, matching the name and brokerage
 * an applicant typed against them, and the one-line verdict staff read in the sheet.
 * Pure: the table, the download and the mail live in app/server/licenses.
 */

/**
 * The columns of TREC's "Broker and Sales Agent License Holder Information" file
 * (trecfile.txt: tab-delimited, no header row, one license per line), in file order.
 * The open-data portal's API names its fields the same way.
 */
export const TREC_FILE_COLUMNS = [
  "license_type",
  "license_number",
  "full_name",
  "suffix",
  "license_status",
  "original_license_date",
  "license_expiration_date",
  "education_status",
  "mce_status",
  "designated_supervisor",
  "phone_number",
  "email_address",
  "mailing_address_line_1",
  "mailing_address_line_2",
  "mailing_address_line_3",
  "mailing_address_city",
  "mailing_address_state",
  "mailing_address_zip",
  "mailing_address_county",
  "physical_address_line_1",
  "physical_address_line_2",
  "physical_address_line_3",
  "physical_address_city",
  "physical_address_state",
  "physical_address_zip",
  "physical_address_county",
  "related_license_type",
  "related_license_number",
  "related_license_full_name",
  "related_license_suffix",
  "related_license_start_date",
  "agency_identifier",
  "full_name_last_first",
] as const;

export type TrecColumn = (typeof TREC_FILE_COLUMNS)[number];

/** TREC's license type codes (the file's first column). */
const TREC_LICENSE_TYPES: Readonly<Record<string, string>> = {
  SALE: "Sales agent",
  BRK: "Individual broker",
  BLLC: "LLC broker",
  BCRP: "Corporation broker",
  "6": "Partnership broker",
  REB: "Broker branch office",
};

/** The license types that are brokers (every type but a sales agent's and a branch office's). */
const BROKER_LICENSE_TYPES = new Set(["BRK", "BLLC", "BCRP", "6"]);

/** True for a broker's license: a broker needs no sponsor, they are their own. */
export function isBrokerLicense(license: TrecLicense): boolean {
  return BROKER_LICENSE_TYPES.has(license.licenseType);
}

/** TREC's license status codes; the API may give the description instead. */
const TREC_STATUSES: Readonly<Record<string, string>> = {
  "20": "Current and active",
  "21": "Current and inactive",
  "30": "Probation and active",
  "31": "Probation and inactive",
  "45": "Expired",
  "47": "Suspended",
  "56": "Relinquished",
  "57": "Revoked",
  "80": "Deceased",
};

/** The one word staff read in `licenseCheck` for each status. */
const STATUS_WORDS: Readonly<Record<string, string>> = {
  "Current and active": "active",
  "Current and inactive": "inactive",
  "Probation and active": "active (on probation)",
  "Probation and inactive": "inactive (on probation)",
  Expired: "expired",
  Suspended: "suspended",
  Relinquished: "relinquished",
  Revoked: "revoked",
  Deceased: "deceased",
};

/** One license as the app keeps it: only what the check needs. */
export type TrecLicense = {
  /** The number as TREC prints it (e.g. `0654321` or `654321-SA`). */
  licenseNumber: string;
  licenseType: string;
  fullName: string;
  suffix: string;
  /** The status's description (`Current and active`), or the code when TREC adds a new one. */
  status: string;
  /** ISO date (YYYY-MM-DD), or "" when the record has none. */
  expiration: string;
  /** The sponsoring broker (the related license) for a sales agent; "" otherwise. */
  sponsorName: string;
  /** The related license's number: the sponsoring broker's license; "" when none. */
  sponsorLicenseNumber: string;
  /** The e-mail address TREC has on file for the license holder, lower-cased; "" when none. */
  email: string;
};

/** A record that cannot be read: the line (or API row) and the field say where. */
export class LicenseDataError extends Error {
  override name = "LicenseDataError";
  constructor(
    readonly where: string,
    readonly field: string,
    problem: string,
  ) {
    super(`${where}, field ${field}: ${problem}`);
  }
}

const US_DATE = /^(\d{1,2})\/(\d{1,2})\/(\d{4})$/;
const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})(?:T[\d:.]+Z?)?$/;

/** TREC's MM/DD/YYYY, or the API's ISO date or floating timestamp, as YYYY-MM-DD; null when unreadable. */
export function parseTrecDate(value: string): string | null {
  const us = US_DATE.exec(value);
  const iso = ISO_DATE.exec(value);
  const [year, month, day] = us ? [us[3], us[1], us[2]] : iso ? [iso[1], iso[2], iso[3]] : [];
  if (year === undefined || month === undefined || day === undefined) return null;
  const date = new Date(Date.UTC(Number(year), Number(month) - 1, Number(day)));
  if (date.getUTCMonth() !== Number(month) - 1 || date.getUTCDate() !== Number(day)) return null;
  return date.toISOString().slice(0, 10);
}

/** Reads one record given as column → value (a file line split on tabs, or an API row). */
export function readTrecRecord(values: Partial<Record<TrecColumn, string>>, where: string): TrecLicense {
  const cell = (column: TrecColumn) => (values[column] ?? "").trim();
  const licenseNumber = cell("license_number");
  if (licenseNumber === "") throw new LicenseDataError(where, "license_number", "is empty");
  if (licenseKey(licenseNumber) === "") throw new LicenseDataError(where, "license_number", `"${licenseNumber}" has no digits`);
  const rawExpiration = cell("license_expiration_date");
  const expiration = rawExpiration === "" ? "" : parseTrecDate(rawExpiration);
  if (expiration === null) throw new LicenseDataError(where, "license_expiration_date", `"${rawExpiration}" is not a date (MM/DD/YYYY)`);
  const status = cell("license_status");
  return {
    licenseNumber,
    licenseType: cell("license_type"),
    fullName: cell("full_name"),
    suffix: cell("suffix"),
    status: TREC_STATUSES[status] ?? status,
    expiration,
    sponsorName: cell("related_license_full_name"),
    sponsorLicenseNumber: cell("related_license_number"),
    email: cell("email_address").toLowerCase(),
  };
}

/** Splits one line of the tab-delimited file; a line with the wrong number of fields is refused. */
export function parseTrecLine(line: string, lineNumber: number): TrecLicense {
  const fields = line.replace(/\r$/, "").split("\t");
  const where = `line ${lineNumber}`;
  if (fields.length !== TREC_FILE_COLUMNS.length) {
    const field = TREC_FILE_COLUMNS[Math.min(fields.length, TREC_FILE_COLUMNS.length - 1)] ?? "license_type";
    throw new LicenseDataError(where, field, `expected ${TREC_FILE_COLUMNS.length} tab-separated fields, found ${fields.length}`);
  }
  const values = Object.fromEntries(TREC_FILE_COLUMNS.map((column, index) => [column, fields[index] ?? ""]));
  return readTrecRecord(values, where);
}

/**
 * The number a license is looked up by: its digits before any hyphen, without leading
 * zeros, so `0654321`, `654321` and `654321-SA` are one license.
 */
export function licenseKey(licenseNumber: string): string {
  const [digits = ""] = licenseNumber.trim().split("-");
  return digits.replace(/\D/g, "").replace(/^0+/, "");
}

const NAME_SUFFIXES = new Set(["jr", "sr", "ii", "iii", "iv", "v"]);

function plainWords(text: string): string[] {
  return text
    .normalize("NFD")
    .replace(/\p{M}/gu, "")
    .toLowerCase()
    .replace(/['’.]/g, "")
    .split(/[^a-z0-9]+/)
    .filter(Boolean);
}

/**
 * A person's name as first and last word: case, accents, punctuation, middle names and
 * initials and suffixes (Jr., Sr., II, III) set aside. "Last, First Middle" is turned round.
 */
function nameParts(name: string): { first: string; last: string } | null {
  const [before, after] = name.split(",", 2);
  const ordered = after !== undefined && plainWords(after).some((word) => !NAME_SUFFIXES.has(word)) ? `${after} ${before}` : name;
  const words = plainWords(ordered).filter((word) => !NAME_SUFFIXES.has(word));
  const first = words[0];
  const last = words.at(-1);
  if (first === undefined || last === undefined || words.length < 2) return null;
  return { first, last };
}

/** True when both names have the same first and last name (see nameParts). */
export function namesMatch(applicant: string, onLicense: string): boolean {
  const a = nameParts(applicant);
  const b = nameParts(onLicense);
  return a !== null && b !== null && a.first === b.first && a.last === b.last;
}

/** Legal forms and words every other brokerage has: they say nothing about which one it is. */
const COMPANY_WORDS = new Set([
  "llc",
  "inc",
  "incorporated",
  "corp",
  "corporation",
  "co",
  "company",
  "ltd",
  "lp",
  "llp",
  "pllc",
  "the",
  "and",
  "dba",
  "realty",
  "real",
  "estate",
  "realtors",
  "group",
  "properties",
]);

function companyWords(name: string): string[] {
  return plainWords(name.replace(/&/g, " and ")).filter((word) => !COMPANY_WORDS.has(word));
}

/**
 * True when the brokerage an applicant typed names their sponsoring broker: legal forms
 * (LLC, Inc.), generic words (Realty, Group), punctuation and case aside, one name's words
 * all appear in the other ("Keller Williams" and "KELLER WILLIAMS REALTY INC"), or the
 * names match as people's names (a broker licensed in their own name).
 */
export function brokersMatch(stated: string, sponsor: string): boolean {
  const a = companyWords(stated);
  const b = new Set(companyWords(sponsor));
  if (a.length === 0 || b.size === 0) return false;
  const [shorter, longer] = a.length <= b.size ? [a, b] : [[...b], new Set(a)];
  return shorter.every((word) => longer.has(word)) || namesMatch(stated, sponsor);
}

/** Active and not past its expiration date. */
function isActiveOn(license: TrecLicense, today: string): boolean {
  const active = license.status === "Current and active" || license.status === "Probation and active";
  return active && (license.expiration === "" || license.expiration >= today);
}

function statusWord(license: TrecLicense, today: string): string {
  if (license.expiration !== "" && license.expiration < today) return "expired";
  return STATUS_WORDS[license.status] ?? `status ${license.status}`;
}

/** What the check writes in the agent's row: `licenseCheck`, and the facts behind it in `licenseCheckNote`. */
export type LicenseVerdict = { check: string; note: string };

export type Applicant = { fullName: string; email: string; brokerage: string; licenseNumber: string };

export type TexasCheck = LicenseVerdict & {
  /** Active, not expiring within 30 days, and the name matches: what automatic approval asks for. */
  qualifiesForAutoApproval: boolean;
};

const AUTO_APPROVAL_MARGIN_DAYS = 30;

function addDays(isoDate: string, days: number): string {
  return new Date(Date.parse(`${isoDate}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);
}

function sponsorText(license: TrecLicense): string {
  if (license.sponsorName === "") return "(none)";
  return license.sponsorLicenseNumber === "" ? license.sponsorName : `${license.sponsorName} (license ${license.sponsorLicenseNumber})`;
}

/** The check of a Texas applicant against their license record (undefined: not in TREC's data). */
export function checkTexasLicense(applicant: Applicant, license: TrecLicense | undefined, today: string): TexasCheck {
  if (license === undefined) {
    return {
      check: "TX not found",
      note: `License ${applicant.licenseNumber} is not in TREC's license holder data.`,
      qualifiesForAutoApproval: false,
    };
  }
  const nameMatches = namesMatch(applicant.fullName, license.fullName);
  const hasSponsor = license.sponsorName !== "";
  const brokerMatches = hasSponsor && brokersMatch(applicant.brokerage, license.sponsorName);
  const brokerPart = hasSponsor ? `broker ${brokerMatches ? "matches" : "differs"}` : "no sponsoring broker";
  // The e-mail TREC has on file reaches the license holder: the applicant using it is a strong sign they are that holder.
  const emailPart = license.email !== "" && license.email === applicant.email.trim().toLowerCase() ? ", e-mail matches TREC" : "";
  const check = `TX ${statusWord(license, today)}, name ${nameMatches ? "matches" : "differs"}, ${brokerPart}${emailPart}`;
  const type = TREC_LICENSE_TYPES[license.licenseType] ?? license.licenseType;
  const name = [license.fullName, license.suffix].filter(Boolean).join(" ");
  const note = [
    `${type} ${license.licenseNumber}: ${license.status}`,
    `expires ${license.expiration || "(no date)"}`,
    `name on license: ${name}`,
    `sponsoring broker: ${sponsorText(license)}`,
  ].join("; ");
  const qualifiesForAutoApproval = nameMatches && isActiveOn(license, addDays(today, AUTO_APPROVAL_MARGIN_DAYS));
  return { check, note, qualifiesForAutoApproval };
}

/** OREC's public license search: Oklahoma publishes no bulk file, so staff search by number. */
export const OREC_SEARCH_URL = "https://orec.us/";

/** The check an Oklahoma applicant gets: staff's to-do, searching OREC by hand before they approve. */
export const OREC_CHECK = "check OREC";

export function oklahomaVerdict(licenseNumber: string): LicenseVerdict {
  return { check: OREC_CHECK, note: `Search license ${licenseNumber} at ${OREC_SEARCH_URL}` };
}

/**
 * What makes a license unfit to work under: null while it is active (on probation too)
 * and not past its expiration date; otherwise the word for it ("expired", "inactive",
 * "suspended"...).
 */
export function inactiveStatus(license: TrecLicense, today: string): string | null {
  return isActiveOn(license, today) ? null : statusWord(license, today);
}

/** What a lapsed approved member's `licenseCheck` says, e.g. "TX lapsed: expired". */
export function lapseVerdict(license: TrecLicense | undefined, today: string): string | null {
  if (license === undefined) return "TX lapsed: no longer in TREC's data";
  const inactive = inactiveStatus(license, today);
  return inactive === null ? null : `TX lapsed: ${inactive}`;
}
