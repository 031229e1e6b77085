/**
 * The referral agreement: the proposal form (its schema and the defaults the request's
 * type gives), the forms that sign, decline and withdraw it and take the pipeline's
 * steps, and the agreement's exact text, whose SHA-256 each party signs.
 *
 * The text is written once, from the Referral row (agreement-text.ts): the page, the
 * printable page and the PDF all show that string, so what a party reads is what their
 * hash covers.
 */
import { z } from "zod";
import type { RequestType } from "../enums";
import { idempotencyKeyField } from "../idempotency-key";
import { brokerChoiceField } from "./broker-signoff";
import { multiLine, optionalTextField, requiredTextField } from "../text";
import { REFERRAL_SIDES } from "../workbook/referral-tabs";
import type { Referral } from "../workbook/tabs";
import { closingAmountProblems } from "./mistyped-values";
import { formatDollars, parseDollars, parsePercent, referralFeeCents } from "./money";
import type { ReferralSide } from "./labels";
import type { ReferralParty } from "./status";

const DEFAULT_FEE_PERCENT = 25;
const FEE_PERCENT_MIN = 1;
const FEE_PERCENT_MAX = 50;
const DEFAULT_TERM_MONTHS = 12;
const DEFAULT_FEE_DUE = "within 10 days after closing or funding";

