import { PRODUCT_NAME } from "./product";

/**
 * What a push message carries, as the server sends it (JSON): all a notification shows and
 * the page a click opens, nothing more. `url` is a path on this site.
 */
export type PushNotice = { title: string; body: string; url: string; tag: string };

export const NOTICE_ICON = "/icons/icon-192.png";
export const NOTICE_BADGE = "/icons/badge-72.png";
const DEFAULT_NOTICE_PATH = "/member-dashboard";

/** Shown for a push whose payload is missing or not a notice: the member still learns something happened, and where to look. */
const GENERIC_NOTICE: PushNotice = {
  title: `New activity on ${PRODUCT_NAME}`,
  body: "Open your dashboard to see what changed.",
  url: DEFAULT_NOTICE_PATH,
  tag: "activity",
};

/**
 * The path and query of `url` when it is on `origin` (a bare path, or an absolute address on
 * the same origin), else null. A notification only ever opens this site: a payload naming
 * another one (a bug, or someone who got hold of a subscription) is not followed.
 */
export function sameOriginPath(url: string, origin: string): string | null {
  // "//host/path" and "/\host" are addresses on another host, not paths.
  if (url.startsWith("//") || url.startsWith("/\\")) return null;
  try {
    const resolved = new URL(url, origin);
    return resolved.origin === origin ? `${resolved.pathname}${resolved.search}${resolved.hash}` : null;
  } catch {
    return null;
  }
}

/** The notice a push payload (its text, or null when it has none) describes, or the generic one when it is not that shape. */
export function noticeFromPayload(text: string | null, origin: string): PushNotice {
  let data: unknown;
  try {
    data = text === null ? null : JSON.parse(text);
  } catch {
    return GENERIC_NOTICE;
  }
  if (typeof data !== "object" || data === null) return GENERIC_NOTICE;
  const { title, body, url, tag } = data as Record<string, unknown>;
  if (typeof title !== "string" || title.trim() === "" || typeof body !== "string" || typeof url !== "string" || typeof tag !== "string") {
    return GENERIC_NOTICE;
  }
  return { title, body, url: sameOriginPath(url, origin) ?? DEFAULT_NOTICE_PATH, tag };
}

/** The notification's path from its `data` (set by the push handler), or the dashboard when it holds none this site may open. */
export function noticePath(data: unknown, origin: string): string {
  const url = typeof data === "object" && data !== null ? (data as { url?: unknown }).url : undefined;
  return (typeof url === "string" && sameOriginPath(url, origin)) || DEFAULT_NOTICE_PATH;
}

/**
 * Which open window of the site a click on a notification uses: one already showing the
 * page is focused; otherwise an open one is sent there; with none, a new one opens.
 */
export function windowForNotice<W extends { url: string }>(
  windows: readonly W[],
  target: string,
): { action: "focus"; window: W } | { action: "navigate"; window: W } | { action: "open" } {
  const showing = windows.find((window) => window.url === target);
  if (showing) return { action: "focus", window: showing };
  const open = windows[0];
  return open ? { action: "navigate", window: open } : { action: "open" };
}
