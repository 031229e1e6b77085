import { specialtiesSummary } from "~/domain/member-profile";

const badgeClass = "rounded-full bg-brand-50 px-3 py-1 text-sm font-semibold text-brand-800";

/**
 * A profile's specialties: the first three, then "+N more" (docs/product.md#profiles-and-directories), which opens to show
 * the rest. A `<details>` element, so it opens without JavaScript.
 */
export function AgentSpecialtyList({ specialties }: { specialties: readonly string[] }) {
  const { shown, more } = specialtiesSummary(specialties);
  if (shown.length === 0) return <p className="text-slate-500">Not specified</p>;
  const rest = specialties.slice(shown.length);
  return (
    <div className="flex flex-wrap items-start gap-2">
      <ul className="contents">
        {shown.map((specialty) => (
          <li key={specialty} className={badgeClass}>
            {specialty}
          </li>
        ))}
      </ul>
      {more > 0 ? (
        <details className="group open:basis-full">
          <summary className="cursor-pointer rounded-full bg-slate-100 px-3 py-1 text-sm font-semibold text-slate-700 hover:bg-slate-200 group-open:hidden">
            +{more} more
          </summary>
          <ul className="flex flex-wrap gap-2">
            {rest.map((specialty) => (
              <li key={specialty} className={badgeClass}>
                {specialty}
              </li>
            ))}
          </ul>
        </details>
      ) : null}
    </div>
  );
}
