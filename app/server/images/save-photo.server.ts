import type { ImageService } from "./images.server";
import { InvalidImageError } from "./resize.server";

export type SavedPhoto =
  | { status: "saved"; url: string }
  /** The file looked like an image but could not be decoded: the user can choose another. */
  | { status: "invalid"; message: string }
  /** Storing failed (Cloudinary or the disk): the caller goes on without a photo (spec §8). */
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
