import { createElement, type ComponentType } from "react";
import { renderToString } from "react-dom/server";
import type { AppLoadContext, LoaderFunction } from "@remix-run/node";
import { createStaticHandler, type AgnosticDataRouteObject } from "@remix-run/router";
import { createStaticRouter, StaticRouterProvider } from "react-router-dom/server";

export type PageModule = { loader: LoaderFunction; default: ComponentType };

/**
 * Server-renders one route's component with its real loader's data, the way the
 * page's HTML is produced (React's escaping included), without building the app:
 * what a member's text becomes in the markup browsers receive.
 */
export async function renderPage(module: PageModule, pattern: string, url: string, context: AppLoadContext, cookie: string): Promise<string> {
  const routes = [{ id: "page", path: pattern, loader: module.loader as unknown as AgnosticDataRouteObject["loader"], Component: module.default }];
  const handler = createStaticHandler(routes);
  let state = await handler.query(new Request(`http://localhost${url}`, { headers: { Cookie: cookie } }), { requestContext: context });
  // A page may send the browser to its canonical address first (a profile's slug, a thread's id).
  const location = state instanceof Response ? state.headers.get("Location") : null;
  if (location) state = await handler.query(new Request(`http://localhost${location}`, { headers: { Cookie: cookie } }), { requestContext: context });
  if (state instanceof Response) throw new Error(`${url} answered ${state.status} ${state.headers.get("Location") ?? ""}`);
  if (state.errors) throw new Error(`${url} failed: ${JSON.stringify(state.errors)}`);
  const router = createStaticRouter(handler.dataRoutes, state);
  return renderToString(createElement(StaticRouterProvider, { router, context: state, hydrate: false }));
}