const NOTE_MAX = 1000;
const TERMS_MAX = 2000;
const CLIENT_NAME_MAX = 30;
/** A first name ("Maria", "Jo-Ann", "O'Neil") or initials ("J.R.", "JR"): no surname, no contact details. */
const CLIENT_NAME = /^[\p{L}][\p{L}'’.-]*$/u;

const MESSAGES = {
  referrer: "Please choose who refers the client",
  clientName: "Please enter the client's first name or initials",
  clientNameOnly: "First name or initials only, as one word (no surname, phone or e-mail)",
  side: "Please choose the client's side",
  feeType: "Please choose a percentage or a flat amount",
  feePercent: `Please enter a percentage from ${FEE_PERCENT_MIN} to ${FEE_PERCENT_MAX}`,
  feeFlat: "Please enter an amount in dollars and cents, e.g. 2,500.00",
  termMonths: "Please enter a term of 1 to 36 months",
  feeDue: "Please say when the fee is due",
  consent: "Please tick the box to agree to sign electronically",
  fullName: "Please type your full name to sign",
  date: "Please enter a date",
  amount: "Please enter an amount in dollars and cents, e.g. 350,000.00",
  reason: "Please say why the referral was lost",
} as const;

export const PROPOSAL_FAILED = "The referral could not be saved. Please try again.";

/** The mail to the other party after a signature: theirs is what the agreement waits for. */
export function nextSignature(signerName: string) {
  return { headline: `${signerName} signed the referral agreement: your signature is next` };
}

/** The mail to the party who signed first, when the second signature leaves a broker's sign-off still to come. */
export function brokersNext(signerName: string) {
  return { headline: `${signerName} signed the referral agreement: it is in force once both brokers have signed off` };
}

const dollarsField = (message: string) =>
  z
    .string({ error: message })
    .trim()
    .refine((text) => (parseDollars(text) ?? 0) > 0, message);

/** A yyyy-mm-dd date, as a date input sends it. */
const dateField = z
  .string({ error: MESSAGES.date })
  .trim()
  .regex(/^\d{4}-\d{2}-\d{2}$/, MESSAGES.date)
  .refine((text) => !Number.isNaN(Date.parse(`${text}T00:00:00Z`)), MESSAGES.date);

const noteField = multiLine(optionalTextField(NOTE_MAX, `Please keep the note under ${NOTE_MAX.toLocaleString("en-US")} characters`));

/** The terms a proposal sets and a change of terms replaces. */
const proposalFields = {
  referrer: z.enum(["me", "them"], { error: MESSAGES.referrer }),
  clientName: requiredTextField(MESSAGES.clientName, CLIENT_NAME_MAX, MESSAGES.clientNameOnly).regex(CLIENT_NAME, MESSAGES.clientNameOnly),
  side: z.enum(REFERRAL_SIDES, { error: MESSAGES.side }),
  feeType: z.enum(["percent", "flat"], { error: MESSAGES.feeType }),
  feePercent: z.string().trim().optional(),
  feeFlat: z.string().trim().optional(),
  termMonths: z.number({ error: MESSAGES.termMonths }).int(MESSAGES.termMonths).min(1, MESSAGES.termMonths).max(36, MESSAGES.termMonths),
  feeDue: requiredTextField(MESSAGES.feeDue, 200, "Please keep this under 200 characters"),
  terms: multiLine(optionalTextField(TERMS_MAX, `Please keep the terms under ${TERMS_MAX.toLocaleString("en-US")} characters`)),
};

/** The fee's own field must hold a percentage from 1 to 50, or an amount, as the fee type says. */
function checkFee(input: { feeType?: "percent" | "flat"; feePercent?: string; feeFlat?: string }, context: z.RefinementCtx) {
  if (input.feeType === "percent") {
    const percent = parsePercent(input.feePercent ?? "");
    if (percent === null || percent < FEE_PERCENT_MIN || percent > FEE_PERCENT_MAX)
      context.addIssue({ code: "custom", path: ["feePercent"], message: MESSAGES.feePercent });
  } else if (input.feeType === "flat" && (parseDollars(input.feeFlat ?? "") ?? 0) <= 0) {
    context.addIssue({ code: "custom", path: ["feeFlat"], message: MESSAGES.feeFlat });
  }
}

/** The fee is checked even when other fields failed, so every message shows at once. */
const ALWAYS = { when: () => true };

export const proposalSchema = z.object({ idempotencyKey: idempotencyKeyField, ...proposalFields }).superRefine(checkFee, ALWAYS);

/** The same terms, posted from the referral's page beside its other forms. */
export const changeTermsSchema = z.object({ intent: z.literal("terms"), ...proposalFields }).superRefine(checkFee, ALWAYS);

export type ProposalInput = z.infer<typeof proposalSchema>;

/**
 * The form's starting values: the agent with the client refers. A referral request's
 * poster has the client (its buyer or seller); a listing's poster has the home and the
 * responder brings the buyer; a buyer-representation poster has the buyer.
 */
export function proposalDefaults(request: { requestType: RequestType; clientType: string }, proposerIsPoster: boolean) {
  const posterRefers = request.requestType !== "listing";
  const side: ReferralSide = request.requestType === "referral" && request.clientType === "seller" ? "seller" : "buyer";
  return {
    referrer: posterRefers === proposerIsPoster ? ("me" as const) : ("them" as const),
    side,
    feeType: "percent" as const,
    feePercent: String(DEFAULT_FEE_PERCENT),
    termMonths: DEFAULT_TERM_MONTHS,
    feeDue: DEFAULT_FEE_DUE,
  };
}

/** The form's values from a referral's current terms, for changing them. */
export function proposalValues(referral: Referral, memberEmail: string) {
  return {
    referrer: referral.referringEmail === memberEmail ? ("me" as const) : ("them" as const),
    clientName: referral.clientName,
    side: referral.side,
    feeType: referral.feeType,
    feePercent: referral.feeType === "percent" ? String(referral.feePercent ?? DEFAULT_FEE_PERCENT) : "",
    feeFlat: referral.feeType === "flat" && referral.feeFlat !== undefined ? formatDollars(referral.feeFlat).slice(1) : "",
    termMonths: referral.termMonths,
    feeDue: referral.feeDue,
    terms: referral.terms,
  };
}

/** The Referral columns a proposal's terms set. */
export function termsFromProposal(input: ProposalInput) {
  const flat = input.feeType === "flat";
  return {
    clientName: input.clientName,
    side: input.side,
    feeType: input.feeType,
    feePercent: flat ? undefined : (parsePercent(input.feePercent ?? "") ?? undefined),
    feeFlat: flat ? (parseDollars(input.feeFlat ?? "") ?? undefined) : undefined,
    termMonths: input.termMonths,
    feeDue: input.feeDue,
    terms: input.terms ?? "",
  };
}

export const signSchema = z.object({
  intent: z.literal("sign"),
  /** The hash of the text the page showed: signing a text that changed since is refused. */
  agreementHash: z.string().regex(/^[0-9a-f]{64}$/),
  fullName: requiredTextField(MESSAGES.fullName, 120, "Please keep your name under 120 characters"),
  consent: z.boolean({ error: MESSAGES.consent }).refine((ticked) => ticked, MESSAGES.consent),
  brokerSignoff: brokerChoiceField,
});

/** An agent who signed asks their broker again (a link expired) or attests instead. */
export const brokerSignoffSchema = z.object({ intent: z.literal("broker"), brokerSignoff: brokerChoiceField });

export const declineSchema = z.object({ intent: z.literal("decline"), note: noteField });
export const withdrawSchema = z.object({ intent: z.literal("withdraw"), note: noteField });

/**
 * A price typed as a fraction or in thousands, or a commission over the price, is refused
 * beside its field: stored, it would show as a figure that cannot be right. The same rule
 * flags such a value staff type in the sheet (doubts.ts).
 */
function checkClosingAmounts(input: { salePrice?: string; grossCommission?: string }, context: z.RefinementCtx) {
  const salePrice = parseDollars(input.salePrice ?? "");
  const grossCommission = parseDollars(input.grossCommission ?? "");
  // An amount that is not one already has its message.
  if (!salePrice || !grossCommission) return;
  const problems = closingAmountProblems(salePrice, grossCommission);
  for (const [field, message] of Object.entries(problems)) context.addIssue({ code: "custom", path: [field], message });
}

/** The forms of the pipeline's steps; each carries its step as `intent`, and a note. */
export const stepSchemas = {
  introduced: z.object({ intent: z.literal("introduced"), note: noteField }),
  under_contract: z.object({ intent: z.literal("under_contract"), expectedCloseDate: dateField, note: noteField }),
  closed: z
    .object({
      intent: z.literal("closed"),
      closeDate: dateField,
      salePrice: dollarsField(MESSAGES.amount),
      grossCommission: dollarsField(MESSAGES.amount),
      note: noteField,
    })
    .superRefine(checkClosingAmounts, ALWAYS),
  fee_paid: z.object({ intent: z.literal("fee_paid"), note: noteField }),
  fee_received: z.object({ intent: z.literal("fee_received"), note: noteField }),
  lost: z.object({
    intent: z.literal("lost"),
    reason: requiredTextField(MESSAGES.reason, 300, "Please keep the reason to at most 300 characters"),
    note: noteField,
  }),
} as const;
export type StepInput = { [Step in keyof typeof stepSchemas]: z.infer<(typeof stepSchemas)[Step]> }[keyof typeof stepSchemas];

/** "25% of the receiving side's gross commission" or "$2,500.00 (flat)". */
export function feeLabel(referral: Pick<Referral, "feeType" | "feePercent" | "feeFlat">): string {
  if (referral.feeType === "flat") return `${formatDollars(referral.feeFlat ?? 0)} (flat amount)`;
  return `${referral.feePercent ?? 0}% of the receiving side's gross commission`;
}

export function partyOf(referral: Pick<Referral, "referringEmail" | "receivingEmail">, email: string): ReferralParty | undefined {
  if (referral.referringEmail === email) return "referring";
  if (referral.receivingEmail === email) return "receiving";
  return undefined;
}

export function otherParty(party: ReferralParty): ReferralParty {
  return party === "referring" ? "receiving" : "referring";
}

export function partyEmail(referral: Pick<Referral, "referringEmail" | "receivingEmail">, party: ReferralParty): string {
  return party === "referring" ? referral.referringEmail : referral.receivingEmail;
}

/** The party's name as the agreement was proposed with it. */
export function partyName(referral: Pick<Referral, "referringName" | "receivingName">, party: ReferralParty): string {
  return party === "referring" ? referral.referringName : referral.receivingName;
}

/** The end of the term: `months` calendar months after signing (the month's last day when it is shorter). */
export function termEnd(signedAt: Date, months: number): Date {
  const end = new Date(signedAt);
  const day = end.getUTCDate();
  end.setUTCDate(1);
  end.setUTCMonth(end.getUTCMonth() + months);
  const lastDay = new Date(Date.UTC(end.getUTCFullYear(), end.getUTCMonth() + 1, 0)).getUTCDate();
  end.setUTCDate(Math.min(day, lastDay));
  return end;
}

/** A date input's day as the workbook's time: noon UTC, so it reads as the same day everywhere in the US. */
function dayAt(date: string): string {
  return `${date}T12:00:00.000Z`;
}

/** The columns a step sets besides the status; the fee at closing from the gross commission. */
export function stepPatch(referral: Referral, input: StepInput): Partial<Referral> {
  switch (input.intent) {
    case "under_contract":
      return { expectedCloseDate: dayAt(input.expectedCloseDate) };
    case "closed": {
      const grossCommission = parseDollars(input.grossCommission) ?? 0;
      const fee = referral.feeType === "flat" ? { feeFlat: referral.feeFlat ?? 0 } : { feePercent: referral.feePercent ?? 0 };
      return {
        closeDate: dayAt(input.closeDate),
        salePrice: parseDollars(input.salePrice) ?? 0,
        grossCommission,
        feeAmount: referralFeeCents(fee, grossCommission),
      };
    }
    case "lost":
      return { lostReason: input.reason };
    default:
      return {};
  }
}
