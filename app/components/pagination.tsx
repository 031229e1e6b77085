import { Link, useLocation } from "@remix-run/react";
import { pageLinkNumbers } from "~/domain/directory-search";

/** The current address with another page number in `param`; the first page has no such parameter. */
export function pageHref(pathname: string, search: string, page: number, param = "page"): string {
  const params = new URLSearchParams(search);
  if (page === 1) params.delete(param);
  else params.set(param, String(page));
  const query = params.toString();
  return query ? `${pathname}?${query}` : pathname;
}

const itemClass = "grid h-10 min-w-10 place-items-center rounded-lg px-3 text-sm font-semibold";

/** Page links that keep the page's other query parameters (filters, search), so every page is a shareable URL. */
export function Pagination({
  page,
  pageCount,
  label = "Pages",
  className = "mt-10",
}: {
  page: number;
  pageCount: number;
  label?: string;
  /** Spacing around the links: a page's foot by default, tighter inside a panel. */
  className?: string;
}) {
  const { pathname, search } = useLocation();
  if (pageCount <= 1) return null;
  return (
    <nav aria-label={label} className={`${className} flex flex-wrap items-center justify-center gap-1.5`}>
      {page > 1 ? (
        <Link to={pageHref(pathname, search, page - 1)} rel="prev" className="btn-outline">
          Previous
        </Link>
      ) : null}
      <ol className="flex flex-wrap items-center gap-1.5">
        {pageLinkNumbers(page, pageCount).map((number, i) =>
          number === null ? (
            <li key={`gap-${i}`} aria-hidden="true" className="px-1 text-slate-500">
              …
            </li>
          ) : (
            <li key={number}>
              {number === page ? (
                <span aria-current="page" className={`${itemClass} bg-brand-700 text-white`}>
                  <span className="sr-only">Page </span>
                  {number}
                </span>
              ) : (
                <Link
                  to={pageHref(pathname, search, number)}
                  className={`${itemClass} border border-slate-300 bg-white text-slate-800 hover:bg-slate-100`}
                >
                  <span className="sr-only">Page </span>
                  {number}
                </Link>
              )}
            </li>
          ),
        )}
      </ol>
      {page < pageCount ? (
        <Link to={pageHref(pathname, search, page + 1)} rel="next" className="btn-outline">
          Next
        </Link>
      ) : null}
    </nav>
  );
}
