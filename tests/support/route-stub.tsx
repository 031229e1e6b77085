/**
 * One route in a memory data router, for component tests: the page's component with an
 * action, so a form posts, the answer comes back through useActionData and the page
 * re-renders as it does with JavaScript in the browser. Remix's Form, useActionData and
 * useNavigation are react-router's under another name, so a react-router data router is
 * all they need (@remix-run/testing's createRemixStub builds the same around them).
 */
import { render } from "@testing-library/react";
import type { ComponentType } from "react";
import { createMemoryRouter, RouterProvider, type ActionFunction } from "react-router-dom";

const ROUTE_ID = "page";

/**
 * Renders `Page` at /form with `action` answering its posts. `actionData` opens the page as
 * the server's answer to a refused post renders it: what a browser without JavaScript loads.
 */
export function renderRoute(Page: ComponentType, action: ActionFunction, options: { actionData?: unknown } = {}) {
  const router = createMemoryRouter([{ id: ROUTE_ID, path: "/form", Component: Page, action }], {
    initialEntries: ["/form"],
    hydrationData: options.actionData === undefined ? undefined : { actionData: { [ROUTE_ID]: options.actionData }, loaderData: {} },
  });
  return { router, ...render(<RouterProvider router={router} future={{ v7_startTransition: true }} />) };
}
