import { lookup as dnsLookup, type LookupAddress } from "node:dns";
import https from "node:https";
import { BlockList, isIP, type LookupFunction } from "node:net";
import { PHOTO_MAX_BYTES } from "~/domain/profile";

/**
 * Fetches a photo a member linked to, once, so the app can check it and keep its
 * own copy: pages then never make visitors' browsers fetch a host a member chose
 * (a tracking pixel, a picture swapped after review). The fetch itself is the
 * risk here (server-side request forgery), hence the guards: https only, every
 * address the name resolves to must be public (checked on the address actually
 * connected to, so a name that re-resolves to 127.0.0.1 cannot slip through),
 * a few redirects each checked the same way, and caps on size and time.
 */
export type PhotoFetcher = (url: string) => Promise<FetchedPhoto>;

type FetchedPhoto = { ok: true; bytes: Buffer } | { ok: false; reason: "unreachable" | "too-large" };

export type PhotoFetchOptions = {
  maxBytes: number;
  timeoutMs: number;
  maxRedirects: number;
  /** Which resolved addresses may be connected to. Only tests widen it, to reach their local server. */
  allowAddress: (address: string) => boolean;
  /** Name resolution; tests point their host name at their local server. */
  resolve: typeof dnsLookup;
  /** Certificate authorities to trust instead of the system's; only tests set it. */
  ca?: string | Buffer;
};

const PHOTO_FETCH_DEFAULTS: PhotoFetchOptions = {
  maxBytes: PHOTO_MAX_BYTES,
  timeoutMs: 10_000,
  maxRedirects: 3,
  allowAddress: isPublicAddress,
  resolve: dnsLookup,
};

/** Addresses that are not the public internet: this machine, private and carrier networks, link-local (cloud metadata), multicast, reserved. */
const nonPublic = new BlockList();
for (const [network, prefix] of [
  ["0.0.0.0", 8],
  ["10.0.0.0", 8],
  ["100.64.0.0", 10],
  ["127.0.0.0", 8],
  ["169.254.0.0", 16],
  ["172.16.0.0", 12],
  ["192.0.0.0", 24],
  ["192.0.2.0", 24],
  ["192.88.99.0", 24],
  ["192.168.0.0", 16],
  ["198.18.0.0", 15],
  ["198.51.100.0", 24],
  ["203.0.113.0", 24],
  ["224.0.0.0", 4],
  ["240.0.0.0", 4],
] as const) {
  nonPublic.addSubnet(network, prefix, "ipv4");
}
for (const [network, prefix] of [
  ["::", 128],
  ["::1", 128],
  ["64:ff9b::", 96],
  ["64:ff9b:1::", 48],
  ["100::", 64],
  ["2001::", 32],
  ["2001:db8::", 32],
  ["2002::", 16],
  ["fc00::", 7],
  ["fe80::", 10],
  ["fec0::", 10],
  ["ff00::", 8],
] as const) {
  nonPublic.addSubnet(network, prefix, "ipv6");
}

/** True for a public unicast address. IPv4 written as IPv6 (::ffff:10.0.0.1) is judged as the IPv4 address it is. */
export function isPublicAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 0) return false;
  return !nonPublic.check(address, family === 4 ? "ipv4" : "ipv6");
}

class AddressRefusedError extends Error {
  override name = "AddressRefusedError";
}

/** Resolves as usual, then refuses the connection unless every address is allowed. */
function guardedLookup(options: PhotoFetchOptions): LookupFunction {
  return (hostname, lookupOptions, callback) => {
    options.resolve(hostname, { ...lookupOptions, all: true }, (error, addresses: LookupAddress[]) => {
      if (error) return callback(error, "", 0);
      if (addresses.length === 0 || addresses.some((entry) => !options.allowAddress(entry.address))) {
        return callback(new AddressRefusedError(`${hostname} resolves to an address that is not public`), "", 0);
      }
      if (lookupOptions.all) return (callback as unknown as (error: null, all: LookupAddress[]) => void)(null, addresses);
      const first = addresses[0] as LookupAddress;
      callback(null, first.address, first.family);
    });
  };
}

type Hop =
  { kind: "photo"; bytes: Buffer } | { kind: "redirect"; location: string } | { kind: "failed"; reason: "unreachable" | "too-large" };

/** One GET: the body when it is a 200 within the size cap, the next address when it redirects. */
function getOnce(url: URL, options: PhotoFetchOptions, signal: AbortSignal): Promise<Hop> {
  return new Promise((resolve) => {
    const request = https.get(
      url,
      {
        lookup: guardedLookup(options),
        ca: options.ca,
        signal,
        agent: false,
        headers: { Accept: "image/jpeg,image/png,image/webp", "User-Agent": "RedRiverReferrals-PhotoFetch" },
      },
      (response) => {
        const status = response.statusCode ?? 0;
        if (status >= 300 && status < 400 && response.headers.location) {
          response.resume();
          return resolve({ kind: "redirect", location: response.headers.location });
        }
        if (status !== 200) {
          response.resume();
          return resolve({ kind: "failed", reason: "unreachable" });
        }
        if (Number(response.headers["content-length"] ?? 0) > options.maxBytes) {
          response.destroy();
          return resolve({ kind: "failed", reason: "too-large" });
        }
        const chunks: Buffer[] = [];
        let total = 0;
        response.on("data", (chunk: Buffer) => {
          total += chunk.byteLength;
          if (total > options.maxBytes) {
            response.destroy();
            resolve({ kind: "failed", reason: "too-large" });
            return;
          }
          chunks.push(chunk);
        });
        response.on("end", () => resolve({ kind: "photo", bytes: Buffer.concat(chunks) }));
        response.on("error", () => resolve({ kind: "failed", reason: "unreachable" }));
      },
    );
    request.on("error", () => resolve({ kind: "failed", reason: "unreachable" }));
  });
}

/** An address the fetcher may try: https, and when the host is written as an address, a public one. */
function fetchableUrl(value: string, base: URL | undefined, options: PhotoFetchOptions): URL | null {
  if (!URL.canParse(value, base)) return null;
  const url = new URL(value, base);
  if (url.protocol !== "https:" || url.username || url.password) return null;
  // Connections to a literal address skip name resolution, so the guard checks it here.
  const literal = url.hostname.replace(/^\[(.*)\]$/, "$1");
  if (isIP(literal) !== 0 && !options.allowAddress(literal)) return null;
  return url;
}

export function createPhotoFetcher(overrides: Partial<PhotoFetchOptions> = {}): PhotoFetcher {
  const options = { ...PHOTO_FETCH_DEFAULTS, ...overrides };
  return async (link) => {
    const signal = AbortSignal.timeout(options.timeoutMs);
    let url = fetchableUrl(link, undefined, options);
    for (let hop = 0; url && hop <= options.maxRedirects; hop += 1) {
      const result = await getOnce(url, options, signal);
      if (result.kind === "photo") return { ok: true, bytes: result.bytes };
      if (result.kind === "failed") return { ok: false, reason: result.reason };
      url = fetchableUrl(result.location, url, options);
    }
    return { ok: false, reason: "unreachable" };
  };
}
