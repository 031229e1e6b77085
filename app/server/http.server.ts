import { randomBytes } from "node:crypto";
import { constants } from "node:zlib";
import type { NextFunction, Request, Response } from "express";
import helmet from "helmet";

export function assignNonce(_req: Request, res: Response, next: NextFunction) {
  res.locals.nonce = randomBytes(16).toString("base64");
  next();
}

export function securityHeaders(isProduction: boolean) {
  return helmet({
    contentSecurityPolicy: {
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'", (_req, res) => `'nonce-${(res as Response).locals.nonce as string}'`, "'strict-dynamic'"],
        styleSrc: ["'self'", "'unsafe-inline'"],
        imgSrc: ["'self'", "data:", "https:"],
        connectSrc: isProduction ? ["'self'"] : ["'self'", "ws:"],
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

const unsafeMethods = new Set(["POST", "PUT", "PATCH", "DELETE"]);

/**
 * Refuses form posts sent from another site. Browsers send Origin on every
 * cross-origin POST, so a mismatch is a forged request; a missing Origin
 * (curl, old browsers) falls back to SameSite=Lax cookies.
 */
export function sameOriginPosts(req: Request, res: Response, next: NextFunction) {
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
export function flushOnlyEventStreams(_req: Request, res: Response, next: NextFunction) {
  const flush = (res as Response & { flush?: () => void }).flush;
  if (flush) {
    (res as Response & { flush: () => void }).flush = () => {
      if (String(res.getHeader("content-type") ?? "").startsWith("text/event-stream")) flush.call(res);
    };
  }
  next();
}
