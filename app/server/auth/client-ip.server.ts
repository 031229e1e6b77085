import { BlockList, isIP } from "node:net";
import type { AppLoadContext } from "@remix-run/node";

/** The key rate limits count a client by; requests built without a server (tests) share one. */
export function clientIp(context: AppLoadContext): string {
  return context.clientIp ?? "unknown";
}

const loopback = new BlockList();
loopback.addSubnet("127.0.0.0", 8, "ipv4");
loopback.addAddress("::1", "ipv6");

/**
 * True when the client is this machine (127.0.0.0/8, ::1, or IPv4 loopback written
 * as IPv6). An unknown address is not. Behind a proxy on the same machine, the
 * address is the one the proxy forwards (TRUST_PROXY=loopback), not the proxy's own.
 */
export function isLoopbackClient(context: AppLoadContext): boolean {
  const ip = context.clientIp;
  if (ip === undefined) return false;
  const family = isIP(ip);
  return family !== 0 && loopback.check(ip, family === 4 ? "ipv4" : "ipv6");
}
