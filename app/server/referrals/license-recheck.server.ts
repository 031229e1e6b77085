import { CLAIM_KEYS } from "~/domain/claim-keys";
import { recheckLicenses, type PartyLicenses, type RecheckedStep, type RecheckOutcome } from "~/domain/referrals/license-recheck";
import { REFERRAL_STATUS_LABELS } from "~/domain/referrals/status";
import type { Referral } from "~/domain/workbook/tabs";
import { licenseRefusalMail } from "../mail/referral-mail.server";
import type { Services } from "../services.server";

type RecheckServices = Pick<Services, "store"> & { licenses: Pick<Services["licenses"], "table"> };

function partyLicenses(services: RecheckServices, email: string, name: string, brokerLicenseNumber: string): PartyLicenses {
  const { table } = services.licenses;
  const agent = services.store.agents.by("email", email)[0];
  const state = agent?.licenseState ?? "";
  const licenseNumber = agent?.licenseNumber ?? "";
  const texan = state === "TX";
  return {
    name,
    state,
    licenseNumber,
    license: texan ? table.lookup(licenseNumber) : undefined,
    brokerLicenseNumber,
    brokerLicense: texan && brokerLicenseNumber.trim() !== "" ? table.lookup(brokerLicenseNumber) : undefined,
  };
}

/**
 * Reads both parties' licenses, and the brokers' licenses `referral`'s row names, in the
 * latest TREC data (`Services.licenses`). Without loaded data, or when it cannot be read,
 * nothing is checked and the step goes ahead: the re-check guards against a lapse TREC
 * shows, it does not stop the network when TREC's file is missing.
 */
export function recheckReferralLicenses(
  services: RecheckServices,
  referral: Referral,
  now: Date,
  log: Pick<Console, "error"> = console,
): RecheckOutcome {
  try {
    const dataLoaded = services.licenses.table.info() !== undefined;
    const parties = [
      partyLicenses(services, referral.referringEmail, referral.referringName, referral.referringBrokerLicense),
      partyLicenses(services, referral.receivingEmail, referral.receivingName, referral.receivingBrokerLicense),
    ];
    // Oklahoma's note needs no data; Texas records are only read from loaded data.
    const checked = dataLoaded ? parties : parties.filter((party) => party.state !== "TX");
    return recheckLicenses(checked, now.toISOString().slice(0, 10));
  } catch (error) {
    log.error(`Referral ${referral.id}: the license re-check could not read TREC's data; the step goes ahead.`, error);
    return { ok: true, notes: [] };
  }
}

const STEP_NAMES: Record<RecheckedStep, string> = {
  sign: "Signing the agreement",
  under_contract: REFERRAL_STATUS_LABELS.under_contract,
  closed: REFERRAL_STATUS_LABELS.closed,
};

/**
 * Tells both parties a step was refused for a license, once per referral and step: a
 * party trying again before the license is renewed is answered on the page only.
 */
export function tellBothOfLicenseRefusal(
  services: Pick<Services, "store" | "notifier">,
  referral: Referral,
  options: { step: RecheckedStep; reason: string; link: string; now: Date },
): void {
  const { step, reason, link, now } = options;
  const mails = [referral.referringEmail, referral.receivingEmail].flatMap((email) => {
    const recipient = services.store.agents.by("email", email)[0];
    if (!recipient) return [];
    return [
      {
        mail: licenseRefusalMail(referral, email, { step: STEP_NAMES[step], reason, link }),
        about: `the license refusal mail of referral ${referral.id} to ${email}`,
        member: { recipient, kind: "referrals" as const, reason: "you are a party to this referral" },
      },
    ];
  });
  services.notifier.enqueueAll(mails, { once: CLAIM_KEYS["license-refused"].key(referral.id, step), now });
}
