/**
 * The registration flow's forms (docs/product.md#registration-and-accounts): one
 * schema per screen, used by the page's action on the server
 * (decision 0024), with the product's messages.
 */
import { z } from "zod";
import { MARKET_STATES } from "./enums";
import { PHONE_REQUIRED_MESSAGE } from "./phone";
import {
  bioField,
  BROKER_LICENSE_MAX_LENGTH,
  BROKER_LICENSE_TOO_LONG_MESSAGE,
  BROKERAGE_TOO_LONG_MESSAGE,
  brokerEmailField,
  cityField,
  fullNameField,
  INVALID_EMAIL_MESSAGE,
  phoneField,
  photoFileField,
  specialtiesField,
} from "./profile";
import { requiredTextField } from "./text";
import type { MembershipType } from "./workbook/tabs";

const PASSWORD_MIN_LENGTH = 8;
export const PASSWORD_TOO_SHORT_MESSAGE = "Password must be at least 8 characters long.";
export const PASSWORDS_DIFFER_MESSAGE = "Passwords do not match. Please try again.";
/** bcrypt reads only the first 72 bytes of a password; longer ones would be silently cut. */
const PASSWORD_MAX_BYTES = 72;
export const PASSWORD_TOO_LONG_MESSAGE = "Password must be at most 72 characters long.";

export { INVALID_EMAIL_MESSAGE };

export const emailField = z
  .string({ error: "Email is required" })
  .trim()
  .toLowerCase()
  .min(1, "Email is required")
  .max(254, INVALID_EMAIL_MESSAGE)
  .pipe(z.email(INVALID_EMAIL_MESSAGE));

export const quickRegistrationSchema = z.object({
  fullName: fullNameField,
  email: emailField,
  phone: z.string({ error: PHONE_REQUIRED_MESSAGE }).pipe(phoneField),
  state: z.enum(MARKET_STATES, { error: "Please select your state" }),
  city: cityField,
  /** The VIP code from the invitation link, carried through the form; checked again on the server. */
  vip: z.string().trim().max(64).optional(),
  /** The signed link of a member's invitation to join, carried through the form; read again on the server. */
  invitation: z.string().trim().max(2000).optional(),
});

/** What the flow keeps between screens, in a signed cookie. */
export const registrationDraftSchema = z.object({
  fullName: z.string(),
  email: z.string(),
  phone: z.string(),
  state: z.enum(MARKET_STATES),
  city: z.string(),
  vipCode: z.string().optional(),
  /** The Outreach row of the invitation the visitor came through: its member is credited (`invitedBy`). */
  outreachId: z.string().optional(),
  /** Made by the server with the draft: the new agent's id, so a profile sent twice stores one agent. */
  key: z.string().optional(),
});

export type RegistrationDraft = z.infer<typeof registrationDraftSchema>;

/** A new password: the minimum (docs/product.md#constants), and no longer than bcrypt reads. */
export const passwordField = z
  .string({ error: PASSWORD_TOO_SHORT_MESSAGE })
  .min(PASSWORD_MIN_LENGTH, PASSWORD_TOO_SHORT_MESSAGE)
  .refine((password) => new TextEncoder().encode(password).length <= PASSWORD_MAX_BYTES, PASSWORD_TOO_LONG_MESSAGE);

/**
 * The password typed again. Left empty it is compared as empty: beside an empty password
 * (which has its own message) it says nothing, so each field shows one message.
 */
export const confirmPasswordField = z.string().default("");

/** Each broker field's message when it is left blank and nothing fills it. */
const BROKER_REQUIRED_MESSAGES = {
  brokerage: "Brokerage is required",
  brokerLicenseNumber: "Broker license number is required",
  brokerEmail: "Broker email is required",
} as const;

const ISO_DATE = /^\d{4}-\d{2}-\d{2}$/;

function isCalendarDate(value: string): boolean {
  if (!ISO_DATE.test(value)) return false;
  const date = new Date(`${value}T00:00:00Z`);
  return !Number.isNaN(date.getTime()) && date.toISOString().startsWith(value);
}

export const profileCompletionSchema = z
  .object({
    password: passwordField,
    confirmPassword: confirmPasswordField,
    licenseNumber: requiredTextField("License number is required", 50, "Please keep the license number under 50 characters"),
    licenseState: z.enum(MARKET_STATES, { error: "Please select your license state" }),
    licenseExpiration: z.string().trim().refine(isCalendarDate, "Please enter a valid date").optional(),
    // The sponsoring broker, which the referral agreement names. A Texas agent may leave these
    // blank: the server fills them from TREC's data before this schema reads the form.
    brokerage: requiredTextField(BROKER_REQUIRED_MESSAGES.brokerage, 150, BROKERAGE_TOO_LONG_MESSAGE),
    brokerLicenseNumber: requiredTextField(
      BROKER_REQUIRED_MESSAGES.brokerLicenseNumber,
      BROKER_LICENSE_MAX_LENGTH,
      BROKER_LICENSE_TOO_LONG_MESSAGE,
    ),
    brokerEmail: z
      .string({ error: BROKER_REQUIRED_MESSAGES.brokerEmail })
      .trim()
      .min(1, BROKER_REQUIRED_MESSAGES.brokerEmail)
      .pipe(brokerEmailField),
    specialties: specialtiesField,
    bio: bioField,
    photo: photoFileField,
  })
  .refine((profile) => profile.password === profile.confirmPassword, {
    message: PASSWORDS_DIFFER_MESSAGE,
    path: ["confirmPassword"],
    // Compared even when another field has an error, so both messages show at once.
    when: (payload) => typeof (payload.value as { password?: unknown }).password === "string",
  });

export type ProfileCompletion = z.infer<typeof profileCompletionSchema>;

/** VIP with a valid code; founder while founder spots are left; member after. */
export function membershipTypeFor(options: { vipCode: string | undefined; foundersLeft: number }): MembershipType {
  if (options.vipCode) return "vip";
  return options.foundersLeft > 0 ? "founder" : "member";
}
