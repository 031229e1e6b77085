/**
 * License re-checks at a referral's binding steps. A Texas sales agent may be paid a
 * referral fee only while licensed and only through their sponsoring broker, so when the
 * agreement is signed, when the deal goes under contract and when it closes, each Texas
 * party's license, and their broker's where the referral row names one, is read again in
 * TREC's latest data: an inactive or expired license refuses the step. Oklahoma publishes
 * no bulk data: its steps go ahead and staff are given OREC's search link. Pure: the
 * look-ups and the mail live in app/server/referrals.
 */
import { inactiveStatus, oklahomaVerdict, type TrecLicense } from "../license-check";
import type { PipelineStep } from "./status";

/** Signing, and the two pipeline steps that bind the fee: a license is read again at each. */
export type RecheckedStep = "sign" | "under_contract" | "closed";
const RECHECKED_STEPS: ReadonlySet<string> = new Set<RecheckedStep>(["sign", "under_contract", "closed"]);

export function rechecksLicenses(step: "sign" | PipelineStep): step is RecheckedStep {
  return RECHECKED_STEPS.has(step);
}

/** One party as the check reads them: their license and their broker's, with TREC's records of both. */
export type PartyLicenses = {
  name: string;
  /** The state of the agent's license: TX is checked, OK gets the OREC note, anything else is not checked. */
  state: string;
  licenseNumber: string;
  /** TREC's record of the agent's license; undefined when TREC's data does not have it. */
  license: TrecLicense | undefined;
  /** The broker license in the referral's row, "" when it has none. */
  brokerLicenseNumber: string;
  brokerLicense: TrecLicense | undefined;
};

/**
 * ok: the step goes ahead, `notes` (possibly none) for staff on the timeline.
 * refused: `reason` for the page and the mails, one `lapses` entry per unfit license.
 */
export type RecheckOutcome = { ok: true; notes: string[] } | { ok: false; reason: string; lapses: string[] };

function texasFindings(party: PartyLicenses, today: string): { lapses: string[]; notes: string[] } {
  const lapses: string[] = [];
  const notes: string[] = [];
  const licenses = [
    { whose: `${party.name}'s Texas license`, number: party.licenseNumber, record: party.license },
    { whose: `${party.name}'s sponsoring broker's license`, number: party.brokerLicenseNumber, record: party.brokerLicense },
  ].filter((license) => license.number.trim() !== "");
  for (const { whose, number, record } of licenses) {
    // A number TREC's data lacks (a typo, a license issued since the last load) is for staff to look into, not a lapse.
    if (record === undefined) notes.push(`${whose} ${number} is not in TREC's license data: check it at TREC.`);
    else {
      const inactive = inactiveStatus(record, today);
      if (inactive !== null) lapses.push(`${whose} ${number} is ${inactive} in TREC's data`);
    }
  }
  return { lapses, notes };
}

/** OREC's search link for the agent's license and the broker's, as the registration check gives it. */
function oklahomaNotes(party: PartyLicenses): string[] {
  const notes = [`${party.name}, licensed in Oklahoma: ${oklahomaVerdict(party.licenseNumber).note}`];
  if (party.brokerLicenseNumber.trim() !== "")
    notes.push(`${party.name}'s sponsoring broker: ${oklahomaVerdict(party.brokerLicenseNumber).note}`);
  return notes;
}

/** The verdict on both parties' licenses on `today` (YYYY-MM-DD). */
export function recheckLicenses(parties: readonly PartyLicenses[], today: string): RecheckOutcome {
  const lapses: string[] = [];
  const notes: string[] = [];
  for (const party of parties) {
    if (party.state === "OK") notes.push(...oklahomaNotes(party));
    if (party.state !== "TX") continue;
    const found = texasFindings(party, today);
    lapses.push(...found.lapses);
    notes.push(...found.notes);
  }
  if (lapses.length === 0) return { ok: true, notes };
  return { ok: false, reason: licenseRefusal(lapses), lapses };
}

/** The message beside the form and in both parties' mail. */
function licenseRefusal(lapses: readonly string[]): string {
  return `This step needs active licenses: ${lapses.join("; ")}. Nothing was changed; try again once TREC shows the license active.`;
}
