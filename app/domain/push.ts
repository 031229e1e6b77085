/**
 * Web Push notifications (docs/mail.md, docs/decisions/0067): which kinds of mail also go as
 * a push, the member's choice of them, the notification the service worker shows, and the
 * subscription a browser sends.
 *
 * A member's choice is kept in one Agents column, `pushOn`: the kinds with push on,
 * comma-separated, in the style of `mailOff`, so a blank cell means push is off until the
 * member turns it on.
 */
import { MAIL_KINDS, type MailKind } from "./notifications";

/** The kinds of mail that also go as a push; every other kind is mail only. */
export const PUSH_KINDS = ["messages", "referrals", "reviews", "invitations"] as const satisfies readonly MailKind[];
export type PushKind = (typeof PUSH_KINDS)[number];

/** What a push of each kind is about, shown in the settings page's push column. */
export const PUSH_KIND_DESCRIPTIONS: Record<PushKind, string> = {
  messages: "A push for a new message, following its mail: once per conversation in 10 minutes at most.",
  referrals: "A push when a proposal or changed terms wait for your signature, and when your broker signs off.",
  reviews: "A push when a review of you is published, with who wrote it and its stars.",
  invitations: "A push when you are invited to respond, and 2 hours before its Respond by if you have not answered.",
};

/** A member's `pushOn` cell as read. */
type PushChoices = { readonly pushOn?: readonly string[] };

function isPushKind(kind: string): kind is PushKind {
  return (PUSH_KINDS as readonly string[]).includes(kind);
}

/** True when the member turned push on for this kind (off until they do). */
export function wantsPush(agent: PushChoices, kind: MailKind): boolean {
  return isPushKind(kind) && (agent.pushOn ?? []).includes(kind);
}

/** The Agents row's doubts about its `pushOn` cell: names typed by hand that are no kind with push, ignored until staff correct them. */
export function pushOnDoubts(pushOn: readonly string[] | undefined): string[] {
  return (pushOn ?? [])
    .filter((name) => !isPushKind(name))
    .map((name) => `pushOn "${name}" is not a kind with push (${PUSH_KINDS.join(", ")})`);
}

/** The `pushOn` cell for the kinds chosen, in the order of PUSH_KINDS. */
export function pushOnFor(on: readonly string[]): PushKind[] {
  return PUSH_KINDS.filter((kind) => on.includes(kind));
}

/** Mail kinds in the settings page's order, each with whether it has a push column. */
export const SETTINGS_ROWS = MAIL_KINDS.map((kind) => ({ kind, push: isPushKind(kind) }));

/**
 * The device's name as the browser reports it, e.g. "Chrome on Android": from the
 * User-Agent Client Hints where the browser has them, its user agent string otherwise.
 */
export function deviceNameFrom(userAgent: string, hints?: { platform?: string; brands?: readonly { brand: string }[] }): string {
  const browser = browserName(userAgent, hints?.brands);
  const platform = hints?.platform?.trim() || platformName(userAgent);
  return platform ? `${browser} on ${platform}` : browser;
}

function browserName(userAgent: string, brands: readonly { brand: string }[] = []): string {
  const branded = brands.map((each) => each.brand).find((brand) => !/not.a.brand|chromium/i.test(brand));
  if (branded) return branded.replace(/^Google /, "");
  if (/Edg\//.test(userAgent)) return "Edge";
  if (/SamsungBrowser\//.test(userAgent)) return "Samsung Internet";
  if (/Firefox\/|FxiOS\//.test(userAgent)) return "Firefox";
  if (/Chrome\/|CriOS\//.test(userAgent)) return "Chrome";
  if (/Safari\//.test(userAgent)) return "Safari";
  return "Browser";
}

function platformName(userAgent: string): string {
  if (/Android/.test(userAgent)) return "Android";
  if (/iPhone/.test(userAgent)) return "iPhone";
  if (/iPad/.test(userAgent)) return "iPad";
  if (/Mac OS X|Macintosh/.test(userAgent)) return "Mac";
  if (/Windows/.test(userAgent)) return "Windows";
  if (/CrOS/.test(userAgent)) return "ChromeOS";
  if (/Linux/.test(userAgent)) return "Linux";
  return "";
}
