import { brotliCompressSync, gzipSync } from "node:zlib";
import type { NextFunction, Request, RequestHandler, Response } from "express";
import { WHY_PATH } from "~/domain/product";
import { compressionOptions } from "./http.server";
import type { Store } from "./store/store.server";
import type { TrackRecordCache } from "./track-record/track-records.server";

/**
 * The pages every logged-out visitor sees alike. Each renders the same HTML for the same
 * address and the same workbook, apart from the per-response CSP nonce.
 */
const PUBLIC_PAGES = new Set(["/", WHY_PATH, "/privacy-policy", "/terms-of-service", "/directory"]);

/**
 * Enough for a few hundred directory result pages (80 KB each at the large network). A page
 * sent compressed also keeps its brotli and gzip forms, about a fifth of its size each.
 */
export const PAGE_CACHE_BYTES = 24 * 1024 * 1024;
/** Pages may show today's date (the legal pages' effective date), so none is kept for longer than this. */
const PAGE_MAX_AGE_MS = 60_000;
/** Tells tests and operators whether a public page was rendered for this response. */
const PAGE_CACHE_HEADER = "X-Page-Cache";

/** Headers set by the middleware in front or by the connection, never replayed from a cached page. */
const PER_RESPONSE_HEADERS = new Set([
  "content-length",
  "content-encoding",
  "transfer-encoding",
  "vary",
  "set-cookie",
  "date",
  "connection",
  "keep-alive",
  "etag",
  PAGE_CACHE_HEADER.toLowerCase(),
]);

type CachedPage = {
  /** The HTML split at every occurrence of the nonce it was rendered with. */
  parts: string[];
  headers: [string, string][];
  bytes: number;
  renderedAt: number;
  /** A page without the nonce (a visitor's carries no script, decision 0085) is the same bytes for everyone: each compression, made once. */
  compressed?: Partial<Record<Compression, Buffer>>;
};

type Compression = "br" | "gzip";

/** The same compression the compression middleware applies to a rendered page, done once per page. */
const COMPRESSORS: Record<Compression, (html: string) => Buffer> = {
  br: (html) => brotliCompressSync(html, compressionOptions.brotli),
  gzip: (html) => gzipSync(html),
};

const BY_PREFERENCE: readonly Compression[] = ["br", "gzip"];

function compressedBody(page: CachedPage, compression: Compression): Buffer {
  page.compressed ??= {};
  return (page.compressed[compression] ??= COMPRESSORS[compression](page.parts[0]!));
}

/**
 * Sends a cached page. One that holds no nonce goes out as bytes encoded once, in the
 * encoding the browser prefers (the compression middleware leaves an encoded answer be);
 * one that holds it is joined with this response's nonce and compressed as any page.
 */
function sendCachedPage(req: Request, res: Response, page: CachedPage, nonce: string): void {
  if (page.parts.length > 1) {
    res.status(200).end(page.parts.join(nonce));
    return;
  }
  res.setHeader("Vary", "Accept-Encoding");
  // Brotli first whatever the header's order, as the compression middleware chooses.
  const compression = BY_PREFERENCE.find((name) => req.acceptsEncodings(name) === name);
  if (!compression) {
    res.status(200).end(page.parts[0]);
    return;
  }
  const body = compressedBody(page, compression);
  res.setHeader("Content-Encoding", compression);
  res.setHeader("Content-Length", body.length);
  res.status(200).end(body);
}

export type PageCache = {
  /** The cached page for `key`, when it was rendered at data version `version` less than a minute ago. */
  get(key: string, version: string, now: number): CachedPage | undefined;
  set(key: string, version: string, page: CachedPage): void;
  readonly counts: { hits: number; renders: number };
};

/** Least recently used pages leave first once the pages held weigh more than `maxBytes`. */
export function createPageCache(maxBytes: number): PageCache {
  const pages = new Map<string, CachedPage>();
  let version = "";
  let bytes = 0;
  const counts = { hits: 0, renders: 0 };

  /** A new data version makes every page held out of date at once. */
  function atVersion(current: string) {
    if (current === version) return;
    pages.clear();
    bytes = 0;
    version = current;
  }

  function remove(key: string) {
    const page = pages.get(key);
    if (!page) return;
    pages.delete(key);
    bytes -= page.bytes;
  }

  return {
    counts,
    get(key, current, now) {
      atVersion(current);
      const page = pages.get(key);
      if (!page) return undefined;
      remove(key);
      if (now - page.renderedAt > PAGE_MAX_AGE_MS) return undefined;
      // Re-inserted: a Map iterates in insertion order, so the first key is the least recently used.
      pages.set(key, page);
      bytes += page.bytes;
      return page;
    },
    set(key, current, page) {
      atVersion(current);
      if (page.bytes > maxBytes) return;
      remove(key);
      pages.set(key, page);
      bytes += page.bytes;
      for (const oldest of pages.keys()) {
        if (bytes <= maxBytes) break;
        remove(oldest);
      }
    },
  };
}

