import { isRouteErrorResponse, useRouteError } from "@remix-run/react";
import type { ReactNode } from "react";
import { GenericErrorScreen, type StatusHandler } from "./error-screens";

/**
 * The one error boundary: the root renders it with the site-wide screens, and a route
 * whose errors need their own wording renders it with handlers for those statuses.
 * A thrown Response picks its status's handler (the generic screen when none is given);
 * anything else is a bug, logged on the server and shown as the generic screen.
 */
export function GeneralErrorBoundary({
  statusHandlers = {},
  defaultStatusHandler = () => <GenericErrorScreen />,
  unexpectedErrorHandler = () => <GenericErrorScreen />,
}: {
  statusHandlers?: Partial<Record<number, StatusHandler>>;
  defaultStatusHandler?: StatusHandler;
  unexpectedErrorHandler?: (error: unknown) => ReactNode;
}) {
  const error = useRouteError();
  if (isRouteErrorResponse(error)) return <>{(statusHandlers[error.status] ?? defaultStatusHandler)(error)}</>;
  console.error(error);
  return <>{unexpectedErrorHandler(error)}</>;
}
