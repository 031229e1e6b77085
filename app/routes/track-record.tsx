import type { MetaFunction } from "@remix-run/node";
import { PageBand } from "~/components/page-band";
import { PRIOR_REVIEWS } from "~/domain/reviews";
import { DEFAULT_FEE_DUE_DAYS, MIN_CASES } from "~/domain/track-record";
import { PRIOR_REFERRALS } from "~/domain/track-record-ranking";
import { PRODUCT_NAME } from "~/domain/product";

export const meta: MetaFunction = () => [{ title: `How the Track Record Is Counted | ${PRODUCT_NAME}` }];

/** Each figure of the profile's Track record card and how it is counted (docs/decisions/0043). */
const DEFINITIONS: { term: string; text: string }[] = [
  {
    term: "Referrals sent and received",
    text: "Referral agreements proposed in the period with the agent as the referring agent, and as the receiving agent.",
  },
  { term: "Closed", text: "Referrals of either side whose deal closed in the period: closed, fee paid or fee received." },
  {
    term: "Close rate of signed referrals",
    text: "Of the signed referrals that ended in the period (closed, lost or expired), the share that closed. Proposals that were declined or withdrawn were never signed and do not count.",
  },
  { term: "Open now", text: "Signed referrals of either side whose deal has not closed, been lost or expired yet." },
  {
    term: "First reply to a new conversation",
    text: "In conversations another member started with the agent in the period, the median time from the first message to the agent's first answer. Conversations the agent has not answered do not count.",
  },
  {
    term: "Answer to a proposal",
    text: "For referral agreements the other party proposed in the period, the median time until the agent signed or declined.",
  },
  {
    term: "Fee paid as agreed",
    text: `Of the fees the agent owed as the receiving agent that fell due in the period, those marked paid within the agreement's "fee due" days after closing (the first number of days it names, else ${DEFAULT_FEE_DUE_DAYS}). A fee not paid by then counts as not paid as agreed.`,
  },
  { term: "Closing to fee paid", text: "The median days from the closing to the fee marked paid, for fees paid in the period." },
  {
    term: "Member since, license check",
    text: "When the agent joined, and the result and date of the latest license check against the state's records. Oklahoma publishes no license file: staff look each Oklahoma license up in OREC's search before approving the agent.",
  },
];

export default function TrackRecordNote() {
  return (
    <>
      <PageBand
        eyebrow="Track record"
        title="How the track record is counted"
        intro="Every figure is counted from what members did here: referral agreements, their timelines and messages. Nobody types them in, and corrections our staff make to a referral show in the figures within minutes."
      />
      <div className="mx-auto max-w-3xl space-y-6 px-4 py-8 sm:px-6 sm:py-10">
        <section className="card" aria-labelledby="figures-title">
          <h2 id="figures-title" className="text-lg font-bold text-slate-900">
            The figures
          </h2>
          <p className="mt-2 text-slate-700">Each is shown for the last 12 months and for all time.</p>
          <dl className="mt-4 space-y-4">
            {DEFINITIONS.map((definition) => (
              <div key={definition.term}>
                <dt className="font-semibold text-slate-900">{definition.term}</dt>
                <dd className="mt-1 text-slate-700">{definition.text}</dd>
              </div>
            ))}
          </dl>
        </section>
        <section className="card" aria-labelledby="small-numbers-title">
          <h2 id="small-numbers-title" className="text-lg font-bold text-slate-900">
            Small numbers
          </h2>
          <p className="mt-2 text-slate-700">
            A rate or a median of fewer than {MIN_CASES} cases is not shown: the card says, for example, &ldquo;2 referrals: too few for a
            rate&rdquo; rather than 100%. Directory cards say how fast an agent replies only from {MIN_CASES} replies in the last 12 months.
          </p>
        </section>
        <section className="card" aria-labelledby="ranking-title">
          <h2 id="ranking-title" className="text-lg font-bold text-slate-900">
            Reviews and the &ldquo;Best track record&rdquo; order
          </h2>
          <p className="mt-2 text-slate-700">
            Stars are the average of the agent&rsquo;s published reviews. The directory&rsquo;s &ldquo;Best track record&rdquo; order blends
            each agent&rsquo;s average with {PRIOR_REVIEWS} reviews at the network&rsquo;s average, so one 5-star review does not top the
            list and an agent without reviews sits in the middle; then it blends the close rate with {PRIOR_REFERRALS} referrals at the
            network&rsquo;s close rate the same way.
          </p>
        </section>
      </div>
    </>
  );
}
