import type { Services } from "./services.server";

export type RequestContext = {
  services: Services;
  /** The per-request Content-Security-Policy nonce for inline and module scripts. */
  nonce: string;
};

declare module "@remix-run/node" {
  interface AppLoadContext extends RequestContext {}
}
