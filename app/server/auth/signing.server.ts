import { createHmac, timingSafeEqual } from "node:crypto";

/**
 * HMAC-SHA256 signatures keyed by the session secrets. The first secret signs; every
 * secret in the list still verifies, so rotating SESSION_SECRET (prepend a new one)
 * does not invalidate what the old one signed. `purpose` keeps a signature made for
 * one use from being replayed as another.
 */
export function sign(secrets: readonly string[], purpose: string, data: string): string {
  const secret = secrets[0];
  if (secret === undefined) throw new Error("No session secret configured");
  return hmac(secret, purpose, data);
}

export function verifySignature(secrets: readonly string[], purpose: string, data: string, signature: string): boolean {
  const given = Buffer.from(signature);
  return secrets.some((secret) => {
    const expected = Buffer.from(hmac(secret, purpose, data));
    return expected.length === given.length && timingSafeEqual(expected, given);
  });
}

/**
 * A signature cut to `bytes` bytes, for a token that must stay short (a reply address's
 * local part): the first secret signs, as `sign` does.
 */
export function shortSignature(secrets: readonly string[], purpose: string, data: string, bytes: number): Buffer {
  const secret = secrets[0];
  if (secret === undefined) throw new Error("No session secret configured");
  return Buffer.from(hmac(secret, purpose, data), "base64url").subarray(0, bytes);
}

/** Whether any of the secrets made this cut signature. */
export function verifyShortSignature(secrets: readonly string[], purpose: string, data: string, signature: Buffer): boolean {
  return secrets.some((secret) => {
    const expected = Buffer.from(hmac(secret, purpose, data), "base64url").subarray(0, signature.length);
    return signature.length > 0 && expected.length === signature.length && timingSafeEqual(expected, signature);
  });
}

function hmac(secret: string, purpose: string, data: string): string {
  return createHmac("sha256", secret).update(`${purpose}\u0000${data}`).digest("base64url");
}

/**
 * Stands for an agent's current password hash inside a cookie or a link without
 * revealing it: it changes whenever the password does, which ends sessions and
 * reset links made before the change.
 */
export function passwordFingerprint(secrets: readonly string[], passwordHash: string): string {
  return sign(secrets, "password-fingerprint", passwordHash).slice(0, 22);
}

export function matchesPasswordFingerprint(secrets: readonly string[], passwordHash: string, fingerprint: string): boolean {
  const given = Buffer.from(fingerprint);
  return secrets.some((secret) => {
    const expected = Buffer.from(hmac(secret, "password-fingerprint", passwordHash).slice(0, 22));
    return expected.length === given.length && timingSafeEqual(expected, given);
  });
}
