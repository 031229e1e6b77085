import type { ErrorResponse } from "@remix-run/react";
import { Link, useLocation } from "@remix-run/react";
import type { ReactNode } from "react";

/** What an error boundary draws for one status of a thrown Response. */
export type StatusHandler = (error: ErrorResponse) => ReactNode;

/** Every error page's layout: a round badge, the title, one sentence, and the ways on. */
export function ErrorPanel({
  titleId,
  badge,
  title,
  text,
  children,
}: {
  titleId: string;
  badge: ReactNode;
  title: string;
  text: string;
  children: ReactNode;
}) {
  return (
    <section className="mx-auto max-w-xl px-4 pt-16 pb-4 text-center sm:pt-24" aria-labelledby={titleId}>
      <div
        aria-hidden="true"
        className="mx-auto grid h-20 w-20 place-items-center rounded-full bg-white text-brand-700 shadow-sm ring-1 ring-slate-200"
      >
        {badge}
      </div>
      <h1 id={titleId} className="mt-8 text-3xl font-extrabold tracking-tight text-slate-900">
        {title}
      </h1>
      <p className="mt-4 text-lg text-slate-600">{text}</p>
      <div className="mt-8 flex flex-col items-center justify-center gap-3 sm:flex-row">{children}</div>
    </section>
  );
}

export function StatusBadge({ status }: { status: number }) {
  return <span className="text-2xl font-extrabold">{status}</span>;
}

export function GenericErrorScreen() {
  const location = useLocation();
  return (
    <ErrorPanel
      titleId="error-title"
      badge={
        <svg
          viewBox="0 0 24 24"
          className="h-9 w-9 text-amber-600"
          fill="none"
          stroke="currentColor"
          strokeWidth="1.8"
          strokeLinecap="round"
          strokeLinejoin="round"
        >
          <path d="M12 4l9 16H3z" />
          <path d="M12 10v4M12 17h.01" />
        </svg>
      }
      title="Something went wrong"
      text="We encountered an unexpected error. Please try refreshing the page."
    >
      {/* A link to the same address reloads the page with or without JavaScript. */}
      <a href={location.pathname + location.search} className="btn-primary px-6 py-3 text-base">
        Refresh Page
      </a>
    </ErrorPanel>
  );
}

function NotFoundScreen() {
  return (
    <ErrorPanel
      titleId="not-found-title"
      badge={<StatusBadge status={404} />}
      title="Page not found"
      text="The page you are looking for does not exist or has moved."
    >
      <Link to="/" className="btn-primary px-6 py-3 text-base">
        Back to Home
      </Link>
      <Link to="/contact" className="btn-outline px-6 py-3 text-base">
        Contact Support
      </Link>
    </ErrorPanel>
  );
}

/** An address the server could not read (a broken percent escape): reloading it cannot help, so no Refresh button. */
function BadAddressScreen() {
  return (
    <ErrorPanel
      titleId="bad-address-title"
      badge={<StatusBadge status={400} />}
      title="This address is not valid"
      text="The link you followed is damaged. Please check it, or start again from the home page."
    >
      <Link to="/" className="btn-primary px-6 py-3 text-base">
        Back to Home
      </Link>
    </ErrorPanel>
  );
}

/** The statuses every page may answer with; the root's boundary draws these. */
export const siteStatusHandlers: Record<number, StatusHandler> = {
  400: () => <BadAddressScreen />,
  404: () => <NotFoundScreen />,
};

function BackToRequests() {
  return (
    <Link to="/referral-requests" className="btn-primary px-6 py-3 text-base">
      Back to Requests
    </Link>
  );
}

/** The request pages' errors: a 404 says the request does not exist, a 403 whose request it is. */
export const requestStatusHandlers: Record<number, StatusHandler> = {
  404: () => (
    <ErrorPanel
      titleId="not-found-title"
      badge={<StatusBadge status={404} />}
      title="Request not found"
      text="This request does not exist or has been removed."
    >
      <BackToRequests />
    </ErrorPanel>
  ),
  403: () => (
    <ErrorPanel
      titleId="forbidden-title"
      badge={<StatusBadge status={403} />}
      title="Not your request"
      text="Only the agent who posted this request can edit or delete it."
    >
      <BackToRequests />
    </ErrorPanel>
  ),
};

/** The messages page's 404: the conversation is gone or belongs to others, and the way back is the inbox. */
export const conversationStatusHandlers: Record<number, StatusHandler> = {
  404: () => (
    <ErrorPanel
      titleId="not-found-title"
      badge={<StatusBadge status={404} />}
      title="Conversation not found"
      text="This conversation does not exist or is not one of yours."
    >
      <Link to="/messages" className="btn-primary px-6 py-3 text-base">
        Back to Messages
      </Link>
    </ErrorPanel>
  ),
};
