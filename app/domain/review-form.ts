/**
 * The review page's forms: a review of the other party (its third aspect depends on their
 * side and how the referral ended) and a reply to their published review. Kept apart from reviews.ts, which pages
 * import, so the schema library stays on the server.
 */
import { z } from "zod";
import { idempotencyKeyField } from "./idempotency-key";
import { REPLY_MAX, REVIEW_TEXT_MAX } from "./reviews";
import { multiLine, optionalTextField, requiredTextField } from "./text";

/** A star rating posted by a group of radio buttons: a whole number from 1 to 5. */
function stars(message: string) {
  return z.enum(["1", "2", "3", "4", "5"], { error: message }).transform(Number);
}

const reviewFields = {
  intent: z.literal("review"),
  idempotencyKey: idempotencyKeyField,
  overall: stars("Please choose an overall rating from 1 to 5 stars"),
  communication: stars("Please rate the communication from 1 to 5 stars"),
  clientCare: stars("Please rate the care of the client from 1 to 5 stars"),
  text: multiLine(optionalTextField(REVIEW_TEXT_MAX, `Please keep the review under ${REVIEW_TEXT_MAX.toLocaleString("en-US")} characters`)),
};

const reviewSchema = z.object(reviewFields);

/** The review form for each aspect beside communication and care, and for none (a fee that was never due). */
export const reviewSchemas = {
  feeAsAgreed: reviewSchema.extend({ feeAsAgreed: stars("Please rate how the fee was handled from 1 to 5 stars") }),
  referralQuality: reviewSchema.extend({ referralQuality: stars("Please rate the quality of the referral from 1 to 5 stars") }),
  none: reviewSchema,
};

export type ReviewSchema = (typeof reviewSchemas)[keyof typeof reviewSchemas];
export type ReviewInput = z.infer<ReviewSchema>;

export const replySchema = z.object({
  intent: z.literal("reply"),
  reply: multiLine(
    requiredTextField("Please write your reply", REPLY_MAX, `Please keep the reply under ${REPLY_MAX.toLocaleString("en-US")} characters`),
  ),
});

export type ReplyInput = z.infer<typeof replySchema>;
