import { randomBytes } from "node:crypto";
import { constants } from "node:zlib";
import type { NextFunction, Request, RequestHandler, Response } from "express";
import helmet from "helmet";
import { INBOUND_MAIL_PATH } from "~/domain/mail-reply";
import { UNSUBSCRIBE_PATH } from "~/domain/notifications";
import { STOP_INVITING_PATH } from "~/domain/stop-invitations";
import { CLOUDINARY_DELIVERY_ORIGIN } from "~/domain/stored-photo";
import { SESSION_COOKIE_NAME } from "./auth/session.server";

/**
 * The one "not found" answer, thrown by loaders and actions (a page request then
 * shows the route's or the root's error boundary) or returned as is by resource
 * routes. The text says what was not found, for clients that read the body.
 * (`Response` alone is Express's response in this module.)
 */
export function notFound(what = "Not found"): globalThis.Response {
  return new globalThis.Response(what, { status: 404, headers: { "Content-Type": "text/plain; charset=utf-8" } });
}

/** Like `notFound`, for what needs a service that is out of reach for a moment (the database): 503, and the screen asks to try again. */
export function serviceUnavailable(what: string): globalThis.Response {
  return new globalThis.Response(what, { status: 503, headers: { "Content-Type": "text/plain; charset=utf-8" } });
}

/**
 * Everything every response goes through, in order: per-request nonce, security
 * headers, caching of signed-in answers, and the cross-site post check. Placed
 * before static files and the app, so assets, errors and streams carry the headers too.
 */
export function securityMiddleware(isProduction: boolean): RequestHandler[] {
  return [flushOnlyEventStreams, assignNonce, securityHeaders(isProduction), permissionsPolicy, privateWhenSignedIn, sameOriginPosts];
}

function assignNonce(_req: Request, res: Response, next: NextFunction) {
  res.locals.nonce = randomBytes(16).toString("base64");
  next();
}

function securityHeaders(isProduction: boolean) {
  return helmet({
    contentSecurityPolicy: {
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'", (_req, res) => `'nonce-${(res as Response).locals.nonce as string}'`, "'strict-dynamic'"],
        styleSrc: ["'self'", "'unsafe-inline'"],
        // Profile photos are only ever the app's own copies (uploads here or on Cloudinary), see photoSource.
        imgSrc: ["'self'", "data:", CLOUDINARY_DELIVERY_ORIGIN],
        connectSrc: isProduction ? ["'self'"] : ["'self'", "ws:"],
        // The service worker (/sw.js), allowed outright: with 'strict-dynamic' browsers ignore script-src's
        // 'self', and whether a nonced script's trust reaches the worker it registers differs between them.
        workerSrc: ["'self'"],
        formAction: ["'self'"],
        frameAncestors: ["'none'"],
        objectSrc: ["'none'"],
        baseUri: ["'self'"],
        upgradeInsecureRequests: isProduction ? [] : null,
      },
    },
    xFrameOptions: { action: "deny" },
    // "no-referrer" would make browsers send `Origin: null` on form posts, which the
    // same-origin check below must refuse; "same-origin" keeps Origin and leaks nothing.
    referrerPolicy: { policy: "same-origin" },
    strictTransportSecurity: isProduction,
  });
}

/**
 * Browser features no page here uses, switched off for the page and anything it
 * embeds, so even a script that slipped past the CSP cannot reach them. A photo
 * upload opens the system file picker, which needs none of these.
 */
export const PERMISSIONS_POLICY = [
  "accelerometer=()",
  "autoplay=()",
  "browsing-topics=()",
  "camera=()",
  "display-capture=()",
  "encrypted-media=()",
  "fullscreen=()",
  "geolocation=()",
  "gyroscope=()",
  "hid=()",
  "magnetometer=()",
  "microphone=()",
  "midi=()",
  "payment=()",
  "publickey-credentials-get=()",
  "screen-wake-lock=()",
  "serial=()",
  "usb=()",
  "xr-spatial-tracking=()",
].join(", ");

function permissionsPolicy(_req: Request, res: Response, next: NextFunction) {
  res.setHeader("Permissions-Policy", PERMISSIONS_POLICY);
  next();
}

export const PRIVATE_NO_STORE = "private, no-store";

function sendsSessionCookie(req: Request): boolean {
  return (req.get("cookie") ?? "").split(";").some((pair) => pair.trim().startsWith(`${SESSION_COOKIE_NAME}=`));
}

