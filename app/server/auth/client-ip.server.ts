import type { AppLoadContext } from "@remix-run/node";

/** The key rate limits count a client by; requests built without a server (tests) share one. */
export function clientIp(context: AppLoadContext): string {
  return context.clientIp ?? "unknown";
}
