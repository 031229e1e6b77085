/**
 * Profile fields shared by the profile completion form and edit profile: the
 * product's limits and messages (docs/product.md#constants), checked on the server (decision 0024; the
 * limits the form's components show are in profile-limits.ts).
 */
import { z } from "zod";
import { SPECIALTIES, US_STATE_CODES } from "./enums";
import { formatPhone, isValidPhone, PHONE_INVALID_MESSAGE } from "./phone";
import { UPLOADS_PATH, UPLOAD_FILE_NAME } from "./stored-photo";
import { multiLine, optionalTextField, requiredTextField } from "./text";
import { BIO_MAX_LENGTH, MAX_PLACES_SERVED } from "./profile-limits";
import { DEFAULT_SERVICE_RADIUS, SERVICE_RADII, type ServiceRadius } from "./places/service-radius";

const BIO_TOO_LONG_MESSAGE = `Bio must be ${BIO_MAX_LENGTH} characters or less`;

/** 5 MB, the photo limit (docs/product.md#constants). */
export const PHOTO_MAX_BYTES = 5_242_880;
/** The image service also accepted `image/jpg`, which some systems send for JPEG files. */
export const PHOTO_TYPES = ["image/jpeg", "image/jpg", "image/png", "image/webp"] as const;
export const PHOTO_TOO_LARGE_MESSAGE = "File size must be less than 5MB";
export const PHOTO_TYPE_MESSAGE = "Please upload a JPG, PNG, or WebP image";
const PHOTO_URL_MESSAGE = "Please enter an image URL starting with https://";
export const PHOTO_LINK_UNREACHABLE_MESSAGE = "We could not fetch an image from that link. Please check it, or upload the photo instead.";

const PASSWORD_REQUIRED_FOR_SAVE_MESSAGE = "Password is required for authentication";

/** The sponsoring broker's license number: referral agreements name it, as fees are paid broker to broker. */
export const BROKER_LICENSE_MAX_LENGTH = 30;
export const BROKER_LICENSE_TOO_LONG_MESSAGE = "Please keep the broker license number under 30 characters";
export const BROKERAGE_TOO_LONG_MESSAGE = "Please keep the brokerage under 150 characters";
export const INVALID_EMAIL_MESSAGE = "Please enter a valid email address";

/** The sponsoring broker's e-mail, lower-cased: the agreement and its sign-off go there. */
export const brokerEmailField = z.string().trim().toLowerCase().max(254, INVALID_EMAIL_MESSAGE).pipe(z.email(INVALID_EMAIL_MESSAGE));

export const fullNameField = requiredTextField("Full name is required", 100, "Please keep the name under 100 characters");
export const cityField = requiredTextField("City is required", 100, "Please keep the city under 100 characters");

/** One value per checked box; none checked is an empty list. */
export const specialtiesField = z
  .array(z.enum(SPECIALTIES, { error: "Please choose from the listed specialties" }))
  .optional()
  .transform((items) => [...new Set(items ?? [])]);

export const bioField = multiLine(z.string().trim().max(BIO_MAX_LENGTH, BIO_TOO_LONG_MESSAGE).optional());

/** A phone number meeting the phone rule, stored in its display form. */
export const phoneField = z.string().trim().refine(isValidPhone, PHONE_INVALID_MESSAGE).transform(formatPhone);

/** An uploaded photo, checked by declared type and size; the server checks its content too. */
export const photoFileField = z
  .file()
  .mime([...PHOTO_TYPES], PHOTO_TYPE_MESSAGE)
  .max(PHOTO_MAX_BYTES, PHOTO_TOO_LARGE_MESSAGE)
  .optional();

/** True for the https image links edit profile accepts, and for the app's own upload paths. */
export function isAcceptedPhotoUrl(value: string): boolean {
  if (value.startsWith(UPLOADS_PATH)) return UPLOAD_FILE_NAME.test(value.slice(UPLOADS_PATH.length));
  if (!URL.canParse(value)) return false;
  const url = new URL(value);
  return url.protocol === "https:" && url.hostname !== "";
}

const PLACE_TOO_LONG_MESSAGE = "Please keep each place under 100 characters";
const TOO_MANY_PLACES_MESSAGE = `Please list up to ${MAX_PLACES_SERVED} places`;
const RADIUS_MESSAGE = `Please choose ${SERVICE_RADII.slice(0, -1).join(", ")} or ${SERVICE_RADII.at(-1)} miles`;

/**
 * The places typed into the form's boxes, blanks left out. Whether each is a real place is
 * the server's question (the place list lives there): see app/server/places/typed-places.server.ts.
 */
const placesServedField = z
  .array(z.string().trim().max(100, PLACE_TOO_LONG_MESSAGE).optional())
  .optional()
  .transform((items) => (items ?? []).filter((item): item is string => Boolean(item)))
  .refine((items) => items.length <= MAX_PLACES_SERVED, TOO_MANY_PLACES_MESSAGE);

/** One of the radii offered; none chosen is the default. */
const serviceRadiusField = z
  .string()
  .optional()
  .transform((value, context): ServiceRadius => {
    if (value === undefined) return DEFAULT_SERVICE_RADIUS;
    const radius = SERVICE_RADII.find((miles) => String(miles) === value);
    if (radius === undefined) {
      context.addIssue({ code: "custom", message: RADIUS_MESSAGE });
      return z.NEVER;
    }
    return radius;
  });

export const editProfileSchema = z.object({
  fullName: fullNameField,
  phone: phoneField.optional(),
  city: cityField,
  state: z.enum(US_STATE_CODES, { error: "Please select your state" }),
  brokerage: optionalTextField(150, BROKERAGE_TOO_LONG_MESSAGE),
  brokerLicenseNumber: optionalTextField(BROKER_LICENSE_MAX_LENGTH, BROKER_LICENSE_TOO_LONG_MESSAGE),
  brokerEmail: brokerEmailField.optional(),
  specialties: specialtiesField,
  placesServed: placesServedField,
  serviceRadius: serviceRadiusField,
  bio: bioField,
  photoUrl: z.string().trim().max(2000, PHOTO_URL_MESSAGE).refine(isAcceptedPhotoUrl, PHOTO_URL_MESSAGE).optional(),
  photo: photoFileField,
  password: z.string({ error: PASSWORD_REQUIRED_FOR_SAVE_MESSAGE }).min(1, PASSWORD_REQUIRED_FOR_SAVE_MESSAGE),
});

export type EditProfileInput = z.infer<typeof editProfileSchema>;
