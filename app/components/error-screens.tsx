import { Link, useLocation } from "@remix-run/react";
import type { ReactNode } from "react";

function ErrorPanel({ titleId, badge, children }: { titleId: string; badge: ReactNode; children: ReactNode }) {
  return (
    <section className="mx-auto max-w-xl px-4 pt-16 pb-4 text-center sm:pt-24" aria-labelledby={titleId}>
      <div aria-hidden="true" className="mx-auto grid h-20 w-20 place-items-center rounded-full bg-white text-brand-700 shadow-sm ring-1 ring-slate-200">
        {badge}
      </div>
      {children}
    </section>
  );
}

export function GenericErrorScreen() {
  const location = useLocation();
  return (
    <ErrorPanel
      titleId="error-title"
      badge={
        <svg viewBox="0 0 24 24" className="h-9 w-9 text-amber-600" fill="none" stroke="currentColor" strokeWidth="1.8" strokeLinecap="round" strokeLinejoin="round">
          <path d="M12 4l9 16H3z" />
          <path d="M12 10v4M12 17h.01" />
        </svg>
      }
    >
      <h1 id="error-title" className="mt-8 text-3xl font-extrabold tracking-tight text-slate-900">Something went wrong</h1>
      <p className="mt-4 text-lg text-slate-600">We encountered an unexpected error. Please try refreshing the page.</p>
      {/* A link to the same address reloads the page with or without JavaScript. */}
      <a href={location.pathname + location.search} className="btn-primary mt-8 px-6 py-3 text-base">
        Refresh Page
      </a>
    </ErrorPanel>
  );
}

export function NotFoundScreen() {
  return (
    <ErrorPanel titleId="not-found-title" badge={<span className="text-2xl font-extrabold">404</span>}>
      <h1 id="not-found-title" className="mt-8 text-3xl font-extrabold tracking-tight text-slate-900">Page not found</h1>
      <p className="mt-4 text-lg text-slate-600">The page you are looking for does not exist or has moved.</p>
      <div className="mt-8 flex flex-col justify-center gap-3 sm:flex-row">
        <Link to="/" className="btn-primary px-6 py-3 text-base">Back to Home</Link>
        <Link to="/contact" className="btn-outline px-6 py-3 text-base">Contact Support</Link>
      </div>
    </ErrorPanel>
  );
}

/** An address the server could not read (a broken percent escape): reloading it cannot help, so no Refresh button. */
export function BadAddressScreen() {
  return (
    <ErrorPanel titleId="bad-address-title" badge={<span className="text-2xl font-extrabold">400</span>}>
      <h1 id="bad-address-title" className="mt-8 text-3xl font-extrabold tracking-tight text-slate-900">This address is not valid</h1>
      <p className="mt-4 text-lg text-slate-600">The link you followed is damaged. Please check it, or start again from the home page.</p>
      <div className="mt-8 flex flex-col justify-center gap-3 sm:flex-row">
        <Link to="/" className="btn-primary px-6 py-3 text-base">Back to Home</Link>
      </div>
    </ErrorPanel>
  );
}
