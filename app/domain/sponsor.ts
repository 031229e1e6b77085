/**
 * A Texas agent's sponsoring broker as TREC's license data gives it: the related license
 * on the agent's record, read in the broker's own record. Pure: the table lives in
 * app/server/licenses. Decision 0050 says when it fills or replaces what a member typed.
 */
import { inactiveStatus, isBrokerLicense, licenseKey, type TrecLicense } from "./license-check";
import type { Agent } from "./workbook/tabs";

/**
 * The sponsoring broker: `status` is "active", the word for a license unfit to work under
 * ("expired", "inactive", "suspended"...), or "not in TREC's data" when the related
 * license has no record of its own.
 */
export type SponsoringBroker = { name: string; licenseNumber: string; email: string; status: string };

const ACTIVE = "active";
const UNLISTED = "not in TREC's data";

function asBroker(record: TrecLicense, today: string): SponsoringBroker {
  return {
    name: record.fullName,
    licenseNumber: record.licenseNumber,
    email: record.email,
    status: inactiveStatus(record, today) ?? ACTIVE,
  };
}

/**
 * The broker a license holder works under: a sales agent's sponsor (named by the broker's
 * own record when it is found, else by the agent's); a broker with no related license is
 * their own broker; a sales agent with none has no sponsor (null).
 */
export function sponsoringBroker(
  license: TrecLicense,
  lookup: (licenseNumber: string) => TrecLicense | undefined,
  today: string,
): SponsoringBroker | null {
  if (license.sponsorLicenseNumber === "") return isBrokerLicense(license) ? asBroker(license, today) : null;
  const broker = lookup(license.sponsorLicenseNumber);
  if (broker !== undefined) return asBroker(broker, today);
  return { name: license.sponsorName, licenseNumber: license.sponsorLicenseNumber, email: "", status: UNLISTED };
}

/** True when the broker may sponsor: the app copies only an active broker onto a member's profile. */
export function isActiveSponsor(sponsor: SponsoringBroker | null): sponsor is SponsoringBroker {
  return sponsor?.status === ACTIVE;
}

/** The broker fields of the profile completion form, which TREC's data may fill. */
export const BROKER_FIELDS = ["brokerage", "brokerLicenseNumber", "brokerEmail"] as const;
export type BrokerField = (typeof BROKER_FIELDS)[number];

/** The sponsor as an agent's broker columns. */
function brokerColumns(sponsor: SponsoringBroker): Record<BrokerField, string> {
  return { brokerage: sponsor.name, brokerLicenseNumber: sponsor.licenseNumber, brokerEmail: sponsor.email };
}

/** The sponsor's value for each broker field; a blank one (an e-mail TREC lacks) is left out. */
export function sponsorValues(sponsor: SponsoringBroker): Partial<Record<BrokerField, string>> {
  const values = brokerColumns(sponsor);
  return Object.fromEntries(Object.entries(values).filter(([, value]) => value !== "")) as Partial<Record<BrokerField, string>>;
}

/**
 * What a Texas applicant whose license TREC's data holds is told beside a broker field
 * left blank that the data could not fill; null when the data filled it.
 */
export function unfilledBrokerMessage(sponsor: SponsoringBroker | null, field: BrokerField): string | null {
  if (sponsor === null) return "TREC's records show no sponsoring broker for your license. Please enter your broker.";
  if (sponsor.status === UNLISTED) return "Your sponsoring broker's license is not in TREC's records. Please enter your broker.";
  if (sponsor.status !== ACTIVE)
    return `TREC's records show your sponsoring broker's license as ${sponsor.status}. Please enter your current broker.`;
  return field === "brokerEmail" && sponsor.email === "" ? "TREC has no email on file for your broker. Please enter it." : null;
}

/**
 * Why TREC's data names no broker at all for a Texas applicant: no data was ever loaded
 * (a fresh install), or the license number is not in it (a typo, or a license newer than the data).
 */
export type TrecGap = { kind: "not loaded" } | { kind: "unknown license"; licenseNumber: string };

const TYPE_YOUR_BROKER = "so please type your broker's name, license number and email.";

/** What a Texas applicant is told beside each broker field left blank when TREC's data could not be read for them. */
export function trecGapMessage(gap: TrecGap): string {
  return gap.kind === "not loaded"
    ? `We cannot look up your broker: TREC's license data is not loaded yet, ${TYPE_YOUR_BROKER}`
    : `TREC's records have no license ${gap.licenseNumber}, ${TYPE_YOUR_BROKER}`;
}

/** The completion form's words above the broker fields: the TREC look-up is promised only when the data is there. */
export function brokerFieldsHint(trecLoaded: boolean): string {
  const why = "Your sponsoring broker: referral fees are paid broker to broker, and the referral agreement names them.";
  return trecLoaded
    ? `${why} Licensed in Texas? Leave these blank and we fill them in from TREC's license records.`
    : `${why} Please type your broker's name, license number and email.`;
}

/** True when the broker license an agent has is the sponsor's (however each writes the number). */
export function isSponsorLicense(brokerLicenseNumber: string, sponsor: SponsoringBroker | null): boolean {
  return (
    sponsor !== null && licenseKey(brokerLicenseNumber) !== "" && licenseKey(brokerLicenseNumber) === licenseKey(sponsor.licenseNumber)
  );
}

/**
 * The broker columns a Texas member's row takes after a reload of TREC's data, or null to
 * leave it: only a broker taken from TREC (`brokerFrom` trec) follows, only to a new active
 * sponsor, and all three columns at once (the former broker's e-mail would be wrong).
 */
export function sponsorUpdate(
  agent: Pick<Agent, "brokerFrom" | "brokerLicenseNumber">,
  sponsor: SponsoringBroker | null,
): Record<BrokerField, string> | null {
  if (agent.brokerFrom !== "trec" || !isActiveSponsor(sponsor)) return null;
  return isSponsorLicense(agent.brokerLicenseNumber ?? "", sponsor) ? null : brokerColumns(sponsor);
}

/** The profile's line naming the broker, "Sponsored by NAME (license N)"; null until both are known. */
export function sponsoredByLine(agent: Pick<Agent, "brokerage" | "brokerLicenseNumber">): string | null {
  const name = agent.brokerage.trim();
  const license = agent.brokerLicenseNumber?.trim() ?? "";
  return name === "" || license === "" ? null : `Sponsored by ${name} (license ${license})`;
}

/** True when a member's row lacks a broker fact a referral agreement needs: their dashboard asks for it. */
export function lacksBrokerFacts(agent: Pick<Agent, "brokerage" | "brokerLicenseNumber" | "brokerEmail">): boolean {
  return [agent.brokerage, agent.brokerLicenseNumber ?? "", agent.brokerEmail].some((value) => value.trim() === "");
}
