import { useSyncExternalStore } from "react";

const neverChanges = () => () => {};

/**
 * True once React runs in the browser. The server's page and the hydrating render say
 * false, so they match; a component mounted later (a client-side navigation) says true
 * from its first render, so it never flashes the no-JavaScript form of the page.
 */
export function useHydrated(): boolean {
  return useSyncExternalStore(
    neverChanges,
    () => true,
    () => false,
  );
}
