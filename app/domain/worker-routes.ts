/**
 * What the service worker does with a request (docs/decisions/0065):
 * - `page`: a navigation, always fetched from the network (a member page is never answered
 *   from a cache); only when the network is gone does the offline page answer instead;
 * - `asset`: a build file under /assets/, whose name changes with its content, kept once
 *   fetched and answered from the cache afterwards;
 * - `network`: everything else (posts, Remix's data requests, event streams, /healthz,
 *   /uploads, the icons): left to the browser as if there were no worker.
 */
export type WorkerRoute = "page" | "asset" | "network";

export const OFFLINE_PAGE = "/offline.html";
const ASSETS_PATH = "/assets/";

export function workerRoute(request: { method: string; mode: string; url: string }, origin: string): WorkerRoute {
  if (request.method !== "GET") return "network";
  if (request.mode === "navigate") return "page";
  const url = new URL(request.url);
  if (url.origin === origin && url.pathname.startsWith(ASSETS_PATH)) return "asset";
  return "network";
}
