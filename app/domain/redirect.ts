/** Where a member lands after logging in when no page asked to be returned to. */
export const DEFAULT_AFTER_LOGIN = "/member-dashboard";

const MAX_REDIRECT_LENGTH = 2000;
/**
 * Browsers drop tabs and line breaks from URLs and read a backslash as a slash, so
 * "/\t/evil.example" and "/\\evil.example" would both leave the site.
 */
// eslint-disable-next-line no-control-regex -- control characters are what this pattern looks for.
const UNSAFE_CHARACTERS = /[\\\s\u0000-\u001f\u007f]/;

const BASE = "http://this-site.invalid";

/** True for a value a browser reads as a path on this site: one leading slash, no backslash, whitespace or control character. */
function looksLikeLocalPath(value: string): boolean {
  return value.startsWith("/") && !value.startsWith("//") && !UNSAFE_CHARACTERS.test(value);
}

/**
 * The path a browser lands on for this value, resolved as it will resolve it (dot segments,
 * encoded dots), or null when that is not a path on this site. "/.//evil.example" passes
 * every check as written but resolves to "//evil.example", which a Location header sends
 * to another host: so the resolved path is checked again.
 */
function resolvedLocalPath(value: unknown): string | null {
  if (typeof value !== "string" || value.length === 0 || value.length > MAX_REDIRECT_LENGTH) return null;
  if (!looksLikeLocalPath(value) || !URL.canParse(value, BASE)) return null;
  const url = new URL(value, BASE);
  const resolved = url.pathname + url.search + url.hash;
  return url.origin === BASE && looksLikeLocalPath(resolved) ? resolved : null;
}

/** True for a path on this site, before and after the browser resolves it. */
export function isSafeRedirectPath(value: unknown): value is string {
  return resolvedLocalPath(value) !== null;
}

/**
 * The requested path as the browser will resolve it when it stays on this site, otherwise
 * the fallback. Percent-encoded as a URL would be: a Location header holds only Latin-1,
 * so "/Ā" goes out as "/%C4%80".
 */
export function safeRedirectPath(value: unknown, fallback: string = DEFAULT_AFTER_LOGIN): string {
  return resolvedLocalPath(value) ?? fallback;
}

/** False for an address with a broken percent escape (`/agent/%E0%A4%A`), which no page can answer. */
export function isWellFormedPath(pathname: string): boolean {
  try {
    decodeURIComponent(pathname);
    return true;
  } catch {
    return false;
  }
}

/** The alerts for posting and responding (docs/product.md#forms-and-wording), and the same wording for the other member pages. */
const LOGIN_REASONS: ReadonlyArray<[RegExp, string]> = [
  [/^\/post-request(\/|$)/, "Please login to post a referral request"],
  [/^\/referral-requests\/[^/]+\/respond(\/|$)/, "Please login to respond to requests"],
  [/^\/referral-requests\/[^/]+\/(edit|delete)(\/|$)/, "Please login to manage your requests"],
  [/^\/referral-requests(\/|$)/, "Please login to view referral requests"],
  [/^\/messages(\/|$)/, "Please login to read and send messages"],
  [/^\/member-directory(\/|$)/, "Please login to view the member directory"],
  [/^\/agent\//, "Please login to view agent profiles"],
  [/^\/edit-profile(\/|$)/, "Please login to edit your profile"],
  [/^\/member-dashboard(\/|$)/, "Please login to view your dashboard"],
];

/** Why the login page was shown on the way to `redirectTo`, or null when the visitor came on their own. */
export function loginReason(redirectTo: string | null): string | null {
  if (!redirectTo) return null;
  const path = redirectTo.split(/[?#]/)[0]!;
  return LOGIN_REASONS.find(([pattern]) => pattern.test(path))?.[1] ?? "Please login to continue";
}
