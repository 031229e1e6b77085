import { Link, useLocation } from "@remix-run/react";

export function GenericErrorScreen() {
  const location = useLocation();
  return (
    <section className="mx-auto max-w-lg px-4 py-20 text-center" aria-labelledby="error-title">
      <h1 id="error-title" className="text-3xl font-bold">Something went wrong</h1>
      <p className="mt-4 text-slate-600">We encountered an unexpected error. Please try refreshing the page.</p>
      {/* A link to the same address reloads the page with or without JavaScript. */}
      <a href={location.pathname + location.search} className="btn-primary mt-8">
        Refresh Page
      </a>
    </section>
  );
}

export function NotFoundScreen() {
  return (
    <section className="mx-auto max-w-lg px-4 py-20 text-center" aria-labelledby="not-found-title">
      <p className="text-sm font-semibold text-brand-700">404</p>
      <h1 id="not-found-title" className="mt-2 text-3xl font-bold">Page not found</h1>
      <p className="mt-4 text-slate-600">The page you are looking for does not exist or has moved.</p>
      <div className="mt-8 flex flex-wrap justify-center gap-3">
        <Link to="/" className="btn-primary">Back to Home</Link>
        <Link to="/contact" className="btn-outline">Contact Support</Link>
      </div>
    </section>
  );
}
