import { createElement } from "react";
import { renderToString } from "react-dom/server";
import { createStaticHandler, type AgnosticDataRouteObject } from "@remix-run/router";
import { createStaticRouter, StaticRouterProvider } from "react-router-dom/server";
import { afterEach, describe, expect, it, vi } from "vitest";
import { GeneralErrorBoundary } from "../../app/components/error-boundary";
import { requestStatusHandlers, siteStatusHandlers } from "../../app/components/error-screens";
import { notFound } from "../../app/server/http.server";

type BoundaryProps = Parameters<typeof GeneralErrorBoundary>[0];

/** The HTML a route's boundary renders when its loader throws `thrown`. */
async function renderThrown(thrown: unknown, props: BoundaryProps): Promise<string> {
  const routes = [
    {
      id: "page",
      path: "/page",
      loader: (() => {
        throw thrown;
      }) as AgnosticDataRouteObject["loader"],
      Component: () => null,
      ErrorBoundary: () => createElement(GeneralErrorBoundary, props),
    },
  ];
  const handler = createStaticHandler(routes);
  const state = await handler.query(new Request("http://localhost/page"));
  if (state instanceof Response) throw new Error(`answered ${state.status}`);
  const router = createStaticRouter(handler.dataRoutes, state);
  return renderToString(createElement(StaticRouterProvider, { router, context: state, hydrate: false }));
}

/** A handler that draws just `text`. */
const said = (text: string) => () => createElement("p", null, text);

afterEach(() => vi.restoreAllMocks());

describe("notFound", () => {
  it("is a plain-text 404 saying what was not found", async () => {
    const response = notFound("Request not found");
    expect(response.status).toBe(404);
    expect(response.headers.get("Content-Type")).toBe("text/plain; charset=utf-8");
    expect(await response.text()).toBe("Request not found");
    expect(await notFound().text()).toBe("Not found");
  });
});

describe("GeneralErrorBoundary", () => {
  it("draws the root's screens: Page not found for 404, This address is not valid for 400", async () => {
    expect(await renderThrown(notFound(), { statusHandlers: siteStatusHandlers })).toContain("Page not found");
    expect(await renderThrown(new Response("Bad Request", { status: 400 }), { statusHandlers: siteStatusHandlers })).toContain(
      "This address is not valid",
    );
  });

  it("draws the generic screen for a status without a handler, without logging it", async () => {
    const logged = vi.spyOn(console, "error").mockImplementation(() => {});
    const html = await renderThrown(new Response("Gone", { status: 410 }), { statusHandlers: siteStatusHandlers });
    expect(html).toContain("Something went wrong");
    expect(html).toContain("Refresh Page");
    expect(logged).not.toHaveBeenCalled();
  });

  it("logs an unexpected error and draws the generic screen, never the error's text", async () => {
    const logged = vi.spyOn(console, "error").mockImplementation(() => {});
    const html = await renderThrown(new Error("secret stack detail"), { statusHandlers: siteStatusHandlers });
    expect(html).toContain("Something went wrong");
    expect(html).not.toContain("secret stack detail");
    expect(logged).toHaveBeenCalledWith(expect.objectContaining({ message: "secret stack detail" }));
  });

  it("draws the request pages' 404 and 403 screens", async () => {
    expect(await renderThrown(notFound("Request not found"), { statusHandlers: requestStatusHandlers })).toContain(
      "This request does not exist or has been removed.",
    );
    expect(await renderThrown(new Response("No", { status: 403 }), { statusHandlers: requestStatusHandlers })).toContain(
      "Only the agent who posted this request can edit or delete it.",
    );
  });

  it("uses a route's default and unexpected handlers when it gives them", async () => {
    vi.spyOn(console, "error").mockImplementation(() => {});
    const props: BoundaryProps = {
      statusHandlers: { 404: said("missing") },
      defaultStatusHandler: said("other status"),
      unexpectedErrorHandler: said("crashed"),
    };
    expect(await renderThrown(notFound(), props)).toContain("missing");
    expect(await renderThrown(new Response("", { status: 500 }), props)).toContain("other status");
    expect(await renderThrown(new Error("boom"), props)).toContain("crashed");
  });
});
