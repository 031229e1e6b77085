/** The number of unread messages, for the header, the conversation list and the dashboard; nothing when there are none. */
export function UnreadBadge({ count, className = "" }: { count: number; className?: string }) {
  if (count <= 0) return null;
  return (
    <span
      className={`inline-grid h-5 min-w-5 shrink-0 place-items-center rounded-full bg-accent-500 px-1.5 text-xs font-bold text-slate-900 ${className}`}
    >
      {count > 99 ? "99+" : count}
      <span className="sr-only"> unread</span>
    </span>
  );
}
