import type { CheckedColumn } from "~/domain/referrals/mistyped-values";

/** The referral's dates and amounts as its page words them; null until the referral gets that far. */
type Facts = Record<"signedAt" | "termEndsAt" | CheckedColumn | "lostReason", string | null>;

type Acceptance = { role: string; agentName: string; signed: boolean; signedName: string; signedAt: string };

type TimelineEvent = { id: string; label: string; by: string; at: string; note: string };

/** What has happened to the referral in figures, each doubtful value flagged beside it. */
export function ReferralFacts({ facts, doubts }: { facts: Facts; doubts: Partial<Record<CheckedColumn, string>> }) {
  const rows: Array<[string, string | null, string | undefined]> = [
    ["Signed", facts.signedAt, undefined],
    ["Term ends", facts.termEndsAt, undefined],
    ["Expected close", facts.expectedCloseDate, doubts.expectedCloseDate],
    ["Closed", facts.closeDate, doubts.closeDate],
    ["Price", facts.salePrice, doubts.salePrice],
    ["Receiving side's gross commission", facts.grossCommission, doubts.grossCommission],
    ["Referral fee", facts.feeAmount, doubts.feeAmount],
    ["Reason lost", facts.lostReason, undefined],
  ];
  const shown = rows.filter((row): row is [string, string, string | undefined] => row[1] !== null);
  if (shown.length === 0) return null;
  return (
    <dl className="grid gap-x-6 gap-y-2 text-sm sm:grid-cols-2">
      {shown.map(([label, value, doubt]) => (
        <div key={label}>
          <dt className="font-semibold text-slate-500">{label}</dt>
          <dd className="wrap-anywhere text-slate-900">
            {value}
            {doubt ? <DoubtNote doubt={doubt} /> : null}
          </dd>
        </div>
      ))}
    </dl>
  );
}

/** A value in the sheet that probably was typed wrong: shown as it is, and said so. */
function DoubtNote({ doubt }: { doubt: string }) {
  return (
    <span className="mt-1 block rounded bg-amber-50 px-2 py-1 text-amber-900" data-testid="doubted-value">
      Check this value: it {doubt}. Staff have been told.
    </span>
  );
}

/** Who has signed the agreement shown, and when. */
export function Acceptances({ acceptances }: { acceptances: Acceptance[] }) {
  return (
    <ul className="grid gap-3 sm:grid-cols-2" aria-label="Acceptances">
      {acceptances.map((acceptance) => (
        <li key={acceptance.role} className="rounded-lg border border-slate-200 p-3 text-sm">
          <p className="font-semibold text-slate-900">
            {acceptance.role}: {acceptance.agentName}
          </p>
          <p className="text-slate-700">
            {acceptance.signed ? `Signed by ${acceptance.signedName} on ${acceptance.signedAt}` : "Not signed yet"}
          </p>
        </li>
      ))}
    </ul>
  );
}

/** Every step of the referral, oldest first, with who took it and their note. */
export function Timeline({ events }: { events: TimelineEvent[] }) {
  return (
    <section className="card" aria-labelledby="timeline-title">
      <h2 id="timeline-title" className="text-lg font-bold text-slate-900">
        Timeline
      </h2>
      <ol className="mt-4 space-y-3">
        {events.map((event) => (
          <li key={event.id} className="border-l-2 border-brand-200 pl-3 text-sm">
            <p className="font-semibold text-slate-900">
              <span>{event.label}</span>{" "}
              <span className="font-normal text-slate-500">
                by {event.by}, {event.at}
              </span>
            </p>
            {event.note ? <p className="mt-1 wrap-anywhere whitespace-pre-line text-slate-700">{event.note}</p> : null}
          </li>
        ))}
      </ol>
    </section>
  );
}
