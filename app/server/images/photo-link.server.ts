import { PHOTO_LINK_UNREACHABLE_MESSAGE, PHOTO_TOO_LARGE_MESSAGE, PHOTO_TYPE_MESSAGE } from "~/domain/profile";
import { CLOUDINARY_DELIVERY_ORIGIN, UPLOAD_FILE_NAME, UPLOADS_PATH } from "~/domain/stored-photo";
import type { Services } from "../services.server";
import { detectImageKind } from "./photo-check.server";
import { savePhoto, type ProfilePhoto } from "./save-photo.server";

/**
 * True for a copy this app made: a local upload, or a photo in this app's own
 * Cloudinary cloud. Another cloud's address is someone else's file, which its owner
 * could replace at any time.
 */
function isOwnCopy(services: Pick<Services, "config">, link: string): boolean {
  if (link.startsWith(UPLOADS_PATH)) return UPLOAD_FILE_NAME.test(link.slice(UPLOADS_PATH.length));
  const cloudName = services.config.cloudinary?.cloudName;
  return cloudName !== undefined && link.startsWith(`${CLOUDINARY_DELIVERY_ORIGIN}/${cloudName}/`);
}

/**
 * Turns the Photo URL a member typed into a photo the app stores. An address the
 * app already stores (the current photo, shown in the field) is kept as it is; any
 * other https link is fetched once with the fetcher's guards, checked by its
 * content like an upload, resized and stored, and the app's copy is what the
 * profile keeps.
 */
export async function photoFromLink(services: Pick<Services, "config" | "images" | "photoFetcher">, link: string): Promise<ProfilePhoto> {
  if (link === "" || isOwnCopy(services, link)) return { status: "saved", url: link };
  const fetched = await services.photoFetcher(link);
  if (!fetched.ok)
    return { status: "refused", message: fetched.reason === "too-large" ? PHOTO_TOO_LARGE_MESSAGE : PHOTO_LINK_UNREACHABLE_MESSAGE };
  if (detectImageKind(fetched.bytes) === undefined) return { status: "refused", message: PHOTO_TYPE_MESSAGE };
  const saved = await savePhoto(services.images, fetched.bytes);
  if (saved.status === "invalid") return { status: "refused", message: saved.message };
  return saved;
}
