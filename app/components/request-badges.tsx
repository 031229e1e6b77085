import type { RequestView } from "~/domain/request-views";

type BadgeFields = Pick<RequestView, "isNew" | "urgent">;

/** NEW (under 24 hours) and URGENT; nothing when neither applies. */
export function RequestBadges({ request }: { request: BadgeFields }) {
  if (!request.isNew && !request.urgent) return null;
  return (
    <div className="flex flex-wrap items-center gap-1.5">
      {request.isNew ? <span className="rounded-md bg-green-700 px-2 py-0.5 text-xs font-bold tracking-wide text-white">NEW</span> : null}
      {request.urgent ? <span className="rounded-md bg-red-600 px-2 py-0.5 text-xs font-bold tracking-wide text-white">URGENT</span> : null}
    </div>
  );
}

/** The request's tags; the first, its type, stands out. */
export function RequestTags({ tags }: { tags: readonly string[] }) {
  return (
    <ul aria-label="Tags" className="flex flex-wrap gap-1.5">
      {tags.map((tag, index) => (
        // A location and a specialty may read the same; the position keeps keys apart.
        <li
          key={`${index}-${tag}`}
          className={`rounded-full px-2.5 py-0.5 text-xs ${index === 0 ? "bg-brand-50 font-semibold text-brand-800 ring-1 ring-brand-100" : "bg-slate-100 font-medium text-slate-700"}`}
        >
          {tag}
        </li>
      ))}
    </ul>
  );
}

export function ExpiryNotice({ notice }: { notice: string | null }) {
  return notice ? (
    <span className="ml-auto rounded-full bg-amber-100 px-2.5 py-0.5 text-xs font-semibold text-amber-900">{notice}</span>
  ) : null;
}
