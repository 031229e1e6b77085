/**
 * Loading one address with autocannon in a separate process (so the load generator's
 * CPU is not the server's), and weighing a page: its HTML and the JavaScript and CSS
 * it makes a browser fetch on first load, gzipped.
 */
import { spawn } from "node:child_process";
import { request } from "node:http";
import { createRequire } from "node:module";
import { gzipSync } from "node:zlib";
import { cpuMs, type Server } from "./servers";

/** What Chromium sends: the server picks brotli. */
export const BROWSER_ACCEPT_ENCODING = "gzip, deflate, br, zstd";

const autocannonBin = createRequire(import.meta.url).resolve("autocannon/autocannon.js");

export type LoadResult = {
  requestsPerSecond: number;
  p50Ms: number;
  p99Ms: number;
  requests: number;
  errors: number;
  non2xx: number;
  /** Server CPU time over the run divided by the requests answered. */
  cpuMsPerRequest: number;
};

type AutocannonJson = {
  requests: { average: number; total: number };
  latency: { p50: number; p99: number };
  errors: number;
  timeouts: number;
  non2xx: number;
};

/** What the load asks for: brotli, as Chromium gets it, or the page as rendered (no encoding's CPU in the figure). */
export type Encoding = "br" | "identity";

type LoadOptions = { connections: number; seconds: number; cookie?: string; encoding?: Encoding };

function autocannon(url: string, options: LoadOptions): Promise<AutocannonJson> {
  const acceptEncoding = options.encoding === "identity" ? "identity" : BROWSER_ACCEPT_ENCODING;
  const args = [
    autocannonBin,
    "-j",
    "-c",
    String(options.connections),
    "-d",
    String(options.seconds),
    "-H",
    `accept-encoding=${acceptEncoding}`,
  ];
  if (options.cookie) args.push("-H", `cookie=${options.cookie}`);
  args.push(url);
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, { stdio: ["ignore", "pipe", "ignore"] });
    let out = "";
    child.stdout.on("data", (chunk: Buffer) => (out += chunk.toString()));
    child.on("error", reject);
    child.on("exit", (code) => {
      try {
        resolve(JSON.parse(out) as AutocannonJson);
      } catch {
        reject(new Error(`autocannon exited with ${code} and no result for ${url}`));
      }
    });
  });
}

export async function load(server: Server, path: string, options: LoadOptions & { warmupSeconds: number }): Promise<LoadResult> {
  const url = server.base + path;
  if (options.warmupSeconds > 0) await autocannon(url, { ...options, seconds: options.warmupSeconds });
  const cpuBefore = cpuMs(server);
  const result = await autocannon(url, options);
  const cpuAfter = cpuMs(server);
  return {
    requestsPerSecond: result.requests.average,
    p50Ms: result.latency.p50,
    p99Ms: result.latency.p99,
    requests: result.requests.total,
    errors: result.errors + result.timeouts,
    non2xx: result.non2xx,
    cpuMsPerRequest: (cpuAfter - cpuBefore) / Math.max(1, result.requests.total),
  };
}

export type PageWeight = {
  status: number;
  /** The page as rendered, uncompressed. */
  html: string;
  htmlKb: number;
  /** The HTML as sent to a browser (brotli when the server offers it). */
  htmlSentKb: number;
  jsGzipKb: number;
  cssGzipKb: number;
};

const kb = (bytes: number) => bytes / 1024;

/** The page's HTML, and the gzipped size of every script and stylesheet its HTML links to (modulepreload, entry, CSS). */
export async function weigh(server: Server, path: string, cookie?: string): Promise<PageWeight> {
  const headers: Record<string, string> = cookie ? { cookie } : {};
  const page = await fetch(server.base + path, { headers: { ...headers, "accept-encoding": "identity" }, redirect: "manual" });
  const html = await page.text();
  const sentBytes = await wireLength(server.base + path, { ...headers, "accept-encoding": BROWSER_ACCEPT_ENCODING });
  const assets = [
    ...new Set(
      [...html.matchAll(/(?:href|src)="(\/assets\/[^"]+)"|import\("(\/assets\/[^"]+)"\)|import "(\/assets\/[^"]+)"/g)].map(
        (m) => m[1] ?? m[2] ?? m[3]!,
      ),
    ),
  ];
  let js = 0;
  let css = 0;
  for (const asset of assets) {
    const body = Buffer.from(await (await fetch(server.base + asset)).arrayBuffer());
    const gz = gzipSync(body).length;
    if (asset.endsWith(".css")) css += gz;
    else if (asset.endsWith(".js")) js += gz;
  }
  return {
    status: page.status,
    html,
    htmlKb: kb(Buffer.byteLength(html)),
    htmlSentKb: kb(sentBytes),
    jsGzipKb: kb(js),
    cssGzipKb: kb(css),
  };
}

/** Bytes on the wire, read with node:http because fetch decodes the body. */
function wireLength(url: string, headers: Record<string, string>): Promise<number> {
  return new Promise((resolve, reject) => {
    request(url, { headers }, (response) => {
      let length = 0;
      response.on("data", (chunk: Buffer) => (length += chunk.length));
      response.on("end", () => resolve(length));
      response.on("error", reject);
    })
      .on("error", reject)
      .end();
  });
}
