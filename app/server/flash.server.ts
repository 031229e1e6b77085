import { createCookieSessionStorage, redirect, type SessionStorage } from "@remix-run/node";
import { isNoticeKind, NOTICES, type NoticeKind } from "~/domain/notices";
import type { Config } from "./config.server";

/**
 * One-time notices after an action (docs/decisions/0064): the action leaves the notice's
 * kind in a signed, httpOnly cookie of the browser that acted, and the page it redirects to
 * takes it out again. The address stays clean, so a reload or a shared link shows nothing.
 */
const FLASH_COOKIE_NAME = "__flash";
/** A notice explains the redirect that set it: one its page never read (a dropped connection) is not shown on a later visit. */
const FLASH_MAX_AGE_SECONDS = 60;

type FlashData = { notice: NoticeKind };

/** The flash cookie's signing and settings: one per process, in `Services`. */
export type FlashStorage = SessionStorage<Record<never, never>, FlashData>;

/** What leaving and taking a notice takes: the flash cookie's storage, as `Services` holds it. */
type Flashes = { flash: FlashStorage };

export function createFlashStorage(config: Pick<Config, "isProduction" | "sessionSecrets">): FlashStorage {
  return createCookieSessionStorage<Record<never, never>, FlashData>({
    cookie: {
      name: FLASH_COOKIE_NAME,
      httpOnly: true,
      sameSite: "lax",
      secure: config.isProduction,
      path: "/",
      maxAge: FLASH_MAX_AGE_SECONDS,
      secrets: config.sessionSecrets,
    },
  });
}

/** The redirect after a successful action, leaving `notice` for the page at `to` to show once. */
export async function redirectWithNotice({ flash }: Flashes, to: string, notice: NoticeKind): Promise<Response> {
  const session = await flash.getSession();
  session.flash("notice", notice);
  return redirect(to, { headers: { "Set-Cookie": await flash.commitSession(session) } });
}

/** A page's notice (its kind, for a page that shows kinds differently, and its text), and the headers its loader answers with. */
type TakenNotice = { kind: NoticeKind | null; notice: string | null; headers: Headers };

/**
 * The text of the notice left for this browser when it is one of `kinds` (those the page
 * shows), with the Set-Cookie that commits the cookie again without it: the next load finds
 * nothing. A notice of another kind is left where it is, for the page it was meant for.
 */
export async function takeNotice({ flash }: Flashes, request: Request, kinds: readonly NoticeKind[]): Promise<TakenNotice> {
  const headers = new Headers();
  const session = await flash.getSession(request.headers.get("Cookie"));
  // Reading a flashed value removes it from the session; only a commit makes that stick.
  const kind: unknown = session.get("notice");
  if (!isNoticeKind(kind) || !kinds.includes(kind)) return { kind: null, notice: null, headers };
  headers.append("Set-Cookie", await flash.commitSession(session));
  return { kind, notice: NOTICES[kind], headers };
}
