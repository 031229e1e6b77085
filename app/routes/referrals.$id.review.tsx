import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { data } from "@remix-run/node";
import { Link, useActionData, useLoaderData } from "@remix-run/react";
import { IdempotencyKeyInput, SubmitButton, TextareaField, useValidatedForm, ValidatedForm, type FormResult } from "~/components/form";
import { GeneralErrorBoundary } from "~/components/error-boundary";
import { SavedNotice } from "~/components/saved-notice";
import { ReviewBody } from "~/components/review-list";
import { StarRatingField } from "~/components/star-rating-field";
import { useFlashNotice } from "~/components/use-flash-notice";
import { PRODUCT_NAME } from "~/domain/product";
import { replySchema, type ReviewSchema, reviewSchemas } from "~/domain/review-form";
import { ASPECT_LABELS, BLIND_PERIOD_DAYS, isReviewable, REPLY_MAX, REVIEW_TEXT_MAX, reviewPath, sideAspect } from "~/domain/reviews";
import { passRetryAfter, refuseTooMany } from "~/server/accounts/throttle.server";
import { requireMember } from "~/server/auth/session.server";
import { redirectWithNotice, takeNotice } from "~/server/flash.server";
import { newIdempotencyKey } from "~/server/idempotency-keys.server";
import { FORM_MESSAGES, parseSubmission, readForm, rejectSubmission } from "~/server/forms.server";
import { notFound } from "~/server/http.server";
import { requireReferral } from "~/server/referrals/referral-view.server";
import { replyToReview, REVIEW_REFUSALS, reviewPageView, saveReview, type ReviewResult } from "~/server/reviews/reviews.server";
import type { Services } from "~/server/services.server";
import type { Agent } from "~/domain/workbook/tabs";
import { limitMemberWrite, WRITE_NAMES } from "~/server/write-limits.server";

export const meta: MetaFunction<typeof loader> = ({ data }) => [
  { title: `Review${data ? ` ${data.review.otherName}` : ""} | ${PRODUCT_NAME}` },
];

export const headers = passRetryAfter;

const SAVE_FAILED = "Your review could not be saved. Please try again.";

/** The referral, for one of its two parties once it has ended; a 404 for everyone else, as on the referral's page. */
function reviewableReferral(services: Pick<Services, "store">, member: Agent, id: string) {
  const found = requireReferral(services, member, id);
  if (!isReviewable(found.referral)) throw notFound(REVIEW_REFUSALS.notReviewable);
  return found;
}

export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const member = await requireMember(request, context);
  const { referral, party } = reviewableReferral(context.services, member, params.id ?? "");
  // Seen: a mail held back after the push of a review published here need not go.
  context.services.notifier.visited(member, reviewPath(referral.id));
  const { notice, headers } = await takeNotice(context.services, request, ["reviewSaved"]);
  const body = { review: reviewPageView(context.services, referral, party, new Date()), notice, idempotencyKey: newIdempotencyKey() };
  return data(body, { headers });
}

/** Two forms post here by `intent`: the member's review (written or changed until publication) and a reply to the other's. */
export async function action({ request, context, params }: ActionFunctionArgs) {
  const member = await requireMember(request, context);
  const { services } = context;
  const { referral, party } = reviewableReferral(services, member, params.id ?? "");
  const otherSide = party === "referring" ? "receiving" : "referring";
  const { formData, refusal } = await readForm(request);
  const intent = formData.get("intent");
  const schema = intent === "reply" ? replySchema : reviewSchemas[sideAspect(otherSide, referral.status) ?? "none"];
  // A post with neither intent was not sent by the page: refused as unreadable.
  const submission = parseSubmission(
    formData,
    schema,
    refusal ?? (intent === "reply" || intent === "review" ? null : { status: 400, message: FORM_MESSAGES.unreadable }),
  );
  if (submission.status !== "success") return rejectSubmission(submission);
  const allowed = limitMemberWrite(context, "referral", member);
  if (!allowed.allowed) return refuseTooMany(submission, WRITE_NAMES.referral, allowed.retryAfterSeconds);
  const now = new Date();
  let result: ReviewResult;
  try {
    const value = submission.value;
    result =
      value.intent === "reply"
        ? await replyToReview(services, { referral, party, input: value, now })
        : await saveReview(services, { referral, party, input: value, now });
  } catch (error) {
    console.error(`Review of referral ${referral.id} not saved:`, error);
    return rejectSubmission(submission, { status: 503, formErrors: [SAVE_FAILED] });
  }
  if (!result.ok) return rejectSubmission(submission, { status: result.status, formErrors: [result.message] });
  return redirectWithNotice(services, `/referrals/${referral.id}/review`, "reviewSaved");
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}

type View = ReturnType<typeof useLoaderData<typeof loader>>["review"];

function resultFor(lastResult: FormResult | undefined, intent: "review" | "reply") {
  return lastResult?.initialValue?.intent === intent ? lastResult : undefined;
}

