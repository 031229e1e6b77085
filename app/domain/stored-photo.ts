/**
 * Where the photos the app stores itself are served from. Apart from the zod schemas in
 * profile.ts, so the public pages that show photos do not load zod in the browser.
 */

/** Profile photos the app keeps on Cloudinary are served from here. */
export const CLOUDINARY_DELIVERY_ORIGIN = "https://res.cloudinary.com";

/** Local uploads are served from here; their names are generated, never taken from the user. */
export const UPLOADS_PATH = "/uploads/";
export const UPLOAD_FILE_NAME = /^[a-z0-9][a-z0-9-]{0,80}\.(jpg|png|webp)$/;

/**
 * True for a photo the app stored itself: a local upload, or a Cloudinary delivery
 * address. Pages show only these, so a profile never makes browsers fetch a host a
 * member chose.
 */
export function isStoredPhotoUrl(value: string): boolean {
  if (value.startsWith(UPLOADS_PATH)) return UPLOAD_FILE_NAME.test(value.slice(UPLOADS_PATH.length));
  return value.startsWith(`${CLOUDINARY_DELIVERY_ORIGIN}/`) && URL.canParse(value) && new URL(value).origin === CLOUDINARY_DELIVERY_ORIGIN;
}
