import { Link } from "@remix-run/react";
import type { ComponentType } from "react";
import { REQUEST_TYPE_TITLES } from "~/domain/referral-requests/labels";
import type { RequestType } from "~/domain/enums";
import type { DashboardTiles as TileCounts } from "~/domain/request-views";
import { HandshakeIcon, TrendingUpIcon, UsersIcon } from "./icons";
import { HomeIcon } from "./dashboard-icons";

const REQUEST_TILES: { type: RequestType; caption: string; icon: ComponentType<{ className?: string }>; tone: string }[] = [
  { type: "referral", caption: "live referral requests", icon: HandshakeIcon, tone: "bg-brand-50 text-brand-700" },
  { type: "listing", caption: "listings looking for buyers", icon: HomeIcon, tone: "bg-amber-50 text-amber-700" },
  { type: "buyer", caption: "buyers needing an agent", icon: TrendingUpIcon, tone: "bg-green-50 text-green-700" },
];

/** The dashboard's four tiles: live request counts by type with Post New, and the member database. */
export function DashboardTiles({ tiles }: { tiles: TileCounts }) {
  return (
    <section aria-label="Network at a glance" className="grid grid-cols-2 gap-3 sm:gap-4 lg:grid-cols-4">
      {REQUEST_TILES.map(({ type, caption, icon: Icon, tone }) => (
        <div key={type} className="card flex flex-col gap-3 p-4 sm:p-5">
          <div className="flex items-start justify-between gap-3">
            <h2 className="text-sm font-bold text-slate-900 sm:text-base">{REQUEST_TYPE_TITLES[type]}</h2>
            <span className={`hidden h-10 w-10 shrink-0 place-items-center rounded-lg sm:grid ${tone}`}>
              <Icon className="h-5 w-5" />
            </span>
          </div>
          <p>
            <span className="text-3xl font-extrabold text-slate-900">{tiles[type]}</span>
            <span className="block text-sm text-slate-600 sm:ml-2 sm:inline">{caption}</span>
          </p>
          <Link
            to={`/post-request?type=${type}`}
            className="btn-outline mt-auto px-3"
            aria-label={`Post New: ${REQUEST_TYPE_TITLES[type]}`}
          >
            Post New
          </Link>
        </div>
      ))}
      <div className="card flex flex-col gap-3 p-4 sm:p-5">
        <div className="flex items-start justify-between gap-3">
          <h2 className="text-sm font-bold text-slate-900 sm:text-base">Member Database</h2>
          <span className="hidden h-10 w-10 shrink-0 place-items-center rounded-lg bg-slate-100 text-slate-700 sm:grid">
            <UsersIcon className="h-5 w-5" />
          </span>
        </div>
        <p>
          <span className="text-3xl font-extrabold text-slate-900">{tiles.agents}</span>
          <span className="block text-sm text-slate-600 sm:ml-2 sm:inline">verified agents</span>
        </p>
        <Link to="/directory" className="btn-primary mt-auto px-3">
          Browse Directory
        </Link>
      </div>
    </section>
  );
}
