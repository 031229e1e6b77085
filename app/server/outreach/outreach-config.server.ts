import { createPublicKey, type KeyObject } from "node:crypto";
import { ConfigError, optionalText } from "../env-text.server";

/**
 * Invitations' part of the validated configuration (docs/decisions/0084): the operator's
 * postal address every invitation carries, and the public key SendGrid signs its Event
 * Webhook's posts with. `config.server.ts` reads them with the rest of the environment.
 */
export const OUTREACH_ENV = {
  POSTAL_ADDRESS: optionalText.refine((value) => value === undefined || (value.length <= 200 && /\d/.test(value)), {
    message: "must be the operator's postal address on one line, at most 200 characters, e.g. 100 Main St, Suite 4, Dallas, TX 75201",
  }),
  SENDGRID_EVENT_PUBLIC_KEY: optionalText,
};

/**
 * SendGrid's "Verification Key" as its settings page shows it: base64 of a DER
 * SubjectPublicKeyInfo (no PEM lines), an ECDSA key on P-256. Undefined when unset: the
 * event webhook is off.
 */
export function mailEventsKey({ SENDGRID_EVENT_PUBLIC_KEY: key }: { SENDGRID_EVENT_PUBLIC_KEY?: string }): KeyObject | undefined {
  if (key === undefined) return undefined;
  const der = Buffer.from(key.replace(/-----[A-Z ]+-----|\s/g, ""), "base64");
  let publicKey: KeyObject;
  try {
    publicKey = createPublicKey({ key: der, format: "der", type: "spki" });
  } catch {
    throw new ConfigError(
      "SENDGRID_EVENT_PUBLIC_KEY is not a public key: paste the Verification Key from SendGrid's Event Webhook settings (Signature Verification).",
    );
  }
  if (publicKey.asymmetricKeyType !== "ec" || publicKey.asymmetricKeyDetails?.namedCurve !== "prime256v1")
    throw new ConfigError("SENDGRID_EVENT_PUBLIC_KEY must be SendGrid's ECDSA P-256 Verification Key.");
  return publicKey;
}
