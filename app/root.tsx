// Before anything that builds a zod schema: see the module.
import "./domain/zod-config";
import type { LinksFunction, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Links, Meta, Outlet, Scripts, ScrollRestoration, isRouteErrorResponse, useMatches, useRouteLoaderData } from "@remix-run/react";
import type { ReactNode } from "react";
import { GeneralErrorBoundary } from "./components/error-boundary";
import { siteStatusHandlers } from "./components/error-screens";
import { useNonce } from "./components/nonce";
import { SiteFooter } from "./components/site-footer";
import { SiteHeader } from "./components/site-header";
import { APPLE_TOUCH_ICON, MANIFEST_PATH, THEME_COLOR } from "./domain/app-manifest";
import { pageLoadsScripts } from "./domain/page-scripts";
import { isWellFormedPath } from "./domain/redirect";
import { PRODUCT_NAME } from "./domain/product";
import { getMember } from "./server/auth/session.server";
import { unlessUnavailable, unreadTotal } from "./server/messages/conversations.server";
import { openReferralCount } from "./server/referrals/overview.server";
import stylesheet from "./tailwind.css?url";

export const links: LinksFunction = () => [
  { rel: "stylesheet", href: stylesheet },
  { rel: "icon", href: "/favicon.svg", type: "image/svg+xml" },
  { rel: "manifest", href: MANIFEST_PATH },
  { rel: "apple-touch-icon", href: APPLE_TOUCH_ICON },
];

/**
 * The title of the error screens the root boundary draws; the failed route's own meta
 * does not run, and a page without a title is nameless to screen readers and tabs.
 */
export const meta: MetaFunction = ({ error }) => {
  if (!error) return [];
  const notFound = isRouteErrorResponse(error) && error.status === 404;
  return [{ title: `${notFound ? "Page not found" : "Something went wrong"} | ${PRODUCT_NAME}` }];
};

/** Who is logged in, how many messages wait for them and how many referrals are open, for the header; every page gets it, so it carries only that. */
export async function loader({ request, context }: LoaderFunctionArgs) {
  if (!isWellFormedPath(new URL(request.url).pathname)) throw new Response("Bad Request", { status: 400 });
  const member = await getMember(request, context);
  return {
    member: member ? { fullName: member.fullName } : null,
    // Null while the database holding the messages is out of reach: every other part of the page serves.
    unreadMessages: member ? await unlessUnavailable(unreadTotal(context.services, member)) : 0,
    openReferrals: member ? openReferralCount(context.services, member) : 0,
  };
}

/**
 * The header's unread count (null: unknown for a moment). A page that changes it while
 * loading (opening a thread marks it read) returns its own `unreadMessages`, which wins over
 * the root loader's: loaders run side by side, so the root may have counted before the thread
 * was marked.
 */
function useUnreadMessages(): number | null {
  const matches = useMatches();
  for (const match of [...matches].reverse()) {
    const count = (match.data as { unreadMessages?: unknown } | null | undefined)?.unreadMessages;
    if (typeof count === "number" || count === null) return count;
  }
  return 0;
}

export function Layout({ children }: { children: ReactNode }) {
  const nonce = useNonce();
  // Undefined when the root loader itself failed and the error screen renders: shown as logged out.
  const rootData = useRouteLoaderData<typeof loader>("root");
  const unreadMessages = useUnreadMessages();
  const matches = useMatches();
  // In the browser the scripts already run: a page reached by a client-side link keeps them.
  const loadsScripts = typeof document !== "undefined" || pageLoadsScripts(matches, Boolean(rootData?.member));
  return (
    <html lang="en">
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="theme-color" content={THEME_COLOR} />
        <Meta />
        <Links />
      </head>
      <body className="flex min-h-screen flex-col">
        <a
          href="#main"
          className="sr-only z-50 rounded-md bg-white px-4 py-2 font-semibold text-brand-800 focus:not-sr-only focus:fixed focus:left-4 focus:top-4"
        >
          Skip to main content
        </a>
        <SiteHeader loggedIn={Boolean(rootData?.member)} unreadMessages={unreadMessages} openReferrals={rootData?.openReferrals ?? 0} />
        <main id="main" tabIndex={-1} className="flex-1 focus:outline-none">
          {children}
        </main>
        <SiteFooter />
        {loadsScripts && (
          <>
            <ScrollRestoration nonce={nonce} />
            <Scripts nonce={nonce} />
          </>
        )}
      </body>
    </html>
  );
}

export default function App() {
  return <Outlet />;
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary statusHandlers={siteStatusHandlers} />;
}
