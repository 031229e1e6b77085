/**
 * The commission disbursement authorization (CDA): the receiving agent names the title
 * company and the expected closing; the app writes the instruction for the title company
 * to pay the referral fee to the referring broker, for the receiving broker to sign.
 * The form's schema, who may send it and when, and its text, from the Referral row.
 */
import { z } from "zod";
import { emailField } from "../registration";
import { requiredTextField } from "../text";
import type { Referral } from "../workbook/tabs";
import { feeLabel, stepSchemas } from "./agreement";
import { likelyMistypedFee } from "./mistyped-values";
import { shortReference } from "./labels";
import { formatDollars } from "./money";
import type { ReferralParty, ReferralStatus } from "./status";

const TITLE_COMPANY_MAX = 120;

export const cdaSchema = z.object({
  intent: z.literal("cda"),
  titleCompany: requiredTextField(
    "Please enter the title company's name",
    TITLE_COMPANY_MAX,
    `Please keep the name under ${TITLE_COMPANY_MAX} characters`,
  ),
  titleEmail: emailField,
  expectedCloseDate: stepSchemas.under_contract.shape.expectedCloseDate,
});
export type CdaInput = z.infer<typeof cdaSchema>;

/** From under contract until the closing is recorded and the fee is still to be paid. */
const CDA_STATUSES: ReadonlySet<ReferralStatus> = new Set(["under_contract", "closed"]);

export const CDA_REFUSALS = {
  wrongParty: "Only the receiving agent sends the commission disbursement authorization.",
  wrongStatus: "The commission disbursement authorization can be sent once the referral is under contract, until the fee is paid.",
  feeDoubted:
    "The referral fee looks wrong, so the commission disbursement authorization cannot be sent yet. Staff have been told and will correct it.",
} as const;

type Refusal = { status: 400 | 403 | 409; message: string };

function standingRefusal(status: ReferralStatus, party: ReferralParty): Refusal | null {
  if (party !== "receiving") return { status: 403, message: CDA_REFUSALS.wrongParty };
  if (!CDA_STATUSES.has(status)) return { status: 400, message: CDA_REFUSALS.wrongStatus };
  return null;
}

/**
 * Why this party may not send a CDA now, or null when they may. A fee that looks mistyped
 * in the sheet (doubts.ts) is never put in a payment instruction to a title company.
 */
export function cdaRefusal(
  referral: Parameters<typeof likelyMistypedFee>[0] & { status: ReferralStatus },
  party: ReferralParty,
): Refusal | null {
  const refusal = standingRefusal(referral.status, party);
  if (refusal) return refusal;
  return likelyMistypedFee(referral) === null ? null : { status: 409, message: CDA_REFUSALS.feeDoubted };
}

/** The form shows whenever its party may send one by the referral's status; a doubted fee is said when it is sent. */
export function mayShowCdaForm(status: ReferralStatus, party: ReferralParty): boolean {
  return standingRefusal(status, party) === null;
}

type CdaFields = Pick<
  Referral,
  | "id"
  | "referringName"
  | "referringBrokerage"
  | "referringBrokerLicense"
  | "receivingName"
  | "receivingBrokerage"
  | "receivingBrokerLicense"
  | "clientName"
  | "feeType"
  | "feePercent"
  | "feeFlat"
  | "feeAmount"
  | "expectedCloseDate"
  | "closeDate"
> & { titleCompany: string; titleEmail: string };

function brokerOf(brokerage: string, license: string): string {
  return `${brokerage.trim() || "(brokerage not given)"}, license ${license.trim() || "(not given)"}`;
}

/** The fee as the agreement sets it, with the amount once the closing made it known. */
function feeOf(referral: CdaFields): string {
  const agreed = feeLabel(referral);
  if (referral.feeType === "percent" && referral.feeAmount !== undefined) return `${agreed}: ${formatDollars(referral.feeAmount)}`;
  return agreed;
}

/**
 * The CDA's text, plain lines: what the PDF prints and what its version is taken from,
 * so changed details make a new version (and a new mail) and the same ones do not.
 */
export function cdaLines(referral: CdaFields): string[] {
  const closing = referral.closeDate
    ? `Closed on ${referral.closeDate.slice(0, 10)}`
    : `Expected closing: ${referral.expectedCloseDate?.slice(0, 10) ?? "not set"}`;
  return [
    `To the title company: ${referral.titleCompany} <${referral.titleEmail}>`,
    `Referral agreement ${shortReference(referral.id)}; client ${referral.clientName}. ${closing}.`,
    "",
    "The receiving broker authorizes and instructs the title company to pay, at closing and from the commission due to the receiving broker, the referral fee below directly to the referring broker.",
    "",
    `Pay to (referring broker): ${brokerOf(referral.referringBrokerage, referral.referringBrokerLicense)}`,
    `  Referring agent: ${referral.referringName}`,
    `Paid from (receiving broker): ${brokerOf(referral.receivingBrokerage, referral.receivingBrokerLicense)}`,
    `  Receiving agent: ${referral.receivingName}`,
    "",
    `Referral fee: ${feeOf(referral)}`,
    "",
    "The fee is paid broker to broker: no part of it is paid to either agent directly.",
  ];
}

/** Where the receiving broker signs: the PDF leaves each line blank. */
export const CDA_SIGNATURE_LINES = [
  "Receiving broker's signature: ______________________________",
  "Printed name: ______________________________   License number: ______________",
  "Date: ______________",
] as const;
