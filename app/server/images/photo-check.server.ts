import { PHOTO_MAX_BYTES, PHOTO_TOO_LARGE_MESSAGE, PHOTO_TYPE_MESSAGE, PHOTO_TYPES } from "~/domain/profile";

export type ImageKind = "jpeg" | "png" | "webp";

const PNG_SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];

function startsWith(bytes: Uint8Array, signature: readonly number[], offset = 0): boolean {
  return signature.every((byte, index) => bytes[offset + index] === byte);
}

function ascii(text: string): number[] {
  return [...text].map((char) => char.charCodeAt(0));
}

/** The image format named by the file's first bytes (its magic number), whatever its name or declared type says. */
export function detectImageKind(bytes: Uint8Array): ImageKind | undefined {
  if (startsWith(bytes, [0xff, 0xd8, 0xff])) return "jpeg";
  if (startsWith(bytes, PNG_SIGNATURE)) return "png";
  if (startsWith(bytes, ascii("RIFF")) && startsWith(bytes, ascii("WEBP"), 8)) return "webp";
  return undefined;
}

export type PhotoCheck = { ok: true; bytes: Buffer; kind: ImageKind } | { ok: false; message: string };

/**
 * Accepts a JPG, PNG or WebP of at most 5 MB. The declared type must be one of
 * those and the content must really be one of them: a renamed text file or
 * program is refused with the same message.
 */
export async function checkPhoto(file: File): Promise<PhotoCheck> {
  if (file.size > PHOTO_MAX_BYTES) return { ok: false, message: PHOTO_TOO_LARGE_MESSAGE };
  if (!(PHOTO_TYPES as readonly string[]).includes(file.type.toLowerCase())) return { ok: false, message: PHOTO_TYPE_MESSAGE };
  const bytes = Buffer.from(await file.arrayBuffer());
  const kind = detectImageKind(bytes);
  if (kind === undefined) return { ok: false, message: PHOTO_TYPE_MESSAGE };
  return { ok: true, bytes, kind };
}