/**
 * Anything answered to a signed-in browser may show that member's data (the
 * header's name, the dashboard, messages, a profile form), and a response that
 * sets a cookie carries the session itself: neither may be kept by a shared
 * cache or the browser's disk cache. Decided when the headers go out, after the
 * route set its own: only a route that declared itself `public` (a stored
 * photo, a static asset, the same for everyone) keeps its caching.
 */
function privateWhenSignedIn(req: Request, res: Response, next: NextFunction) {
  const signedIn = sendsSessionCookie(req);
  const writeHead = res.writeHead;
  res.writeHead = function (this: Response, ...args: Parameters<Response["writeHead"]>) {
    const declared = String(res.getHeader("cache-control") ?? "");
    if ((signedIn || res.hasHeader("set-cookie")) && !/\bpublic\b/.test(declared)) res.setHeader("Cache-Control", PRIVATE_NO_STORE);
    return writeHead.apply(this, args);
  } as Response["writeHead"];
  next();
}

const unsafeMethods = new Set(["POST", "PUT", "PATCH", "DELETE"]);

/**
 * Refuses form posts sent from another site. Browsers send Origin on every
 * cross-origin POST, so a mismatch is a forged request; a missing Origin
 * (curl, old browsers) falls back to SameSite=Lax cookies.
 *
 * The one exception is the unsubscribe link's POST: RFC 8058's one-click unsubscribe is a
 * POST made by the recipient's mail program (a webmail page sends its own Origin). It needs
 * no session, and the signed token in its address is its whole authority, so a forged
 * post could only do what the link's owner can (docs/decisions/0027). An invitation's
 * "don't invite me again" link is the same kind of post (docs/decisions/0084). Remix makes the same
 * Origin check itself and answers a mismatch with a 500 before any action runs, so the
 * exempt post goes on without its Origin; every other post keeps it and meets both checks.
 *
 * The other is the mail provider's webhook (`/mail/inbound`, docs/decisions/0071): a server
 * posts it, not a browser, and its authority is the webhook's password in the Authorization
 * header, which no other site's page can send; it reads no session cookie, so a cross-site
 * post could do nothing a visitor without the password cannot.
 */
function sameOriginPosts(req: Request, res: Response, next: NextFunction) {
  if (isUnsubscribePost(req) || isInboundMailPost(req)) {
    delete req.headers.origin;
    return next();
  }
  if (!unsafeMethods.has(req.method)) return next();
  const origin = req.get("origin");
  if (!origin || origin === "null") return origin === "null" ? refuse(res) : next();
  let originHost: string;
  try {
    originHost = new URL(origin).host;
  } catch {
    return refuse(res);
  }
  const host = req.get("x-forwarded-host") ?? req.get("host");
  if (originHost !== host) return refuse(res);
  next();
}

function isUnsubscribePost(req: Request): boolean {
  return req.method === "POST" && (req.path === UNSUBSCRIBE_PATH || req.path === STOP_INVITING_PATH);
}

function isInboundMailPost(req: Request): boolean {
  return req.method === "POST" && req.path === INBOUND_MAIL_PATH;
}

function refuse(res: Response) {
  res.status(403).type("text/plain").send("Cross-site form posts are not accepted.");
}

/**
 * Brotli for browsers that ask for it, with a 256 KB window instead of the default 4 MB:
 * every page is smaller than that, so the output is the same size, and each response
 * no longer sets up a 4 MB window (measured by `npm run bench`, docs/performance.md).
 */
export const compressionOptions = {
  brotli: { params: { [constants.BROTLI_PARAM_QUALITY]: 4, [constants.BROTLI_PARAM_LGWIN]: 18 } },
};

/**
 * Remix flushes the response after every chunk it writes, which makes the
 * compression middleware end a gzip block each time: a rendered page then goes
 * out several times larger than it needs to. Only event streams need each
 * chunk sent at once, so only they keep flushing.
 */
function flushOnlyEventStreams(_req: Request, res: Response, next: NextFunction) {
  const flush = (res as Response & { flush?: () => void }).flush;
  if (flush) {
    (res as Response & { flush: () => void }).flush = () => {
      if (String(res.getHeader("content-type") ?? "").startsWith("text/event-stream")) flush.call(res);
    };
  }
  next();
}
