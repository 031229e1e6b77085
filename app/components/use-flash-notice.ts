import { useLocation } from "@remix-run/react";
import { useState } from "react";

/**
 * The one-time notice the page's loader took from the flash cookie (docs/decisions/0064),
 * kept for as long as this visit of the page lasts. With JavaScript the page's data is loaded
 * again without a navigation (live updates, another form's post on the page), and that load
 * finds the notice already taken; a new navigation, even to the same address, starts afresh.
 */
export function useFlashNotice(loaded: string | null): string | null {
  const { key } = useLocation();
  const [kept, setKept] = useState({ key, notice: loaded });
  const current = key !== kept.key || loaded !== null ? { key, notice: loaded } : kept;
  if (current.key !== kept.key || current.notice !== kept.notice) setKept(current);
  return current.notice;
}
