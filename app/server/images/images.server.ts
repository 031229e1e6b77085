import { randomUUID } from "node:crypto";
import { mkdir, rename, writeFile } from "node:fs/promises";
import path from "node:path";
import { v2 as cloudinary, type UploadApiResponse } from "cloudinary";
import type { CloudinaryConfig, Config } from "../config.server";
import { UPLOADS_PATH } from "~/domain/stored-photo";
import { resizeProfilePhoto } from "./resize.server";

/** Where profile photos are kept: Cloudinary in production, files in DATA_DIR/uploads otherwise. */
export interface ImageService {
  readonly driver: "cloudinary" | "local";
  /** Resizes a checked photo and stores it; resolves to the URL the profile shows. */
  saveProfilePhoto(bytes: Buffer): Promise<string>;
}

export class ImageUploadError extends Error {
  override name = "ImageUploadError";
}

export function uploadsDirectory(config: Pick<Config, "dataDir">): string {
  return path.join(config.dataDir, "uploads");
}

export function createImageService(config: Config): ImageService {
  return config.cloudinary ? createCloudinaryImages(config.cloudinary) : createLocalImages(uploadsDirectory(config));
}

/** A random name, so stored files reveal nothing about their owner and cannot be guessed. */
function newPhotoName(): string {
  return `profile-${randomUUID()}`;
}

export function createLocalImages(directory: string): ImageService {
  return {
    driver: "local",
    async saveProfilePhoto(bytes) {
      const jpeg = await resizeProfilePhoto(bytes);
      const file = `${newPhotoName()}.jpg`;
      try {
        await mkdir(directory, { recursive: true });
        // Written under a temporary name and renamed, so the resource route never serves half a file.
        const target = path.join(directory, file);
        await writeFile(`${target}.tmp`, jpeg);
        await rename(`${target}.tmp`, target);
      } catch (error) {
        throw new ImageUploadError(`Could not store the photo: ${(error as Error).message}`, { cause: error });
      }
      return `${UPLOADS_PATH}${file}`;
    },
  };
}

const CLOUDINARY_FOLDER = "profiles";
const CLOUDINARY_TIMEOUT_MS = 20_000;

function createCloudinaryImages(credentials: CloudinaryConfig): ImageService {
  return {
    driver: "cloudinary",
    async saveProfilePhoto(bytes) {
      const jpeg = await resizeProfilePhoto(bytes);
      const uploaded = await uploadToCloudinary(credentials, jpeg);
      return uploaded.secure_url;
    },
  };
}

/** Credentials go with each call rather than into the library's global configuration. */
function uploadToCloudinary(credentials: CloudinaryConfig, jpeg: Buffer): Promise<UploadApiResponse> {
  return new Promise((resolve, reject) => {
    const stream = cloudinary.uploader.upload_stream(
      {
        cloud_name: credentials.cloudName,
        api_key: credentials.apiKey,
        api_secret: credentials.apiSecret,
        folder: CLOUDINARY_FOLDER,
        public_id: newPhotoName(),
        resource_type: "image",
        overwrite: false,
        timeout: CLOUDINARY_TIMEOUT_MS,
        ...(credentials.uploadPrefix === undefined ? {} : { upload_prefix: credentials.uploadPrefix }),
      },
      (error, result) => {
        if (error || !result) reject(new ImageUploadError(`Cloudinary upload failed: ${error?.message ?? "no result"}`, { cause: error }));
        else resolve(result);
      },
    );
    stream.end(jpeg);
  });
}