export default function ReviewPage() {
  const { review, idempotencyKey, ...loaded } = useLoaderData<typeof loader>();
  const notice = useFlashNotice(loaded.notice);
  const lastResult = useActionData<typeof action>();
  return (
    <div className="mx-auto max-w-3xl space-y-6 px-4 py-10 sm:px-6 sm:py-12">
      <p className="text-sm">
        <Link to={`/referrals/${review.referralId}`} className="font-semibold text-brand-700 hover:underline">
          ← The referral
        </Link>
      </p>
      <section className="card space-y-3" aria-labelledby="review-title">
        <h1 id="review-title" className="text-2xl font-extrabold tracking-tight wrap-anywhere text-slate-900">
          Review {review.otherName}
        </h1>
        <p className="text-slate-700">
          Your referral for <span className="wrap-anywhere">{review.clientName}</span> has ended. {publicationNote(review)}
        </p>
        <SavedNotice text={lastResult ? null : notice} />
      </section>

      {review.theirs ? <TheirReview review={review} lastResult={resultFor(lastResult, "reply")} /> : null}

      {review.canWrite ? (
        <ReviewForm review={review} idempotencyKey={idempotencyKey} lastResult={resultFor(lastResult, "review")} />
      ) : review.mine ? (
        <section className="card space-y-3" aria-labelledby="mine-title">
          <h2 id="mine-title" className="text-lg font-bold text-slate-900">
            Your review of {review.otherName}
          </h2>
          {review.mine.hidden ? <p className="text-sm text-slate-600">Staff have hidden this review from the profile.</p> : null}
          <ReviewBody review={review.mine} replyBy={review.otherName} />
        </section>
      ) : null}
    </div>
  );
}

function publicationNote(review: View): string {
  if (review.published) return `The reviews were published on ${review.publishedOn} and can no longer be changed.`;
  if (review.mine)
    return `Your review stays hidden until ${review.otherName} writes theirs or until ${review.mineHiddenUntil}, whichever comes first; until then you can change it.`;
  return `Neither of you sees the other's review until both have written one, or ${BLIND_PERIOD_DAYS} days after the first; then both are published at once on your profiles.`;
}

function TheirReview({ review, lastResult }: { review: View; lastResult: FormResult | undefined }) {
  const [form, fields] = useValidatedForm<typeof replySchema>(lastResult, { id: "reply" });
  const theirs = review.theirs!;
  return (
    <section className="card space-y-3" aria-labelledby="theirs-title">
      <h2 id="theirs-title" className="text-lg font-bold text-slate-900">
        {review.otherName}&apos;s review of you
      </h2>
      <ReviewBody review={theirs} replyBy="you" />
      {theirs.canReply ? (
        <ValidatedForm form={form} className="space-y-3 border-t border-slate-100 pt-4">
          <input type="hidden" name="intent" value="reply" />
          <TextareaField
            field={fields.reply}
            label="Your public reply"
            hint={`Shown under the review on your profile; one reply, up to ${REPLY_MAX.toLocaleString("en-US")} characters.`}
            rows={3}
          />
          <SubmitButton busyLabel="Posting...">Post reply</SubmitButton>
        </ValidatedForm>
      ) : null}
    </section>
  );
}

function ReviewForm({ review, idempotencyKey, lastResult }: { review: View; idempotencyKey: string; lastResult: FormResult | undefined }) {
  const [form, fields] = useValidatedForm<ReviewSchema>(lastResult, {
    id: "review",
    defaultValue: review.draft ?? undefined,
  });
  const all = fields as Record<string, Parameters<typeof StarRatingField>[0]["field"]>;
  return (
    <section className="card" aria-labelledby="form-title">
      <h2 id="form-title" className="text-lg font-bold text-slate-900">
        {review.mine ? "Change your review" : "Your review"}
      </h2>
      {review.mine?.hidden ? <p className="mt-2 text-sm text-slate-600">Staff have hidden this review from the profile.</p> : null}
      <ValidatedForm form={form} className="mt-4 space-y-5">
        <input type="hidden" name="intent" value="review" />
        <IdempotencyKeyInput field={fields.idempotencyKey} fresh={idempotencyKey} />
        <StarRatingField field={fields.overall} legend={`Overall, working with ${review.otherName}`} />
        <StarRatingField field={fields.communication} legend={ASPECT_LABELS.communication} />
        <StarRatingField field={fields.clientCare} legend={ASPECT_LABELS.clientCare} />
        {review.sideAspect ? <StarRatingField field={all[review.sideAspect]!} legend={ASPECT_LABELS[review.sideAspect]} /> : null}
        <TextareaField
          field={fields.text}
          label="Review text"
          optional
          rows={5}
          placeholder={`What went well, what did not (up to ${REVIEW_TEXT_MAX.toLocaleString("en-US")} characters)`}
        />
        <SubmitButton busyLabel="Saving...">{review.mine ? "Save changes" : "Submit review"}</SubmitButton>
      </ValidatedForm>
    </section>
  );
}
