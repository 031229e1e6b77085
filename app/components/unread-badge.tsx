import { MESSAGES_UNAVAILABLE } from "~/domain/messages";

/** A count in a pill, read as "3 unread" or "2 open"; nothing when it is zero. `className` gives its colours. */
export function CountBadge({ count, what, className }: { count: number; what: string; className: string }) {
  if (count <= 0) return null;
  return (
    <span className={`inline-grid h-5 min-w-5 shrink-0 place-items-center rounded-full px-1.5 text-xs font-bold ${className}`}>
      {count > 99 ? "99+" : count}
      <span className="sr-only"> {what}</span>
    </span>
  );
}

/** The number of unread messages, for the header, the conversation list and the dashboard. */
export function UnreadBadge({ count, className = "" }: { count: number; className?: string }) {
  return <CountBadge count={count} what="unread" className={`bg-accent-500 text-slate-900 ${className}`} />;
}

/** In place of the count while the messages are out of reach: a dash, read as the reason. */
export function UnknownUnreadBadge({ className = "" }: { className?: string }) {
  return (
    <span
      title={MESSAGES_UNAVAILABLE}
      className={`inline-grid h-5 min-w-5 shrink-0 place-items-center rounded-full bg-slate-200 px-1.5 text-xs font-bold text-slate-600 ${className}`}
    >
      <span aria-hidden="true">–</span>
      <span className="sr-only"> (unread count unavailable for a moment)</span>
    </span>
  );
}
