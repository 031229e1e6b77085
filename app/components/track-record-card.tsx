import { Link } from "@remix-run/react";
import { StarsSummary } from "~/components/agent-card";
import type { TrackRecord, WindowFigures } from "~/domain/track-record";
import { dayLabel, licenseCheckLine, medianText, rateText, TRACK_RECORD_NOTE_PATH } from "~/domain/track-record-text";

type Props = {
  record: TrackRecord;
  /** The published reviews' average and count; null before any is published. */
  stars: { average: number; count: number } | null;
};

/** One figure per row, for the last 12 months and for all time. */
const ROWS: { label: string; value(figures: WindowFigures): string }[] = [
  { label: "Referrals sent", value: (f) => String(f.sent) },
  { label: "Referrals received", value: (f) => String(f.received) },
  { label: "Closed", value: (f) => String(f.closed) },
  { label: "Close rate of signed referrals", value: (f) => rateText(f.closeRate, "referral") },
  { label: "First reply to a new conversation", value: (f) => medianText(f.firstReply, "reply", "replies") },
  { label: "Answer to a proposal", value: (f) => medianText(f.proposalAnswer, "answer") },
  { label: "Fee paid as agreed", value: (f) => rateText(f.feesAsAgreed, "fee") },
  { label: "Closing to fee paid", value: (f) => medianText(f.closingToPaid, "fee paid", "fees paid") },
];

/** The profile's Track record: counted from what the agent did in the network, never typed (docs/decisions/0043). */
export function TrackRecordCard({ record, stars }: Props) {
  return (
    <section className="card" aria-labelledby="track-record-title">
      <div className="flex flex-wrap items-baseline justify-between gap-2">
        <h2 id="track-record-title" className="text-lg font-bold text-slate-900">
          Track record
        </h2>
        <Link to={TRACK_RECORD_NOTE_PATH} className="text-sm font-semibold text-brand-700 underline underline-offset-2">
          How these are counted
        </Link>
      </div>
      <dl className="mt-3 grid gap-x-6 gap-y-2 text-sm sm:grid-cols-2">
        <div>
          <dt className="font-semibold text-slate-500">Reviews</dt>
          <dd className="mt-0.5">{stars ? <StarsSummary average={stars.average} count={stars.count} /> : "No published reviews yet"}</dd>
        </div>
        <div>
          <dt className="font-semibold text-slate-500">Open now</dt>
          <dd className="mt-0.5 text-slate-800">{record.openNow}</dd>
        </div>
        <div>
          <dt className="font-semibold text-slate-500">Member since</dt>
          <dd className="mt-0.5 text-slate-800">{dayLabel(record.memberSince)}</dd>
        </div>
        <div>
          <dt className="font-semibold text-slate-500">License check</dt>
          <dd className="mt-0.5 wrap-anywhere text-slate-800">{licenseCheckLine(record.licenseCheck)}</dd>
        </div>
      </dl>
      <table className="mt-5 w-full text-left text-sm">
        <caption className="sr-only">Track record figures, last 12 months and all time</caption>
        <thead>
          <tr className="border-b border-slate-200 text-slate-500">
            <th scope="col" className="py-2 pr-3 font-semibold">
              <span className="sr-only">Figure</span>
            </th>
            <th scope="col" className="py-2 pr-3 font-semibold">
              Last 12 months
            </th>
            <th scope="col" className="py-2 font-semibold">
              All time
            </th>
          </tr>
        </thead>
        <tbody>
          {ROWS.map((row) => (
            <tr key={row.label} className="border-b border-slate-100 align-top last:border-0">
              <th scope="row" className="py-2 pr-3 font-medium text-slate-700">
                {row.label}
              </th>
              <td className="py-2 pr-3 text-slate-800">{row.value(record.last12Months)}</td>
              <td className="py-2 text-slate-800">{row.value(record.allTime)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}
