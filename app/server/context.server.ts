import type { Services } from "./services.server";

export type RequestContext = {
  services: Services;
  /** The per-request Content-Security-Policy nonce for inline and module scripts. */
  nonce: string;
  /** The client's address as Express sees it (X-Forwarded-For only from trusted proxies, see TRUST_PROXY). */
  clientIp?: string;
};

declare module "@remix-run/node" {
  interface AppLoadContext extends RequestContext {}
}
