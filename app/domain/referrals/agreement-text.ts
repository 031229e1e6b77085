/**
 * The agreement's exact text, in each of its versions: plain lines with no markup, what
 * every view shows and what each signature's SHA-256 covers. A referral keeps the version
 * it was proposed (or its terms last changed) under (`agreementVersion`), so the hash of a
 * signed agreement still verifies when a later version is the current one.
 */
import type { Referral } from "../workbook/tabs";
import { feeLabel } from "./agreement";
import { shortReference, SIDE_LABELS } from "./labels";

/**
 * The version new proposals and term changes are written in: the agreement between the
 * sponsoring brokers, the client's side in one word (decision 0062).
 */
export const CURRENT_AGREEMENT_VERSION = "3";

/** The versions written as the agreement between the sponsoring brokers. */
type BrokersVersion = "2" | "3";

export type AgreementFields = Pick<
  Referral,
  | "id"
  | "requestId"
  | "agreementVersion"
  | "referringName"
  | "referringEmail"
  | "referringBrokerage"
  | "referringBrokerLicense"
  | "receivingName"
  | "receivingEmail"
  | "receivingBrokerage"
  | "receivingBrokerLicense"
  | "clientName"
  | "side"
  | "feeType"
  | "feePercent"
  | "feeFlat"
  | "termMonths"
  | "feeDue"
  | "terms"
>;

/**
 * How the first version's text names the agreement and its request: by short reference, or
 * by the full ids that agreements proposed before short references were signed with
 * (decision 0035). Later versions always use short references.
 */
export type AgreementReferences = "short" | "full ids";

/** The text of the referral's own version: blank is the first text, the agents' agreement. */
export function agreementText(referral: AgreementFields, references: AgreementReferences = "short"): string {
  const version = referral.agreementVersion;
  return version === "2" || version === "3" ? brokersAgreementText(referral, version) : agentsAgreementText(referral, references);
}

function brokerLine(brokerage: string, license: string): string {
  return `${brokerage.trim() || "(brokerage not given)"}, broker license ${license.trim() || "(not given)"}`;
}

/** Version 1, kept byte for byte: the agreement the two agents signed, their brokers named. */
function agentsAgreementText(referral: AgreementFields, references: AgreementReferences): string {
  const name = references === "short" ? shortReference : (id: string) => id;
  const lines = [
    "REFERRAL AGREEMENT",
    "",
    `Agreement ${name(referral.id)}, from request ${name(referral.requestId)}.`,
    "",
    "Referring agent:",
    `  ${referral.referringName} <${referral.referringEmail}>`,
    `  Sponsoring broker: ${brokerLine(referral.referringBrokerage, referral.referringBrokerLicense)}`,
    "Receiving agent:",
    `  ${referral.receivingName} <${referral.receivingEmail}>`,
    `  Sponsoring broker: ${brokerLine(referral.receivingBrokerage, referral.receivingBrokerLicense)}`,
    "",
    `1. The referring agent refers the client "${referral.clientName}" (${SIDE_LABELS[referral.side].toLowerCase()}) to the receiving agent.`,
    `2. Referral fee: ${feeLabel(referral)}, on any transaction for this client closed by the receiving side during the term.`,
    `3. Term: ${referral.termMonths} month${referral.termMonths === 1 ? "" : "s"} from the date both parties have signed.`,
    `4. The fee is due ${referral.feeDue}.`,
    "5. The fee is paid by the receiving agent's sponsoring broker to the referring agent's sponsoring broker, as Texas and Oklahoma require.",
  ];
  if (referral.terms.trim()) lines.push("", "Further terms:", referral.terms.trim());
  lines.push("", "Each party signs electronically by typing their full name and agreeing to sign electronically.");
  return lines.join("\n");
}

/** The client's side in the words of a transaction: buying, selling or leasing. */
const TRANSACTION: Record<Referral["side"], string> = {
  buyer: "buying",
  seller: "selling",
  landlord: "leasing out",
  tenant: "leasing",
};

/** "buyer"; version 2 named the side twice ("buyer, buying"), kept so what was signed under it still verifies. */
function clientSide(side: Referral["side"], version: BrokersVersion): string {
  const role = SIDE_LABELS[side].toLowerCase();
  return version === "2" ? `${role}, ${TRANSACTION[side]}` : role;
}

/**
 * Versions 2 and 3: an agreement between the two sponsoring brokers, each acting through its
 * agent. A template the brokers accept, written to the rules it cites; not legal advice.
 * Version 2 is kept byte for byte; version 3 differs only in naming the client's side once.
 */
function brokersAgreementText(referral: AgreementFields, version: BrokersVersion): string {
  const months = `${referral.termMonths} month${referral.termMonths === 1 ? "" : "s"}`;
  const lines = [
    "REFERRAL AGREEMENT BETWEEN BROKERS",
    "",
    `Agreement ${shortReference(referral.id)}, from request ${shortReference(referral.requestId)}. Text version ${version}.`,
    "",
    `Referring broker: ${brokerLine(referral.referringBrokerage, referral.referringBrokerLicense)}`,
    `  through its agent ${referral.referringName} <${referral.referringEmail}>`,
    `Receiving broker: ${brokerLine(referral.receivingBrokerage, referral.receivingBrokerLicense)}`,
    `  through its agent ${referral.receivingName} <${referral.receivingEmail}>`,
    "",
    `1. The referring broker refers the client "${referral.clientName}" (${clientSide(referral.side, version)}) to the receiving broker.`,
    `2. Referral fee: ${feeLabel(referral)}, on any transaction for this client or a related party closed by the receiving broker or its agents during the term.`,
    `3. Term: ${months} from the date the agreement is in force.`,
    `4. The fee is due ${referral.feeDue}.`,
    "5. The fee is paid by the receiving broker to the referring broker, never to or by an agent directly. In Texas a sales agent may accept compensation for a real estate transaction only through their sponsoring broker (Tex. Occ. Code §1101.651; 22 TAC §535.147); in Oklahoma an associate may accept compensation only from their own broker.",
    "6. Related parties: the client's spouse and other family members, the client's business partners, and any entity the client owns or controls are covered as the client is.",
    "7. Each agent signs for their broker. Each broker either authorizes their agent to sign referral agreements, as the agent attests, or approves this text itself. The agreement is in force once both agents have signed and both brokers have approved or been attested.",
  ];
  if (referral.terms.trim()) lines.push("", "Further terms:", referral.terms.trim());
  lines.push(
    "",
    "Each agent signs electronically by typing their full name and agreeing to sign electronically; a broker approves by typing their name and license number. Each record covers the SHA-256 of this text.",
  );
  return lines.join("\n");
}
