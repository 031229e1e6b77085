import { Link } from "@remix-run/react";
import { feeSumText, type ReferralRowView, type ReferralTotals } from "~/domain/referrals/overview";
import type { ReferralStatus } from "~/domain/referrals/status";

const STATUS_TONES: Partial<Record<ReferralStatus, string>> = {
  proposed: "bg-amber-50 text-amber-800 ring-amber-200",
  fee_received: "bg-green-50 text-green-800 ring-green-200",
  declined: "bg-slate-100 text-slate-700 ring-slate-200",
  withdrawn: "bg-slate-100 text-slate-700 ring-slate-200",
  lost: "bg-slate-100 text-slate-700 ring-slate-200",
  expired: "bg-slate-100 text-slate-700 ring-slate-200",
};

function ReferralStatusBadge({ status, label }: { status: ReferralStatus; label: string }) {
  const tone = STATUS_TONES[status] ?? "bg-brand-50 text-brand-800 ring-brand-200";
  return <span className={`rounded-full px-2.5 py-0.5 text-xs font-semibold whitespace-nowrap ring-1 ${tone}`}>{label}</span>;
}

/** Referrals as links to their pages: the other party, the client, the status and the fee. */
export function ReferralRows({ referrals }: { referrals: readonly ReferralRowView[] }) {
  return (
    <ul className="divide-y divide-slate-100">
      {referrals.map((referral) => (
        <li key={referral.id}>
          <Link
            to={`/referrals/${referral.id}`}
            className="-mx-2 flex flex-wrap items-center gap-x-4 gap-y-1 rounded-lg px-2 py-3 hover:bg-slate-50"
          >
            <span className="min-w-0 flex-1 basis-48">
              <span className="block font-semibold wrap-anywhere text-slate-900">
                {referral.role === "sent" ? "To " : "From "}
                {referral.otherName || "another member"}
              </span>
              <span className="block text-sm wrap-anywhere text-slate-600">
                Client {referral.clientName || "not named"} · <span className="capitalize">{referral.side}</span> side ·{" "}
                {referral.role === "sent" ? "Sent" : "Received"}
              </span>
            </span>
            <span className="text-sm font-semibold text-slate-900">
              {referral.feeLabel}
              {referral.feeDoubted ? (
                <span className="ml-2 rounded bg-amber-50 px-1.5 py-0.5 text-xs font-medium text-amber-900" data-testid="doubted-fee">
                  looks wrong; staff have been told
                </span>
              ) : null}
            </span>
            <ReferralStatusBadge status={referral.status} label={referral.statusLabel} />
          </Link>
        </li>
      ))}
    </ul>
  );
}

/** Open referrals, fees expected and fees received this year, as labelled figures. */
export function ReferralFigures({ totals }: { totals: ReferralTotals }) {
  const figures: { label: string; value: string; note?: string }[] = [
    { label: "Open referrals", value: String(totals.open) },
    { label: "Fees expected", ...feeSumText(totals.expected) },
    { label: "Fees received this year", ...feeSumText(totals.receivedThisYear) },
  ];
  return (
    <dl className="grid gap-3 sm:grid-cols-3">
      {figures.map((figure) => (
        <div key={figure.label} className="rounded-lg bg-slate-50 p-3">
          <dt className="text-sm font-semibold text-slate-600">{figure.label}</dt>
          <dd className="mt-1 text-2xl font-extrabold text-slate-900">
            {figure.value} {figure.note ? <span className="ml-1 text-sm font-medium text-slate-600">{figure.note}</span> : null}
          </dd>
        </div>
      ))}
    </dl>
  );
}
