import { mkdtempSync } from "node:fs";
import { get as httpGet } from "node:http";
import { tmpdir } from "node:os";
import path from "node:path";
import { brotliDecompressSync, gunzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createPageCache } from "../../app/server/page-cache.server";
import { logIn, productionEnv, startBuiltServer, type BuiltServer } from "../../scripts/lib/built-server";
import { insertAgent, testContext } from "../support/services";

const PASSWORD = "correct horse battery";

let server: BuiltServer;
let env: Record<string, string>;
let memberEmail = "";

/** Stores an approved agent in the server's SQLite file from outside, as another process would. */
async function addAgent(fullName: string, password = PASSWORD) {
  const context = testContext({}, env);
  await context.services.store.refresh();
  const agent = await insertAgent(context, { fullName, city: "Tulsa", state: "OK", password });
  await context.services.store.stop();
  return agent;
}

beforeAll(async () => {
  env = { ...productionEnv(mkdtempSync(path.join(tmpdir(), "referral-page-cache-"))), NODE_ENV: "test", STORE_REFRESH_SECONDS: "0.2" };
  memberEmail = (await addAgent("Corinne Cachewright")).email;
  server = await startBuiltServer(["node", "build/server/server.js"], env);
}, 180_000);

afterAll(() => {
  server?.child.kill("SIGKILL");
});

async function page(address: string, cookie?: string) {
  const response = await fetch(`${server.baseUrl}${address}`, { headers: cookie ? { Cookie: cookie } : {} });
  const html = await response.text();
  const csp = response.headers.get("content-security-policy") ?? "";
  // A visitor's public page carries no script (decision 0085): the nonce is the CSP header's.
  const nonce = /'nonce-([^']+)'/.exec(csp)?.[1];
  return {
    status: response.status,
    cache: response.headers.get("x-page-cache"),
    html,
    nonce,
    csp,
    type: response.headers.get("content-type"),
  };
}

/** A response's bytes as they came over the wire, with no decoding. */
function raw(address: string, acceptEncoding: string) {
  return new Promise<{ cache?: string; encoding?: string; vary?: string; length?: string; body: Buffer }>((resolve, reject) => {
    const request = httpGet(`${server.baseUrl}${address}`, { headers: { "Accept-Encoding": acceptEncoding } }, (response) => {
      const chunks: Buffer[] = [];
      response.on("data", (chunk: Buffer) => chunks.push(chunk));
      response.on("end", () =>
        resolve({
          cache: response.headers["x-page-cache"] as string | undefined,
          encoding: response.headers["content-encoding"],
          vary: response.headers.vary,
          length: response.headers["content-length"],
          body: Buffer.concat(chunks),
        }),
      );
    });
    request.on("error", reject);
  });
}

