import { createCookie, type Cookie } from "@remix-run/node";
import type { Config } from "../config.server";
import { sign, verifySignature } from "./signing.server";

/**
 * A browser where an account logged in before. Wrong passwords from strangers fill the
 * account's login limit; the owner's own browsers are not held by it (docs/decisions/0030).
 * The cookie names no account: it holds a signature of each e-mail that logged in on this
 * browser, the last few of them (an office computer several members share).
 */
const PURPOSE = "known-device";
const MAX_ACCOUNTS = 5;
const ONE_YEAR_SECONDS = 365 * 24 * 60 * 60;

type DeviceConfig = Pick<Config, "isProduction" | "sessionSecrets">;

/** Its path is the whole site: the login form posts to /member-login.data when scripts run. */
function knownDeviceCookie(config: Pick<Config, "isProduction">): Cookie {
  return createCookie("__device", {
    httpOnly: true,
    sameSite: "lax",
    secure: config.isProduction,
    path: "/",
    maxAge: ONE_YEAR_SECONDS,
  });
}

async function signaturesIn(request: Request, config: DeviceConfig): Promise<string[]> {
  const value: unknown = await knownDeviceCookie(config).parse(request.headers.get("Cookie"));
  return Array.isArray(value) ? value.filter((item): item is string => typeof item === "string").slice(0, MAX_ACCOUNTS) : [];
}

/** True when this browser logged in to the account of `email` before. */
export async function isKnownDevice(request: Request, config: DeviceConfig, email: string): Promise<boolean> {
  return (await signaturesIn(request, config)).some((signature) => verifySignature(config.sessionSecrets, PURPOSE, email, signature));
}

/** The Set-Cookie header that remembers this browser for the account of `email`, newest first. */
export async function rememberDevice(request: Request, config: DeviceConfig, email: string): Promise<string> {
  const signature = sign(config.sessionSecrets, PURPOSE, email);
  const others = (await signaturesIn(request, config)).filter((kept) => kept !== signature);
  return knownDeviceCookie(config).serialize([signature, ...others].slice(0, MAX_ACCOUNTS));
}
