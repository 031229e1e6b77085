import {
  BROKER_FIELDS,
  isActiveSponsor,
  isSponsorLicense,
  sponsorValues,
  trecGapMessage,
  unfilledBrokerMessage,
  type BrokerField,
  type SponsoringBroker,
  type TrecGap,
} from "~/domain/sponsor";
import type { Agent } from "~/domain/workbook/tabs";
import type { Services } from "../services.server";

/**
 * What TREC's data said of an applicant's broker: the sponsor it names, or why it names none
 * for a Texas license (`gap`); `gap` null for an applicant TREC's data is not about (not Texan, no number).
 */
export type TrecBroker = { found: false; gap: TrecGap | null } | { found: true; sponsor: SponsoringBroker | null };

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
  if (typed(formData, "licenseState") !== "TX" || licenseNumber === "") return { found: false, gap: null };
  if (!services.licenses.dataLoaded()) return { found: false, gap: { kind: "not loaded" } };
  const sponsor = services.licenses.sponsorOf(licenseNumber, now);
  if (sponsor === undefined) return { found: false, gap: { kind: "unknown license", licenseNumber } };
  if (isActiveSponsor(sponsor))
    for (const [field, value] of Object.entries(sponsorValues(sponsor))) if (typed(formData, field) === "") formData.set(field, value);
  return { found: true, sponsor };
}

function unfilledMessage(trec: TrecBroker, field: BrokerField): string | null {
  if (trec.found) return unfilledBrokerMessage(trec.sponsor, field);
  return trec.gap === null ? null : trecGapMessage(trec.gap);
}

/** TREC's reason beside each broker field still blank: replaces the plain "is required". */
export function unfilledBrokerErrors(trec: TrecBroker, formData: FormData): Partial<Record<BrokerField, string[]>> {
  const errors: Partial<Record<BrokerField, string[]>> = {};
  for (const field of BROKER_FIELDS) {
    const message = typed(formData, field) === "" ? unfilledMessage(trec, field) : null;
    if (message !== null) errors[field] = [message];
  }
  return errors;
}

/** `trec` when the broker license the applicant ends with is TREC's sponsor's, so reloads of the data keep it current. */
export function brokerSource(trec: TrecBroker, brokerLicenseNumber: string): NonNullable<Agent["brokerFrom"]> {
  return trec.found && isSponsorLicense(brokerLicenseNumber, trec.sponsor) ? "trec" : "member";
}
