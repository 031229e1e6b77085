import { Link } from "@remix-run/react";
import { viewAllReferralsLabel } from "~/domain/count-labels";
import type { DashboardReferrals } from "~/domain/referrals/overview";
import { HandshakeIcon } from "./icons";
import { ReferralFigures, ReferralRows } from "./referral-rows";

/** The dashboard's My referrals card: the fees and the newest open referrals, each a link to its page. */
export function DashboardReferralsCard({ total, totals, open }: DashboardReferrals) {
  return (
    <section className="card space-y-4" aria-labelledby="dashboard-referrals-title">
      <h2 id="dashboard-referrals-title" className="flex items-center gap-2 text-lg font-bold text-slate-900">
        <HandshakeIcon className="h-5 w-5 text-brand-700" />
        My Referrals
      </h2>
      {total === 0 ? (
        <p className="text-slate-600">
          No referrals yet. Propose one from a response to your request, and follow the deal here to the fee.
        </p>
      ) : (
        <>
          <ReferralFigures totals={totals} />
          {open.length > 0 ? <ReferralRows referrals={open} /> : <p className="text-slate-600">No open referrals.</p>}
        </>
      )}
      <Link to="/referrals" className="btn-outline w-full sm:w-auto">
        {viewAllReferralsLabel(total)}
      </Link>
    </section>
  );
}
