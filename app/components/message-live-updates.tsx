import { useNavigation, useRevalidator } from "@remix-run/react";
import { useEffect, useRef, useState } from "react";

/** Several messages arriving together cause one reload of the page's data. */
const SETTLE_MS = 150;

/**
 * While the page is open with JavaScript, listens to the server's message events and
 * reloads the page's data (list, thread, unread counts) when a message to or from the
 * member arrives. `since` is the newest message time the page shows, so the server can
 * say at once if one arrived before the connection opened.
 *
 * A reload waits for a navigation under way (the redirect after Send) to end: started during
 * it, the router would cut the navigation's load short and load again, and the load cut short
 * may already have taken the page's one-time notice (docs/decisions/0064).
 */
export function useLiveMessages(since: string): void {
  const revalidator = useRevalidator();
  const revalidate = useRef(revalidator.revalidate);
  revalidate.current = revalidator.revalidate;
  const idle = useNavigation().state === "idle";
  const [changed, setChanged] = useState(false);

  useEffect(() => {
    if (typeof EventSource === "undefined") return;
    const source = new EventSource(`/messages/events?${new URLSearchParams({ since })}`);
    let timer: ReturnType<typeof setTimeout> | undefined;
    source.addEventListener("change", () => {
      clearTimeout(timer);
      timer = setTimeout(() => setChanged(true), SETTLE_MS);
    });
    return () => {
      clearTimeout(timer);
      source.close();
    };
  }, [since]);

  useEffect(() => {
    if (!changed || !idle) return;
    setChanged(false);
    revalidate.current();
  }, [changed, idle]);
}
