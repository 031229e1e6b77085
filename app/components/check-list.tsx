import { CheckIcon } from "./icons";

/** A list of benefits, each with a green tick. */
export function CheckList({ items, label, className = "space-y-3" }: { items: readonly string[]; label: string; className?: string }) {
  return (
    <ul className={className} aria-label={label}>
      {items.map((item) => (
        <li key={item} className="flex gap-3 text-sm text-slate-700">
          <span className="grid h-5 w-5 shrink-0 place-items-center rounded-full bg-green-100 text-green-700">
            <CheckIcon className="h-3.5 w-3.5" strokeWidth={2.6} />
          </span>
          {item}
        </li>
      ))}
    </ul>
  );
}
