import { createCookie, type Cookie } from "@remix-run/node";
import type { Config } from "../config.server";
import { sign, verifySignature } from "./signing.server";

/**
 * A token for a mailed link that works without an account: the fields it carries and
 * its expiry, signed with the session secrets for one purpose. `bound` values are signed
 * but not carried: the reader supplies them again from the store, so a link stops
 * working once what it was bound to changes (a recorded approval, a new agreement text),
 * which is how a used link is refused without storing the link itself.
 */
export function createLinkToken(
  secrets: readonly string[],
  purpose: string,
  link: { fields: readonly string[]; bound?: readonly string[]; ttlSeconds: number },
  now = Date.now(),
): string {
  const expiresAt = Math.floor(now / 1000) + link.ttlSeconds;
  const carried = Buffer.from(JSON.stringify([...link.fields, expiresAt]), "utf8").toString("base64url");
  return `${carried}.${sign(secrets, purpose, signedData(carried, link.bound ?? []))}`;
}

export type LinkTokenReading = { ok: true; fields: string[]; expiresAt: Date } | { ok: false; reason: "invalid" | "expired" };

/** Longer than any link this app mails: anything longer is not one of its tokens. */
const TOKEN_MAX = 2000;

/**
 * The fields of a genuine, unexpired token; `boundFor` gives the values it must still be
 * bound to (from its fields), and a token whose fields are not what `fieldCount` says is invalid.
 */
export function readLinkToken(
  secrets: readonly string[],
  purpose: string,
  token: unknown,
  options: { fieldCount: number; boundFor?: (fields: string[]) => readonly string[] },
  now = Date.now(),
): LinkTokenReading {
  if (typeof token !== "string" || token.length > TOKEN_MAX) return { ok: false, reason: "invalid" };
  const [carried, signature, ...rest] = token.split(".");
  if (!carried || !signature || rest.length > 0) return { ok: false, reason: "invalid" };
  const values = decode(carried);
  if (!values || values.length !== options.fieldCount + 1) return { ok: false, reason: "invalid" };
  const expiry = values[values.length - 1];
  const fields = values.slice(0, -1);
  if (typeof expiry !== "number" || !fields.every((field): field is string => typeof field === "string"))
    return { ok: false, reason: "invalid" };
  const bound = options.boundFor?.(fields) ?? [];
  if (!verifySignature(secrets, purpose, signedData(carried, bound), signature)) return { ok: false, reason: "invalid" };
  if (Math.floor(now / 1000) >= expiry) return { ok: false, reason: "expired" };
  return { ok: true, fields, expiresAt: new Date(expiry * 1000) };
}

function decode(carried: string): unknown[] | null {
  try {
    const values: unknown = JSON.parse(Buffer.from(carried, "base64url").toString("utf8"));
    return Array.isArray(values) ? values : null;
  } catch {
    return null;
  }
}

function signedData(carried: string, bound: readonly string[]): string {
  return JSON.stringify([carried, ...bound]);
}

/**
 * Holds a mailed link's token once the link's first request moved it out of the address
 * (as the password reset does): the bare page's address is what logs and any Referer show.
 * Scripts cannot read it, and it lives as long as the link. Unsigned: the token carries
 * its own signature.
 */
export function linkTokenCookie(
  config: Pick<Config, "isProduction">,
  cookie: { name: string; path: string; maxAgeSeconds: number },
): Cookie {
  return createCookie(cookie.name, {
    httpOnly: true,
    sameSite: "lax",
    secure: config.isProduction,
    path: cookie.path,
    maxAge: cookie.maxAgeSeconds,
  });
}
