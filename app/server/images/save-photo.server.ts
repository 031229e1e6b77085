import type { ImageService } from "./images.server";
import { checkPhoto } from "./photo-check.server";
import { InvalidImageError } from "./resize.server";

export type SavedPhoto =
  | { status: "saved"; url: string }
  /** The file looked like an image but could not be decoded: the user can choose another. */
  | { status: "invalid"; message: string }
  /** Storing failed (Cloudinary or the disk): the caller goes on without a photo (docs/product.md#registration-and-accounts). */
  | { status: "failed" };

/** The outcome of a profile form's photo step, from an upload or a link. */
export type ProfilePhoto =
  /** The address to store: the app's own copy, the photo kept as it was, or none. */
  | { status: "saved"; url: string }
  /** Not a usable image: the message goes beside the photo field. */
  | { status: "refused"; message: string }
  /** The image was fine but storing it failed: the caller goes on without it and says so. */
  | { status: "failed" };

/** Resizes and stores a checked photo, sorting failures into the user's and the service's. */
export async function savePhoto(images: ImageService, bytes: Buffer): Promise<SavedPhoto> {
  try {
    return { status: "saved", url: await images.saveProfilePhoto(bytes) };
  } catch (error) {
    if (error instanceof InvalidImageError) return { status: "invalid", message: error.message };
    console.error("Photo upload failed; continuing without a photo:", error);
    return { status: "failed" };
  }
}

/**
 * The photo step of the profile forms for an uploaded file: checked by its content,
 * resized and stored. A file that is not a usable image is refused with the message
 * for the photo field; a storage failure is `failed`, and the caller goes on without it.
 */
export async function photoFromUpload(images: ImageService, file: File): Promise<ProfilePhoto> {
  const checked = await checkPhoto(file);
  if (!checked.ok) return { status: "refused", message: checked.message };
  const saved = await savePhoto(images, checked.bytes);
  return saved.status === "invalid" ? { status: "refused", message: saved.message } : saved;
}
