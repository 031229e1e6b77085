import type { NextFunction, Request, RequestHandler, Response } from "express";
import { INBOUND_MAIL_PATH } from "~/domain/mail-reply";
import { isWellFormedPath } from "~/domain/redirect";
import { FORM_MAX_BYTES } from "./forms.server";
import { INBOUND_MAX_BYTES } from "./mail/inbound-parse.server";
import { MAIL_EVENTS_MAX_BYTES, MAIL_EVENTS_PATH } from "./mail/mail-events.server";

/** The pages whose forms carry a photo; every other body is an ordinary form. */
const PHOTO_FORM_PATHS = new Set(["/complete-profile", "/edit-profile"]);
/**
 * Photo forms read their own body and stop at 5 MB with the size message beside the
 * field, the other fields kept (images/photo-form.server.ts), so a 6 MB photo must
 * reach the page. Only a body far beyond any phone's photo is refused here.
 */
const PHOTO_FORM_REFUSED_BYTES = 25 * 1024 * 1024;

/** Routes match without regard to case or a trailing slash, and Remix's data requests end in ".data". */
function routePath(path: string): string {
  return (
    path
      .toLowerCase()
      .replace(/\.data$/, "")
      .replace(/\/+$/, "") || "/"
  );
}

function bodyLimitFor(path: string): number {
  if (isInboundMail(path)) return INBOUND_MAX_BYTES;
  // The mail provider's batches of events are JSON, far larger than a form.
  if (routePath(path) === MAIL_EVENTS_PATH) return MAIL_EVENTS_MAX_BYTES;
  return PHOTO_FORM_PATHS.has(routePath(path)) ? PHOTO_FORM_REFUSED_BYTES : FORM_MAX_BYTES;
}

function isInboundMail(path: string): boolean {
  return routePath(path) === INBOUND_MAIL_PATH;
}

function tooLargeMessage(limit: number): string {
  const size = limit >= 1024 * 1024 ? `${Math.floor(limit / (1024 * 1024))} MB` : `${limit / 1024} KB`;
  return `Request body too large: forms on this page accept at most ${size}.`;
}

/** How long a refused upload may go on arriving (and be thrown away) before the connection is cut. */
const LINGER_MS = 2000;

/**
 * Answers 413 without reading the body. The connection is not cut at once: a client
 * still sending would get a reset instead of the answer. Node throws the rest of the
 * body away as it arrives, and the connection is cut if it has not ended after LINGER_MS.
 */
function refuseTooLarge(req: Request, res: Response, limit: number) {
  res.once("finish", () => {
    if (!req.complete) setTimeout(() => req.socket.destroy(), LINGER_MS).unref();
  });
  if (isInboundMail(req.path)) return dropInboundMail(res);
  res.status(413).type("text/plain").send(tooLargeMessage(limit));
}

/**
 * SendGrid posts a mail again for three days after any answer but 2xx, and a mail too large
 * now is too large then: it is dropped unread with a 200 and a log line (docs/decisions/0071).
 */
function dropInboundMail(res: Response) {
  console.warn(`Inbound mail: dropped a post over the ${INBOUND_MAX_BYTES / (1024 * 1024)} MB limit, unread; nothing stored.`);
  res.status(200).type("text/plain").send("Dropped: over the size limit.");
}

/**
 * Refuses a request body over its page's limit before the page reads it: at once
 * when Content-Length says so, otherwise (a chunked body) as soon as the bytes
 * received pass the limit. The form readers stop at the same or lower limits, so a
 * page never acts on a body cut short here.
 */
function limitBodySize(req: Request, res: Response, next: NextFunction) {
  const limit = bodyLimitFor(req.path);
  if (Number(req.get("content-length") ?? "0") > limit) return refuseTooLarge(req, res, limit);
  if (req.get("content-length") === undefined && req.get("transfer-encoding") !== undefined) countStreamedBody(req, res, limit);
  next();
}

function countStreamedBody(req: Request, res: Response, limit: number) {
  let received = 0;
  // Paused first, so that listening here does not start the flow before the page reads the body.
  req.pause();
  const count = (chunk: Buffer) => {
    received += chunk.byteLength;
    if (received <= limit) return;
    req.off("data", count);
    if (!res.headersSent) refuseTooLarge(req, res, limit);
    else req.destroy();
  };
  req.on("data", count);
}

/**
 * A path with a broken percent escape (`/agent/%E0%A4%A`) makes Express's router
 * throw and answer with its own bare page, and would reach a page's loader (a
 * member page would send the visitor to log in). Express gets the path with the
 * stray "%" escaped, so routing goes on; Remix, which reads `originalUrl`, gets it
 * folded into one segment that only the catch-all route matches and still
 * malformed, so the root loader answers with the app's 400 screen.
 */
function routeMalformedPaths(req: Request, _res: Response, next: NextFunction) {
  const queryAt = req.url.indexOf("?");
  const path = queryAt === -1 ? req.url : req.url.slice(0, queryAt);
  const query = queryAt === -1 ? "" : req.url.slice(queryAt);
  if (!isWellFormedPath(path)) {
    req.url = path.replace(/%/g, "%25") + query;
    req.originalUrl = `/${path.slice(1).replace(/\//g, "%2F")}${query}`;
  }
  next();
}

/** Mounted before everything that reads the path or the body. */
export const requestGuards: RequestHandler[] = [routeMalformedPaths, limitBodySize];
