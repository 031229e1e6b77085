/** Where a member lands after logging in when no page asked to be returned to. */
export const DEFAULT_AFTER_LOGIN = "/member-dashboard";

const MAX_REDIRECT_LENGTH = 2000;
/**
 * Browsers drop tabs and line breaks from URLs and read a backslash as a slash, so
 * "/\t/evil.example" and "/\\evil.example" would both leave the site.
 */
// eslint-disable-next-line no-control-regex -- control characters are what this pattern looks for.
const UNSAFE_CHARACTERS = /[\\\s\u0000-\u001f\u007f]/;

/**
 * True for a path on this site: one leading slash, not two (`//host` is another
 * site), no backslash, whitespace or control character.
 */
export function isSafeRedirectPath(value: unknown): value is string {
  if (typeof value !== "string") return false;
  if (value.length === 0 || value.length > MAX_REDIRECT_LENGTH) return false;
  if (!value.startsWith("/") || value.startsWith("//")) return false;
  if (UNSAFE_CHARACTERS.test(value)) return false;
  // Belt and braces: the path must resolve to the same origin it started from.
  const base = "http://this-site.invalid";
  return URL.canParse(value, base) && new URL(value, base).origin === base;
}

/**
 * The requested path when it is safe, otherwise the fallback. Percent-encoded as
 * a URL would be: a Location header holds only Latin-1, so "/Ā" goes out as "/%C4%80".
 */
export function safeRedirectPath(value: unknown, fallback: string = DEFAULT_AFTER_LOGIN): string {
  if (!isSafeRedirectPath(value)) return fallback;
  const url = new URL(value, "http://this-site.invalid");
  return url.pathname + url.search + url.hash;
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

/** The spec's alerts (§5) for posting and responding, and the same wording for the other member pages. */
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
