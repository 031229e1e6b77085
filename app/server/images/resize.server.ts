/** The profile photo's stored size and quality (docs/product.md#constants). */
const PHOTO_SIZE = 400;
const PHOTO_QUALITY = 80;

/** Guards against "decompression bombs": a small file declaring an enormous picture. */
const MAX_INPUT_PIXELS = 40_000_000;

export class InvalidImageError extends Error {
  override name = "InvalidImageError";
  constructor(options: { cause: unknown }) {
    super("Invalid image file", options);
  }
}

/**
 * Crops to a centred square and scales to 400x400 JPEG at quality 80. The
 * camera's orientation is applied and metadata (GPS position, camera) dropped;
 * transparent PNG and WebP areas become white. The image library (libvips, 6 MB
 * resident, and its start-up) is loaded with the first photo, not with the server.
 */
export async function resizeProfilePhoto(bytes: Buffer): Promise<Buffer> {
  const { default: sharp } = await import("sharp");
  try {
    return await sharp(bytes, { limitInputPixels: MAX_INPUT_PIXELS, failOn: "error" })
      .rotate()
      .resize(PHOTO_SIZE, PHOTO_SIZE, { fit: "cover", position: "centre" })
      .flatten({ background: "#ffffff" })
      .jpeg({ quality: PHOTO_QUALITY, mozjpeg: true })
      .toBuffer();
  } catch (error) {
    throw new InvalidImageError({ cause: error });
  }
}