/**
 * What public pages show: the founder spots on the home page and the directory are read
 * from the agents, and the directory's cards and its "Best track record" order from the
 * track records, whose cards version moves only when a card or the order would change. A
 * public page that starts reading anything else must be covered here. Members' writes
 * (messages, read positions, mail claims, marks) that change no card leave the cache be.
 */
type PublicPageSources = { store: Store; trackRecords: TrackRecordCache };

/** Changes whenever what public pages show changes, by this process's writes or by a refresh that found outside edits. */
function dataVersion({ store, trackRecords }: PublicPageSources): string {
  return `${store.agents.version()}.${trackRecords.current().cardsVersion}`;
}

/**
 * Only a plain GET of a public page by a browser that sends no cookie at all: a session
 * (logged in, or an expired one the server would clear), a registration draft, a reset
 * token or a one-time notice (docs/decisions/0064) could each change what the page shows or
 * what it sets, so any cookie means render.
 */
function isCacheable(req: Request): boolean {
  return req.method === "GET" && PUBLIC_PAGES.has(req.path) && req.get("cookie") === undefined;
}

/**
 * Serves public pages rendered once per data version and address (docs/product.md#performance-budgets). The page is
 * stored split at the nonce it was rendered with, and each response joins it with its own,
 * so the nonce stays per response and matches that response's CSP header. Only 200 HTML
 * answers without Set-Cookie are kept, and only when no write landed while rendering.
 */
export function servePublicPagesOnce(cache: PageCache, sources: PublicPageSources): RequestHandler {
  return (req: Request, res: Response, next: NextFunction) => {
    if (!isCacheable(req)) return next();
    const nonce = res.locals.nonce as string;
    const version = dataVersion(sources);
    const page = cache.get(req.originalUrl, version, Date.now());
    if (page) {
      cache.counts.hits += 1;
      for (const [name, value] of page.headers) res.setHeader(name, value);
      res.setHeader(PAGE_CACHE_HEADER, "hit");
      sendCachedPage(req, res, page, nonce);
      return;
    }
    cache.counts.renders += 1;
    res.setHeader(PAGE_CACHE_HEADER, "miss");
    const headersBefore = new Set(res.getHeaderNames());
    captureBody(res, (body) => {
      const cacheable =
        res.statusCode === 200 && !res.hasHeader("set-cookie") && String(res.getHeader("content-type") ?? "").startsWith("text/html");
      if (!cacheable || dataVersion(sources) !== version) return;
      const headers = res
        .getHeaderNames()
        .filter((name) => !headersBefore.has(name) && !PER_RESPONSE_HEADERS.has(name))
        .map((name): [string, string] => [name, String(res.getHeader(name))]);
      const html = body.toString("utf8");
      cache.set(req.originalUrl, version, { parts: html.split(nonce), headers, bytes: body.length, renderedAt: Date.now() });
    });
    next();
  };
}

/** Passes every chunk on as written and hands the whole body to `onEnd` once the response ends. */
function captureBody(res: Response, onEnd: (body: Buffer) => void) {
  const chunks: Buffer[] = [];
  const keep = (chunk: unknown, encoding: unknown) => {
    if (typeof chunk === "string") chunks.push(Buffer.from(chunk, typeof encoding === "string" ? (encoding as BufferEncoding) : "utf8"));
    else if (chunk instanceof Uint8Array) chunks.push(Buffer.from(chunk));
  };
  const write = res.write;
  const end = res.end;
  res.write = function (this: Response, ...args: Parameters<Response["write"]>) {
    keep(args[0], args[1]);
    return write.apply(this, args);
  } as Response["write"];
  res.end = function (this: Response, ...args: unknown[]) {
    if (typeof args[0] !== "function") keep(args[0], args[1]);
    onEnd(Buffer.concat(chunks));
    return (end as (...rest: unknown[]) => Response).apply(this, args);
  } as Response["end"];
}
