/**
 * Which pages load the browser's scripts (decision 0085). A public page that works whole as
 * the server draws it says so in its route's `handle`; a logged-out visitor then gets it with
 * no script at all (nothing to download, nothing to hydrate), as the page cache serves it. A
 * member gets every page with its scripts, as before.
 */
export const NO_SCRIPTS_FOR_VISITORS = { scriptsForVisitors: false } as const;

function saysNoScripts(handle: unknown): boolean {
  return typeof handle === "object" && handle !== null && (handle as { scriptsForVisitors?: unknown }).scriptsForVisitors === false;
}

/** True unless a visitor opens a page whose every route (the root aside) does without scripts. */
export function pageLoadsScripts(routes: ReadonlyArray<{ id: string; handle?: unknown }>, loggedIn: boolean): boolean {
  if (loggedIn) return true;
  const pageRoutes = routes.filter((route) => route.id !== "root");
  return pageRoutes.length === 0 || !pageRoutes.every((route) => saysNoScripts(route.handle));
}
