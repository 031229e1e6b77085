import { Form, Link, NavLink, useLocation } from "@remix-run/react";
import { useEffect, useRef } from "react";
import { CloseIcon, LogoMark, MenuIcon } from "~/components/icons";
import { PRODUCT_NAME, WHY_PATH } from "~/domain/product";
import { CountBadge, UnknownUnreadBadge, UnreadBadge } from "./unread-badge";

/** `unreadMessages` is null while the database holding the messages is out of reach. */
type Props = { loggedIn: boolean; unreadMessages: number | null; openReferrals: number };

const navLinkClass = ({ isActive }: { isActive: boolean }) =>
  `rounded-md px-3 py-2 text-sm font-semibold transition-colors ${
    isActive ? "bg-brand-50 text-brand-800" : "text-slate-700 hover:bg-slate-100 hover:text-brand-800"
  }`;

const mobileLinkClass = ({ isActive }: { isActive: boolean }) =>
  `flex items-center rounded-lg px-3 py-3 text-base font-semibold ${
    isActive ? "bg-brand-50 text-brand-800" : "text-slate-800 hover:bg-slate-100"
  }`;

export function SiteHeader({ loggedIn, unreadMessages, openReferrals }: Props) {
  const menu = useRef<HTMLDetailsElement>(null);
  const { pathname } = useLocation();

  // A client-side navigation keeps the document, so the open menu would stay open over the new page.
  useEffect(() => {
    if (menu.current) menu.current.open = false;
  }, [pathname]);

  return (
    <header className="print:hidden sticky top-0 z-30 border-b border-slate-200/80 bg-white/95 backdrop-blur supports-[backdrop-filter]:bg-white/85">
      <div className="mx-auto flex h-16 max-w-6xl items-center justify-between gap-4 px-4 sm:px-6">
        <Link to="/" className="flex items-center gap-2.5 rounded-lg text-lg font-extrabold tracking-tight text-slate-900">
          <LogoMark />
          <span>{PRODUCT_NAME}</span>
        </Link>

        {/* Six links fit on one line from 1024 px; narrower screens get the menu. */}
        <nav aria-label="Main" className="hidden items-center gap-1 whitespace-nowrap lg:flex">
          <NavItems
            loggedIn={loggedIn}
            unreadMessages={unreadMessages}
            openReferrals={openReferrals}
            linkClass={navLinkClass}
            logoutClass="ml-2 rounded-md px-3 py-2 text-sm font-semibold text-slate-700 hover:bg-slate-100 hover:text-brand-800"
            joinClass="btn-accent ml-2"
          />
        </nav>

        {/* <details> opens and closes without JavaScript. */}
        <details ref={menu} className="group relative lg:hidden">
          <summary
            className="grid h-11 w-11 cursor-pointer place-items-center rounded-lg border border-slate-300 bg-white text-slate-800 hover:bg-slate-50 group-open:border-brand-600 group-open:text-brand-800"
            aria-label="Menu"
          >
            <MenuIcon className="h-6 w-6 group-open:hidden" />
            <CloseIcon className="hidden h-6 w-6 group-open:block" />
            {loggedIn && unreadMessages !== null && unreadMessages > 0 ? (
              <span aria-hidden="true" className="absolute -top-1 -right-1 h-3 w-3 rounded-full bg-accent-500 ring-2 ring-white" />
            ) : null}
          </summary>
          <nav
            aria-label="Mobile"
            className="absolute right-0 mt-3 flex w-[min(18rem,calc(100vw-2rem))] flex-col gap-1 rounded-2xl border border-slate-200 bg-white p-3 shadow-xl ring-1 ring-slate-900/5"
          >
            <NavItems
              loggedIn={loggedIn}
              unreadMessages={unreadMessages}
              openReferrals={openReferrals}
              linkClass={mobileLinkClass}
              logoutClass="flex w-full items-center rounded-lg px-3 py-3 text-left text-base font-semibold text-slate-800 hover:bg-slate-100"
              joinClass="btn-accent mt-2 py-3 text-base"
            />
          </nav>
        </details>
      </div>
    </header>
  );
}

type NavItemsProps = Props & {
  linkClass: (state: { isActive: boolean }) => string;
  logoutClass: string;
  joinClass: string;
};

/** The header's links, the same on wide screens and in the phone menu; only their styles differ. */
function NavItems({ loggedIn, unreadMessages, openReferrals, linkClass, logoutClass, joinClass }: NavItemsProps) {
  return (
    <>
      {loggedIn ? (
        <>
          <NavLink to="/member-dashboard" className={linkClass}>
            Dashboard
          </NavLink>
          <NavLink to="/referrals" end className={linkClass}>
            My Referrals
            <CountBadge className="ml-1.5 bg-brand-100 text-brand-800" count={openReferrals} what="open" />
          </NavLink>
          <NavLink to="/messages" className={linkClass}>
            Messages
            {unreadMessages === null ? (
              <UnknownUnreadBadge className="ml-1.5" />
            ) : (
              <UnreadBadge className="ml-1.5" count={unreadMessages} />
            )}
          </NavLink>
        </>
      ) : null}
      <NavLink to={WHY_PATH} className={linkClass}>
        Why {PRODUCT_NAME}
      </NavLink>
      <NavLink to="/contact" className={linkClass}>
        Support
      </NavLink>
      {loggedIn ? (
        <LogoutButton className={logoutClass} />
      ) : (
        <>
          <NavLink to="/member-login" className={linkClass}>
            Member Login
          </NavLink>
          <Link to="/register" className={joinClass}>
            Join FREE
          </Link>
        </>
      )}
    </>
  );
}

/** Logging out changes state, so it is a POST, never a link a prefetch or a crawler could follow. */
function LogoutButton({ className }: { className: string }) {
  return (
    <Form method="post" action="/logout">
      <button type="submit" className={className}>
        Logout
      </button>
    </Form>
  );
}
