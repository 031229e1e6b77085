import {
  BROKER_FIELDS,
  isActiveSponsor,
  isSponsorLicense,
  sponsorValues,
  unfilledBrokerMessage,
  type BrokerField,
  type SponsoringBroker,
} from "~/domain/sponsor";
import type { Agent } from "~/domain/workbook/tabs";
import type { Services } from "../services.server";

/** What TREC's data said of a Texas applicant's broker; `found` false when the license is not in it (or not Texan). */
export type TrecBroker = { found: false } | { found: true; sponsor: SponsoringBroker | null };

function typed(formData: FormData, field: string): string {
  const value = formData.get(field);
  return typeof value === "string" ? value.trim() : "";
}

/**
 * Fills the broker fields a Texas applicant left blank from their sponsor in TREC's data,
 * in the posted form itself, so the form's schema reads them like typed ones and a refused
 * form shows them. What the applicant typed is kept. Oklahoma has no bulk data: nothing is filled.
 */
export function fillBrokerFromTrec(services: Pick<Services, "licenses">, formData: FormData, now = new Date()): TrecBroker {
  const licenseNumber = typed(formData, "licenseNumber");
  if (typed(formData, "licenseState") !== "TX" || licenseNumber === "") return { found: false };
  const sponsor = services.licenses.sponsorOf(licenseNumber, now);
  if (sponsor === undefined) return { found: false };
  if (isActiveSponsor(sponsor))
    for (const [field, value] of Object.entries(sponsorValues(sponsor))) if (typed(formData, field) === "") formData.set(field, value);
  return { found: true, sponsor };
}

/** TREC's reason beside each broker field still blank: replaces the plain "is required". */
export function unfilledBrokerErrors(trec: TrecBroker, formData: FormData): Partial<Record<BrokerField, string[]>> {
  if (!trec.found) return {};
  const errors: Partial<Record<BrokerField, string[]>> = {};
  for (const field of BROKER_FIELDS) {
    const message = typed(formData, field) === "" ? unfilledBrokerMessage(trec.sponsor, field) : null;
    if (message !== null) errors[field] = [message];
  }
  return errors;
}

/** `trec` when the broker license the applicant ends with is TREC's sponsor's, so reloads of the data keep it current. */
export function brokerSource(trec: TrecBroker, brokerLicenseNumber: string): NonNullable<Agent["brokerFrom"]> {
  return trec.found && isSponsorLicense(brokerLicenseNumber, trec.sponsor) ? "trec" : "member";
}
