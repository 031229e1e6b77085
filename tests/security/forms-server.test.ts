import { mkdtempSync, readFileSync } from "node:fs";
import http from "node:http";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { productionEnv, startBuiltServer, type BuiltServer } from "../../scripts/lib/built-server";

/**
 * The production server as operators run it, started as a child on a free port:
 * hostile requests must leave it answering at once (docs/product.md#hostile-input).
 */
let server: BuiltServer;
let origin = "";

beforeAll(async () => {
  const dataDir = mkdtempSync(path.join(tmpdir(), "referral-forms-server-"));
  server = await startBuiltServer(["node", "scripts/start.mjs"], productionEnv(dataDir));
  origin = server.baseUrl;
  // The timings below are for a warm server.
  await fetch(`${origin}/healthz`);
  await fetch(`${origin}/member-login`);
}, 120_000);

afterAll(async () => {
  server?.child.kill("SIGTERM");
  await server?.exited;
});

/** Answers /healthz, returning how long it took. */
async function healthzMs(): Promise<number> {
  const started = performance.now();
  const response = await fetch(`${origin}/healthz`, { signal: AbortSignal.timeout(5000) });
  expect(response.status).toBe(200);
  return performance.now() - started;
}

/** The server's resident memory in bytes, from /proc (Linux). */
function serverRss(): number {
  const status = readFileSync(`/proc/${server.child.pid}/status`, "utf8");
  return Number(/VmRSS:\s+(\d+) kB/.exec(status)?.[1] ?? 0) * 1024;
}

/** Posts `total` bytes of urlencoded body, declared with Content-Length or sent chunked, and returns the status and text. */
function postBig(pathname: string, total: number, chunked: boolean): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const url = new URL(pathname, origin);
    const headers: Record<string, string> = { "Content-Type": "application/x-www-form-urlencoded", Origin: origin };
    if (!chunked) headers["Content-Length"] = String(total);
    const request = http.request(url, { method: "POST", headers });
    request.on("response", (response) => {
      let body = "";
      response.on("data", (chunk: Buffer) => (body += chunk.toString()));
      response.on("end", () => resolve({ status: response.statusCode ?? 0, body }));
    });
    // The server closes the connection as soon as it refuses: later writes fail, which is expected.
    request.on("error", () => undefined);
    const chunk = Buffer.alloc(64 * 1024, "a");
    let sent = 0;
    const writeMore = () => {
      while (sent < total && !request.destroyed) {
        sent += chunk.length;
        if (!request.write(chunk)) return void request.once("drain", writeMore);
      }
      if (!request.destroyed) request.end();
    };
    request.write("message=");
    writeMore();
    setTimeout(() => reject(new Error("No answer within 20 s")), 20_000).unref();
  });
}

describe("the running server", () => {
  it("answers the crash request with a short 400 and keeps answering /healthz within 1 s", async () => {
    const started = performance.now();
    const response = await fetch(`${origin}/member-login`, {
      method: "POST",
      headers: { "Content-Type": "application/x-www-form-urlencoded", Origin: origin },
      body: "email=a%40b.c&password=x&specialties[1000000000]=x",
    });
    const text = await response.text();
    const took = performance.now() - started;
    const healthz = await healthzMs();
    console.log(
      `crash request answered ${response.status} in ${took.toFixed(0)} ms (${text.length} bytes); /healthz after it: ${healthz.toFixed(0)} ms`,
    );
    expect(response.status).toBe(400);
    expect(text.length).toBeLessThan(200_000);
    expect(text).not.toMatch(/at .+\.(ts|js):\d+/);
    expect(healthz).toBeLessThan(1000);
  });

  for (const chunked of [false, true]) {
    it(`refuses a 50 MB ${chunked ? "chunked" : "declared"} body with 413 and keeps answering /healthz within 1 s`, async () => {
      const rssBefore = serverRss();
      const [refused, healthz] = await Promise.all([
        postBig("/contact", 50 * 1024 * 1024, chunked),
        new Promise<number>((resolve) => setTimeout(() => resolve(healthzMs()), 100)),
      ]);
      const growth = serverRss() - rssBefore;
      console.log(
        `50 MB ${chunked ? "chunked" : "declared"} body: ${refused.status}; /healthz meanwhile: ${healthz.toFixed(0)} ms; server memory growth ${(growth / 1e6).toFixed(1)} MB`,
      );
      expect(growth).toBeLessThan(50 * 1024 * 1024);
      expect(refused.status).toBe(413);
      expect(refused.body).toMatch(/^Request body too large: forms on this page accept at most 64 KB\.$/);
      expect(healthz).toBeLessThan(1000);
      expect(await healthzMs()).toBeLessThan(1000);
    }, 30_000);
  }

  it("lets a 6 MB photo form reach its page, which answers with the size message beside the field", async () => {
    const response = await postBig("/complete-profile", 6 * 1024 * 1024, false);
    expect(response.status).not.toBe(413);
    expect(response.status).toBeLessThan(500);
    const huge = await postBig("/edit-profile", 30 * 1024 * 1024, false);
    expect(huge.status).toBe(413);
  }, 30_000);

  // Declared: the guard answers before any page. A chunked one reaches the webhook, which counts it
  // itself (tests/integration/reply-by-mail.test.ts), after its password check.
  it("drops a 50 MB declared post to the mail webhook unread, with the 200 its provider needs", async () => {
    const rssBefore = serverRss();
    const dropped = await postBig("/mail/inbound", 50 * 1024 * 1024, false);
    expect(serverRss() - rssBefore).toBeLessThan(50 * 1024 * 1024);
    expect(dropped).toEqual({ status: 200, body: "Dropped: over the size limit." });
    expect(await healthzMs()).toBeLessThan(1000);
  }, 30_000);

  // SendGrid's event batches reach 768 KB: the guard lets them through to the webhook (off here: 404), not past its limit.
  it("lets a 1 MB post reach the mail events webhook, and refuses one over its 2 MB with 413", async () => {
    const batch = await fetch(`${origin}/mail/events`, { method: "POST", body: "a".repeat(1024 * 1024) });
    expect(batch.status).toBe(404);
    expect((await postBig("/mail/events", 3 * 1024 * 1024, false)).status).toBe(413);
  }, 30_000);

  it("answers a malformed address with the app's own 400 screen, no stack trace", async () => {
    const response = await fetch(`${origin}/agent/%E0%A4%A`);
    const html = await response.text();
    expect(response.status).toBe(400);
    expect(html).toContain("This address is not valid");
    expect(html).not.toMatch(/URIError|at .+\.(ts|js):\d+/);
  });
});
