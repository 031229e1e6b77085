import { mkdtempSync, writeFileSync } from "node:fs";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import compression from "compression";
import express from "express";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PERMISSIONS_POLICY, PRIVATE_NO_STORE, securityMiddleware } from "../../app/server/http.server";
import { SESSION_COOKIE_NAME } from "../../app/server/auth/session.server";

/**
 * The server's own middleware stack (as server.ts mounts it: compression, the
 * security middleware, static files, then the app) in front of one stand-in for
 * each kind of answer the app gives, so every kind is checked for the headers.
 */
function appWithEveryResponseKind() {
  const assets = mkdtempSync(path.join(tmpdir(), "security-assets-"));
  writeFileSync(path.join(assets, "favicon.svg"), "<svg xmlns='http://www.w3.org/2000/svg'/>");
  const app = express();
  app.use(compression());
  app.use(securityMiddleware(true));
  app.use(express.static(assets, { maxAge: "1h", index: false }));
  app.get("/page", (_req, res) => res.type("html").send("<!doctype html><p>page</p>"));
  app.get("/member-page", (_req, res) => res.type("html").set("Cache-Control", "max-age=60").send("<p>Welcome back</p>"));
  app.get("/login", (_req, res) => res.cookie(SESSION_COOKIE_NAME, "signed").redirect("/member-page"));
  app.get("/resource.json", (_req, res) => res.json({ ok: true }));
  app.get("/uploads/photo.jpg", (_req, res) =>
    res
      .type("jpeg")
      .set("Cache-Control", "public, max-age=31536000, immutable")
      .send(Buffer.from([0xff, 0xd8, 0xff])),
  );
  app.get("/events", (_req, res) => {
    res.writeHead(200, { "Content-Type": "text/event-stream" });
    res.end("data: hello\n\n");
  });
  app.get("/fails", () => {
    throw new Error("route failed");
  });
  app.post("/too-large", (_req, res) => res.status(413).type("text/plain").send("Too large."));
  app.post("/wrong-type", (_req, res) => res.status(415).type("text/plain").send("Unsupported."));
  app.use((_req, res) => res.status(404).type("html").send("<p>Not found</p>"));
  // Express's own error page would print the stack trace; the app never lets one through.
  app.use((_error: unknown, _req: express.Request, res: express.Response, _next: express.NextFunction) => {
    res.status(500).type("html").send("<p>Something went wrong</p>");
  });
  return app;
}

let base = "";
let close: () => void = () => undefined;

beforeAll(async () => {
  const server = appWithEveryResponseKind().listen(0, "127.0.0.1");
  await new Promise((resolve) => server.once("listening", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  SAME_SITE_POST.headers.Origin = base;
  close = () => server.close();
});
afterAll(() => close());

const SIGNED_IN = { Cookie: `theme=dark; ${SESSION_COOKIE_NAME}=abc` };
/** Filled in once the server listens: a post from the site's own pages names its origin. */
const SAME_SITE_POST = { method: "POST", headers: { Origin: "" } };

const kinds: Array<{ kind: string; path: string; init?: RequestInit; status: number }> = [
  { kind: "page", path: "/page", status: 200 },
  { kind: "404", path: "/nowhere", status: 404 },
  { kind: "error", path: "/fails", status: 500 },
  { kind: "resource route", path: "/resource.json", status: 200 },
  { kind: "event stream", path: "/events", status: 200 },
  { kind: "static asset", path: "/favicon.svg", status: 200 },
  { kind: "413", path: "/too-large", init: SAME_SITE_POST, status: 413 },
  { kind: "415", path: "/wrong-type", init: SAME_SITE_POST, status: 415 },
  { kind: "cross-site refusal", path: "/too-large", init: { method: "POST", headers: { Origin: "https://evil.example" } }, status: 403 },
];

describe("headers on every response kind", () => {
  for (const { kind, path: url, init, status } of kinds) {
    it(`${kind}: Permissions-Policy, CSP, nosniff, framing, referrer and HSTS`, async () => {
      const response = await fetch(`${base}${url}`, { redirect: "manual", ...init });
      expect(response.status).toBe(status);
      const headers = response.headers;
      expect(headers.get("permissions-policy")).toBe(PERMISSIONS_POLICY);
      expect(headers.get("content-security-policy")).toMatch(/frame-ancestors 'none'/);
      expect(headers.get("x-content-type-options")).toBe("nosniff");
      expect(headers.get("x-frame-options")).toBe("DENY");
      expect(headers.get("referrer-policy")).toBe("same-origin");
      expect(headers.get("strict-transport-security")).toMatch(/max-age=\d+/);
      expect(headers.get("x-powered-by")).toBeNull();
      await response.arrayBuffer();
    });
  }

  it("lets pages register the site's own service worker and no other", async () => {
    const response = await fetch(`${base}/page`);
    expect(response.headers.get("content-security-policy")).toMatch(/(^|;)worker-src 'self'(;|$)/);
    await response.arrayBuffer();
  });

  it("turns off camera, microphone, geolocation and payment", () => {
    for (const feature of ["camera", "microphone", "geolocation", "payment"]) expect(PERMISSIONS_POLICY).toContain(`${feature}=()`);
  });
});

describe("caching of signed-in answers", () => {
  for (const { kind, path: url, init } of kinds.filter((entry) => entry.kind !== "static asset")) {
    it(`${kind} answered to a session cookie is private, no-store`, async () => {
      const response = await fetch(`${base}${url}`, { redirect: "manual", ...init, headers: { ...init?.headers, ...SIGNED_IN } });
      expect(response.headers.get("cache-control")).toBe(PRIVATE_NO_STORE);
      await response.arrayBuffer();
    });
  }

  it("overrides the route's own caching when a session cookie came with the request", async () => {
    const response = await fetch(`${base}/member-page`, { headers: SIGNED_IN });
    expect(response.headers.get("cache-control")).toBe(PRIVATE_NO_STORE);
  });

  it("marks the answer that sets the session cookie private, no-store", async () => {
    const response = await fetch(`${base}/login`, { redirect: "manual" });
    expect(response.headers.get("set-cookie")).toContain(`${SESSION_COOKIE_NAME}=`);
    expect(response.headers.get("cache-control")).toBe(PRIVATE_NO_STORE);
  });

  it("leaves what is the same for everyone cacheable: static assets and stored photos", async () => {
    const asset = await fetch(`${base}/favicon.svg`, { headers: SIGNED_IN });
    expect(asset.headers.get("cache-control")).toBe("public, max-age=3600");
    const photo = await fetch(`${base}/uploads/photo.jpg`, { headers: SIGNED_IN });
    expect(photo.headers.get("cache-control")).toBe("public, max-age=31536000, immutable");
  });

  it("does not mark a visitor's page private", async () => {
    const response = await fetch(`${base}/member-page`);
    expect(response.headers.get("cache-control")).toBe("max-age=60");
  });
});
