/**
 * The login, forgot-password and new-password forms (docs/product.md#sessions-and-login): their schemas,
 * used by the page's action on the server (decision 0024), and the product's messages.
 */
import { z } from "zod";
import { APPLICATION_NOT_APPROVED_MESSAGE } from "./account-messages";
import { confirmPasswordField, emailField, INVALID_EMAIL_MESSAGE, passwordField, PASSWORDS_DIFFER_MESSAGE } from "./registration";

export const LOGIN_MESSAGES = {
  required: "Email and password are required",
  noAccount: "No account found with this email address",
  /** The account's row in the spreadsheet does not read (a mistyped cell): staff get it in their mail. */
  unreadable: "Your account cannot be read right now. Our staff have been told and will fix it; please try again later.",
  pending: "Your account is still under review. Please check your email for approval updates.",
  rejected: APPLICATION_NOT_APPROVED_MESSAGE,
  suspended: "Your account is suspended. Please contact support.",
  wrongPassword: "Incorrect password. Please try again.",
  failed: "An error occurred during login. Please try again.",
} as const;

const MAX_EMAIL_LENGTH = 254;

function isEmail(value: string): boolean {
  return value.length <= MAX_EMAIL_LENGTH && z.email().safeParse(value).success;
}

/** E-mail addresses are compared lower-cased and trimmed, as the store keeps them. */
export function normaliseEmail(value: string): string {
  return value.trim().toLowerCase();
}

/** Both fields are optional in the shape so a missing one gets the form's single message for the form, not one per field. */
export const loginSchema = z
  .object({
    email: z.string().transform(normaliseEmail).optional(),
    password: z.string().optional(),
    /** The page to return to after logging in; checked with `safeRedirectPath` before use. */
    redirectTo: z.string().optional(),
  })
  .superRefine((form, context) => {
    if (!form.email || !form.password) {
      context.addIssue({ code: "custom", message: LOGIN_MESSAGES.required, path: [] });
    } else if (!isEmail(form.email)) {
      context.addIssue({ code: "custom", message: INVALID_EMAIL_MESSAGE, path: ["email"] });
    }
  });

/** The forms that mail a link to the address typed: forgot password, and the one-time login link. */
export const mailedLinkSchema = z.object({ email: emailField });

export const resetPasswordSchema = z
  .object({
    password: passwordField,
    confirmPassword: confirmPasswordField,
  })
  .refine((form) => form.password === form.confirmPassword, {
    message: PASSWORDS_DIFFER_MESSAGE,
    path: ["confirmPassword"],
    // Compared even when the password is too short, so both messages show at once.
    when: (payload) => typeof (payload.value as { password?: unknown }).password === "string",
  });
