import { createHash } from "node:crypto";
import { agreementText } from "~/domain/referrals/agreement-text";
import type { Referral } from "~/domain/workbook/tabs";

function sha256(text: string): string {
  return createHash("sha256").update(text, "utf8").digest("hex");
}

/**
 * The text a referral's parties read and sign. A referral proposed before agreements had
 * short references keeps the full-id line its stored hash covers, so its signatures still
 * stand (decision 0035); its next term change moves it to short references.
 */
export function agreementTextOf(referral: Referral): string {
  const text = agreementText(referral);
  if (!referral.agreementHash || sha256(text) === referral.agreementHash) return text;
  const earlier = agreementText(referral, "full ids");
  return sha256(earlier) === referral.agreementHash ? earlier : text;
}

export function agreementHash(referral: Referral): string {
  return sha256(agreementTextOf(referral));
}
