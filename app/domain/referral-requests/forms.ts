/**
 * The referral request forms (docs/product.md#referral-requests): their schemas with the product's
 * messages, and the rows they make.
 */
import { z } from "zod";
import { idempotencyKeyField } from "../idempotency-key";
import { respondByHoursField } from "../invitation-forms";
import { respondByAt } from "../invitations";
import { CONTACT_PREFERENCES, MARKET_STATES, PRICE_RANGES, REQUEST_TYPE_VALUES, SPECIALTIES, TIMELINES, type RequestType } from "../enums";
import { multiLine, optionalTextField, requiredTextField } from "../text";
import type { ReferralRequest } from "../workbook/tabs";
import { expiresAtFor } from "./expiry";
import { CLIENT_TYPE_VALUES } from "./labels";

const RESPOND_MESSAGE_REQUIRED = "Please enter a message";
const EDIT_FIELDS_REQUIRED = "Please fill in all required fields";
export const POST_FAILED = "Failed to post request. Please try again.";

const TIMELINE_VALUES = TIMELINES.map((timeline) => timeline.value) as [string, ...string[]];

const TITLE_MAX = 120;
const DESCRIPTION_MAX = 2000;
const MESSAGE_MAX = 2000;

/** The fields a request keeps when edited: every field but its type. */
const requestFields = {
  title: requiredTextField("Title is required", TITLE_MAX, `Please keep the title under ${TITLE_MAX} characters`),
  location: requiredTextField("City/Area is required", 100, "Please keep the city/area under 100 characters"),
  state: z.enum(MARKET_STATES, { error: "Please select a state" }),
  specialty: z.enum(SPECIALTIES, { error: "Please select a specialty" }),
  priceRange: z.enum(PRICE_RANGES, { error: "Please select a price range" }),
  clientType: z.enum(CLIENT_TYPE_VALUES, { error: "Please choose buyer or seller" }).default("buyer"),
  timeline: z.enum(TIMELINE_VALUES, { error: "Please choose a timeline" }).optional(),
  contactPreference: z.enum(CONTACT_PREFERENCES, { error: "Please choose a contact method" }).default("either"),
  listingAddress: optionalTextField(200, "Please keep the address under 200 characters"),
  listingMLS: optionalTextField(30, "Please keep the MLS number under 30 characters"),
  description: multiLine(
    requiredTextField(
      "Description is required",
      DESCRIPTION_MAX,
      `Please keep the description under ${DESCRIPTION_MAX.toLocaleString("en-US")} characters`,
    ),
  ),
  urgent: z.boolean().optional(),
  /** Hours from now until the invited agents' deadline; blank: none. */
  respondByHours: respondByHoursField,
};

export const postRequestSchema = z.object({
  requestType: z.enum(REQUEST_TYPE_VALUES, { error: "Please choose a request type" }),
  ...requestFields,
  idempotencyKey: idempotencyKeyField,
});
export type PostRequestInput = z.infer<typeof postRequestSchema>;

/** Editing keeps the type; a blank title or description gets the form's one message. */
export const editRequestSchema = z.object({
  ...requestFields,
  title: requiredTextField(EDIT_FIELDS_REQUIRED, TITLE_MAX, `Please keep the title under ${TITLE_MAX} characters`),
  description: multiLine(
    requiredTextField(
      EDIT_FIELDS_REQUIRED,
      DESCRIPTION_MAX,
      `Please keep the description under ${DESCRIPTION_MAX.toLocaleString("en-US")} characters`,
    ),
  ),
});
export type EditRequestInput = z.infer<typeof editRequestSchema>;

export const respondSchema = z.object({
  idempotencyKey: idempotencyKeyField,
  message: multiLine(
    requiredTextField(
      RESPOND_MESSAGE_REQUIRED,
      MESSAGE_MAX,
      `Please keep the message under ${MESSAGE_MAX.toLocaleString("en-US")} characters`,
    ),
  ),
});

/** The columns a form sets, with the fields that do not apply to the type left blank. */
export function requestFieldsFor(type: RequestType, input: EditRequestInput) {
  return {
    title: input.title,
    location: input.location,
    state: input.state,
    specialty: input.specialty,
    priceRange: input.priceRange,
    clientType: type === "referral" ? input.clientType : "",
    timeline: input.timeline ?? "",
    contactPreference: input.contactPreference,
    listingAddress: type === "listing" ? (input.listingAddress ?? "") : "",
    listingMLS: type === "listing" ? (input.listingMLS ?? "") : "",
    description: input.description,
    urgent: input.urgent ?? false,
  };
}

/** A new request as it is created (docs/product.md#referral-requests): active, no responses, expiring 30 days later. */
export function newRequest(options: {
  id: string;
  input: PostRequestInput;
  agent: { email: string; fullName: string };
  now: Date;
}): ReferralRequest {
  const { id, input, agent, now } = options;
  const createdAt = now.toISOString();
  return {
    id,
    requestType: input.requestType,
    ...requestFieldsFor(input.requestType, input),
    agentEmail: agent.email,
    agentName: agent.fullName,
    status: "active",
    responses: 0,
    createdAt,
    updatedAt: undefined,
    expiresAt: expiresAtFor(createdAt),
    respondBy: input.respondByHours === undefined ? undefined : respondByAt(input.respondByHours, now),
  };
}
