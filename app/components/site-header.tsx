import { Link, NavLink } from "@remix-run/react";
import { PRODUCT_NAME, WHY_PATH } from "~/domain/product";

type Props = { loggedIn: boolean };

const navLinkClass = ({ isActive }: { isActive: boolean }) =>
  `rounded-md px-3 py-2 text-sm font-medium ${isActive ? "text-brand-700" : "text-slate-700 hover:text-brand-700"}`;

export function SiteHeader({ loggedIn }: Props) {
  return (
    <header className="sticky top-0 z-30 border-b border-slate-200 bg-white/95 backdrop-blur">
      <div className="mx-auto flex h-16 max-w-6xl items-center justify-between gap-4 px-4">
        <Link to="/" className="flex items-center gap-2 text-lg font-extrabold text-brand-800">
          <span aria-hidden="true" className="grid h-8 w-8 place-items-center rounded-lg bg-brand-700 text-sm text-white">
            RR
          </span>
          {PRODUCT_NAME}
        </Link>

        <nav aria-label="Main" className="hidden items-center gap-1 md:flex">
          {loggedIn ? (
            <NavLink to="/member-dashboard" className={navLinkClass}>
              Dashboard
            </NavLink>
          ) : null}
          <NavLink to={WHY_PATH} className={navLinkClass}>
            Why {PRODUCT_NAME}
          </NavLink>
          <NavLink to="/contact" className={navLinkClass}>
            Support
          </NavLink>
          <NavLink to="/member-login" className={navLinkClass}>
            Member Login
          </NavLink>
          <Link to="/register" className="btn-accent ml-2">
            Join FREE
          </Link>
        </nav>

        {/* <details> opens and closes without JavaScript. */}
        <details className="group relative md:hidden">
          <summary
            className="grid h-11 w-11 cursor-pointer place-items-center rounded-lg border border-slate-300 text-slate-800"
            aria-label="Menu"
          >
            <svg aria-hidden="true" viewBox="0 0 24 24" className="h-6 w-6 group-open:hidden" fill="none" stroke="currentColor" strokeWidth="2">
              <path d="M4 6h16M4 12h16M4 18h16" />
            </svg>
            <svg aria-hidden="true" viewBox="0 0 24 24" className="hidden h-6 w-6 group-open:block" fill="none" stroke="currentColor" strokeWidth="2">
              <path d="M6 6l12 12M18 6L6 18" />
            </svg>
          </summary>
          <nav
            aria-label="Mobile"
            className="absolute right-0 mt-2 flex w-64 flex-col gap-1 rounded-xl border border-slate-200 bg-white p-3 shadow-lg"
          >
            {loggedIn ? (
              <Link to="/member-dashboard" className="rounded-md px-3 py-3 font-medium text-slate-800 hover:bg-slate-100">
                Dashboard
              </Link>
            ) : null}
            <Link to={WHY_PATH} className="rounded-md px-3 py-3 font-medium text-slate-800 hover:bg-slate-100">
              Why {PRODUCT_NAME}
            </Link>
            <Link to="/contact" className="rounded-md px-3 py-3 font-medium text-slate-800 hover:bg-slate-100">
              Support
            </Link>
            <Link to="/member-login" className="rounded-md px-3 py-3 font-medium text-slate-800 hover:bg-slate-100">
              Member Login
            </Link>
            <Link to="/register" className="btn-accent mt-1">
              Join FREE
            </Link>
          </nav>
        </details>
      </div>
    </header>
  );
}
