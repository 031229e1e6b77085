import { readFile } from "node:fs/promises";
import path from "node:path";
import type { LoaderFunctionArgs } from "@remix-run/node";
import { UPLOAD_FILE_NAME } from "~/domain/stored-photo";
import { notFound } from "~/server/http.server";
import { uploadsDirectory } from "~/server/images/images.server";

const CONTENT_TYPES: Record<string, string> = { jpg: "image/jpeg", png: "image/png", webp: "image/webp" };

/** A stored file never changes (each upload gets a new random name), so browsers may keep it for a year. */
const CACHE_FOREVER = "public, max-age=31536000, immutable";

/**
 * Serves profile photos kept locally (no Cloudinary). Only names the app generates are accepted: no paths, no dots but the extension's.
 * `X-Content-Type-Options: nosniff` comes with every response from the security middleware (app/server/http.server.ts).
 */
export async function loader({ params, context }: LoaderFunctionArgs) {
  const name = params.file ?? "";
  const match = UPLOAD_FILE_NAME.exec(name);
  if (!match?.[1]) return notFound();
  let bytes: Buffer;
  try {
    bytes = await readFile(path.join(uploadsDirectory(context.services.config), name));
  } catch {
    return notFound();
  }
  return new Response(new Uint8Array(bytes), {
    headers: {
      "Content-Type": CONTENT_TYPES[match[1]] ?? "application/octet-stream",
      "Content-Length": String(bytes.byteLength),
      "Cache-Control": CACHE_FOREVER,
    },
  });
}
