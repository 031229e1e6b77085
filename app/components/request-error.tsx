import { isRouteErrorResponse, Link, useRouteError } from "@remix-run/react";
import { GenericErrorScreen } from "./error-screens";

/**
 * The error boundary of the request pages: a 403 says whose request it is, a 404 that
 * it does not exist, anything else is the generic screen.
 */
export function RequestErrorBoundary() {
  const error = useRouteError();
  if (isRouteErrorResponse(error) && error.status === 404) return <RequestNotFound />;
  if (isRouteErrorResponse(error) && error.status === 403) return <NotYourRequest />;
  if (!isRouteErrorResponse(error)) console.error(error);
  return <GenericErrorScreen />;
}

function RequestNotFound() {
  return <ErrorMessage id="not-found-title" title="Request not found" text="This request does not exist or has been removed." />;
}

function NotYourRequest() {
  return <ErrorMessage id="forbidden-title" title="Not your request" text="Only the agent who posted this request can edit or delete it." />;
}

function ErrorMessage({ id, title, text }: { id: string; title: string; text: string }) {
  return (
    <section className="mx-auto max-w-xl px-4 pt-16 pb-4 text-center sm:pt-24" aria-labelledby={id}>
      <h1 id={id} className="text-3xl font-extrabold tracking-tight text-slate-900">
        {title}
      </h1>
      <p className="mt-4 text-lg text-slate-600">{text}</p>
      <Link to="/referral-requests" className="btn-primary mt-8 px-6 py-3 text-base">
        Back to Requests
      </Link>
    </section>
  );
}
