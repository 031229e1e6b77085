/**
 * The profile form's limits its components show in the browser (the bio's counter, the
 * photo picker's types): apart from the schemas in profile.ts, so those pages load no zod.
 */
export const BIO_MAX_LENGTH = 600;
/** What the photo picker offers: the types profile.ts's PHOTO_TYPES accepts, without the "image/jpg" alias. */
export const PHOTO_ACCEPT = "image/jpeg,image/png,image/webp";
/** The most places an agent may list as served. */
export const MAX_PLACES_SERVED = 10;
