import { Link } from "@remix-run/react";
import { UsersIcon } from "~/components/icons";

/** The directories' empty state: "No agents found". */
export function EmptyResults({ clearHref }: { clearHref: string }) {
  return (
    <div className="card mt-4 flex flex-col items-center px-6 py-12 text-center">
      <span aria-hidden="true" className="grid h-14 w-14 place-items-center rounded-full bg-slate-100 text-slate-500">
        <UsersIcon className="h-7 w-7" />
      </span>
      <h3 className="mt-4 text-lg font-bold text-slate-900">No agents found</h3>
      <p className="mt-1 text-slate-600">Try another search or fewer filters.</p>
      <Link to={clearHref} className="btn-outline mt-5">
        Clear all filters
      </Link>
      <p className="mt-4 text-sm text-slate-600">
        Know an agent who should be here?{" "}
        <Link to="/invite" className="font-semibold text-brand-700 underline">
          Invite a colleague
        </Link>
      </p>
    </div>
  );
}