describe("public pages rendered once per data version", { timeout: 60_000 }, () => {
  it("serves the second visit of a public page from the cache, with its own nonce matching its own CSP header", async () => {
    for (const address of ["/", "/why-red-river-referrals", "/privacy-policy", "/terms-of-service", "/directory?q=corinne"]) {
      const first = await page(address);
      const second = await page(address);
      expect([address, first.status, first.cache]).toEqual([address, 200, "miss"]);
      expect([address, second.status, second.cache]).toEqual([address, 200, "hit"]);
      expect(second.type).toBe(first.type);
      expect(second.html.replaceAll(second.nonce!, "N")).toBe(first.html.replaceAll(first.nonce!, "N"));
      expect(second.nonce).not.toBe(first.nonce);
      expect(second.csp).toContain(`'nonce-${second.nonce}'`);
      expect(second.html).not.toContain(first.nonce);
    }
  });

  it("sends a visitor's cached page in the encoding asked for, compressed once for every browser", async () => {
    const address = "/directory?q=corinne&state=OK";
    const rendered = await raw(address, "gzip, deflate, br, zstd");
    const [first, second] = [await raw(address, "gzip, deflate, br, zstd"), await raw(address, "gzip, deflate, br, zstd")];
    expect([rendered.cache, first.cache, second.cache]).toEqual(["miss", "hit", "hit"]);
    expect([first.encoding, first.vary]).toEqual(["br", "Accept-Encoding"]);
    expect(first.body.equals(second.body)).toBe(true);
    expect(Number(first.length)).toBe(first.body.length);
    const html = brotliDecompressSync(first.body).toString("utf8");
    expect(html).toBe(brotliDecompressSync(rendered.body).toString("utf8"));
    expect(html).toContain("Corinne Cachewright");
    const gzip = await raw(address, "gzip");
    expect([gzip.cache, gzip.encoding]).toEqual(["hit", "gzip"]);
    expect(gunzipSync(gzip.body).toString("utf8")).toBe(html);
    const plain = await raw(address, "identity");
    expect([plain.cache, plain.encoding]).toEqual(["hit", undefined]);
    expect(plain.body.toString("utf8")).toBe(html);
  });

  it("renders again after the data changes", async () => {
    await page("/directory?state=OK");
    expect((await page("/directory?state=OK")).cache).toBe("hit");
    await addAgent("Ignatius Newcomb");
    // The server notices the outside write at its next refresh (0.2 s here); until then the cached page is right.
    let after: Awaited<ReturnType<typeof page>> | undefined;
    await expect.poll(async () => (after = await page("/directory?state=OK")).html.includes("Ignatius Newcomb")).toBe(true);
    expect(after?.cache).toBe("miss");
    expect(after?.html).toContain("Ignatius Newcomb");
  });

  it("never gives a logged-in member the logged-out page, nor a logged-out visitor the member's", async () => {
    // Only a logged-in header links to the member's messages.
    const loggedInHeader = 'href="/messages"';
    const anonymous = await page("/directory?q=corinne");
    expect(anonymous.html).not.toContain(loggedInHeader);
    const cookie = await logIn(server.baseUrl, memberEmail, PASSWORD);
    for (let visit = 0; visit < 2; visit += 1) {
      const member = await page("/directory?q=corinne", cookie);
      expect(member.cache).toBeNull();
      expect(member.html).toContain(loggedInHeader);
    }
    const again = await page("/directory?q=corinne");
    expect(again.cache).toBe("hit");
    expect(again.html).not.toContain(loggedInHeader);
  });

  it("renders anew for a browser holding a one-time notice, whose answer may take it or leave it", async () => {
    await page("/privacy-policy");
    expect((await page("/privacy-policy")).cache).toBe("hit");
    const withNotice = await page("/privacy-policy", "__flash=a-notice-left-by-an-action");
    expect([withNotice.status, withNotice.cache]).toEqual([200, null]);
  });

  it("renders every time what is not a plain public page", async () => {
    for (const address of ["/member-login", "/directory.data?q=corinne", "/no-such-page"]) {
      await page(address);
      expect([address, (await page(address)).cache]).toEqual([address, null]);
    }
  });
});

describe("the page cache's bound", () => {
  const entry = (bytes: number) => ({ parts: ["x"], headers: [], bytes, renderedAt: 0 });

  it("lets the least recently used pages go once the pages weigh more than the bound", () => {
    const cache = createPageCache(250);
    cache.set("/a", "1", entry(100));
    cache.set("/b", "1", entry(100));
    expect(cache.get("/a", "1", 0)).toBeDefined();
    cache.set("/c", "1", entry(100));
    expect(cache.get("/b", "1", 0)).toBeUndefined();
    expect(cache.get("/a", "1", 0)).toBeDefined();
    expect(cache.get("/c", "1", 0)).toBeDefined();
  });

  it("forgets every page when the data version changes, and a page older than a minute", () => {
    const cache = createPageCache(1_000);
    cache.set("/a", "1", entry(10));
    expect(cache.get("/a", "2", 0)).toBeUndefined();
    expect(cache.get("/a", "1", 0)).toBeUndefined();
    cache.set("/b", "2", entry(10));
    expect(cache.get("/b", "2", 61_000)).toBeUndefined();
  });
});
