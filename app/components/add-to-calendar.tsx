/**
 * "Add to calendar": a plain link to a calendar file (`.ics`), which the browser saves or
 * hands to the calendar app, with scripts or without. `what` tells a screen reader which
 * date it is when a page has several.
 */
export function AddToCalendar({ href, what }: { href: string; what: string }) {
  return (
    <a href={href} download className="inline-flex items-center text-sm font-semibold text-brand-700 hover:underline">
      Add to calendar<span className="sr-only"> ({what})</span>
    </a>
  );
}
