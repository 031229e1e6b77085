/**
 * The referral page's forms, by `intent`, and what each does: sign, ask the broker again,
 * decline, withdraw, change the terms, send the commission disbursement authorization, or a
 * pipeline step. The route reads the post, checks the member and the write limit, and hands
 * the parsed form here; a new intent is a schema below and a case in `applyIntent`, which the
 * compiler refuses to leave out.
 */
import { cdaSchema } from "~/domain/referrals/cda";
import {
  brokerSignoffSchema,
  changeTermsSchema,
  declineSchema,
  signSchema,
  stepSchemas,
  withdrawSchema,
} from "~/domain/referrals/agreement";
import { sendCda } from "~/server/referrals/cda.server";
import {
  askBroker,
  changeTerms,
  endProposal,
  signReferral,
  takeStep,
  type ChangeOptions,
  type ReferralResult,
} from "~/server/referrals/referrals.server";
import type { Services } from "~/server/services.server";
import type { z } from "zod";

/** Each intent's form. */
export const REFERRAL_FORMS = {
  sign: signSchema,
  broker: brokerSignoffSchema,
  decline: declineSchema,
  withdraw: withdrawSchema,
  terms: changeTermsSchema,
  cda: cdaSchema,
  ...stepSchemas,
} as const;
export type Intent = keyof typeof REFERRAL_FORMS;

/** A form of the page as parsed: its fields, with its `intent`. */
type IntentInput = { [Name in Intent]: z.output<(typeof REFERRAL_FORMS)[Name]> }[Intent];

export function isIntent(value: unknown): value is Intent {
  return typeof value === "string" && Object.hasOwn(REFERRAL_FORMS, value);
}

/** Who signs, as the signature records them. */
type Signer = { ip: string; userAgent: string };

/** Does what the form asks; a refusal (wrong party, out of order, a changed text) comes back as the result. */
export function applyIntent(services: Services, input: IntentInput, change: ChangeOptions, signer: Signer): Promise<ReferralResult> {
  switch (input.intent) {
    case "sign":
      return signReferral(services, {
        ...change,
        fullName: input.fullName,
        shownHash: input.agreementHash,
        brokerChoice: input.brokerSignoff,
        ...signer,
      });
    case "broker":
      return askBroker(services, { ...change, brokerChoice: input.brokerSignoff });
    case "decline":
      return endProposal(services, { ...change, outcome: "declined", note: input.note ?? "" });
    case "withdraw":
      return endProposal(services, { ...change, outcome: "withdrawn", note: input.note ?? "" });
    case "terms":
      return changeTerms(services, { ...change, input });
    case "cda":
      return sendCda(services, { ...change, input });
    case "introduced":
    case "under_contract":
    case "closed":
    case "fee_paid":
    case "fee_received":
    case "lost":
      return takeStep(services, { ...change, input });
    default:
      return unhandledIntent(input);
  }
}

/** Reached only if an intent of REFERRAL_FORMS has no case above: `input` is `never` then, and the build fails. */
function unhandledIntent(input: never): never {
  throw new Error(`The referral page has no handler for ${JSON.stringify(input)}.`);
}
