import type { AppLoadContext } from "@remix-run/node";

declare module "@remix-run/node" {
  interface AppLoadContext {
    /** The client's address as Express sees it (X-Forwarded-For only from trusted proxies, see TRUST_PROXY). */
    clientIp?: string;
  }
}

/** The key rate limits count a client by; requests built without a server (tests) share one. */
export function clientIp(context: AppLoadContext): string {
  return context.clientIp ?? "unknown";
}
