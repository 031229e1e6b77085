import path from "node:path";
import { pathToFileURL } from "node:url";
import { createRequestHandler, type AppLoadContext, type ServerBuild } from "@remix-run/node";

/** The production build's server bundle (scripts/test.sh builds before the tests). */
const BUILD = pathToFileURL(path.resolve("build/server/index.js")).href;

let handler: Promise<(request: Request, context: AppLoadContext) => Promise<Response>> | undefined;

function requestHandler() {
  handler ??= (import(/* @vite-ignore */ BUILD) as Promise<ServerBuild>).then((build) => createRequestHandler(build, "production"));
  return handler;
}

/**
 * The whole HTML page the app sends a member for `url`, rendered by the production build
 * with the test's services (its loaders, React's escaping and the hydration data
 * included): what a member's text becomes in the markup browsers receive. A page that
 * first sends the browser to its canonical address (a profile's slug, a thread's id) is
 * followed there.
 */
export async function renderPage(url: string, context: AppLoadContext, cookie: string): Promise<string> {
  const handle = await requestHandler();
  const get = (address: string) => handle(new Request(`http://localhost${address}`, { headers: { Cookie: cookie } }), context);
  let response = await get(url);
  const location = response.status >= 300 && response.status < 400 ? response.headers.get("Location") : null;
  if (location) response = await get(location);
  if (response.status !== 200) throw new Error(`${url} answered ${response.status} ${response.headers.get("Location") ?? ""}`);
  return response.text();
}
