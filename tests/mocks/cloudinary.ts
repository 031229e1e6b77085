import { createHash, randomBytes } from "node:crypto";
import sharp, { type Metadata } from "sharp";
import { listen, readBody, sendJson, type StandIn } from "./http";

/**
 * A local stand-in for Cloudinary's Upload API (POST /v1_1/{cloud}/image/upload),
 * so the real `cloudinary` SDK runs in tests. It checks the request the way
 * Cloudinary does: a known api_key, a timestamp under an hour old, and a signature
 * equal to the SHA-1 of every other parameter (except file, cloud_name,
 * resource_type and api_key) sorted by name and joined as `k=v&k=v`, followed by
 * the account's API secret. It answers with Cloudinary's upload result (or its
 * `{ error: { message } }` refusal) and keeps each stored image for the test.
 */
export type Account = { cloudName: string; apiKey: string; apiSecret: string };

type StoredImage = { publicId: string; params: Record<string, string>; bytes: Buffer; secureUrl: string };

export type FakeCloudinary = StandIn & {
  images: StoredImage[];
  /** The CLOUDINARY_URL an operator would set to send uploads here (its `upload_prefix` names this server). */
  cloudinaryUrl: string;
};

const UNSIGNED = new Set(["file", "cloud_name", "resource_type", "api_key", "signature", "signature_algorithm"]);
const SIGNATURE_LIFETIME_SECONDS = 60 * 60;

export function stringToSign(params: Record<string, string>): string {
  return Object.keys(params)
    .filter((name) => !UNSIGNED.has(name) && params[name] !== "")
    .sort()
    .map((name) => `${name}=${params[name]}`)
    .join("&");
}

function refuse(status: number, message: string) {
  return { status, body: { error: { message } } };
}

/** Why Cloudinary would refuse these parameters, or undefined when it would accept them. */
function checkSignature(account: Account, params: Record<string, string>): { status: number; body: unknown } | undefined {
  if (!params.api_key) return refuse(400, "Must supply api_key");
  if (params.api_key !== account.apiKey) return refuse(401, `Unknown API key ${params.api_key}`);
  if (!params.signature) return refuse(400, "Missing required parameter - signature");
  const timestamp = Number(params.timestamp);
  if (!Number.isInteger(timestamp)) return refuse(400, "Missing required parameter - timestamp");
  if (Date.now() / 1000 - timestamp > SIGNATURE_LIFETIME_SECONDS)
    return refuse(400, `Stale request - reported time is ${timestamp} which is more than 1 hour ago`);
  const toSign = stringToSign(params);
  const expected = createHash("sha1")
    .update(toSign + account.apiSecret)
    .digest("hex");
  if (params.signature !== expected) return refuse(401, `Invalid Signature ${params.signature}. String to sign - '${toSign}'.`);
  return undefined;
}

export async function startFakeCloudinary(account: Account): Promise<FakeCloudinary> {
  const images: StoredImage[] = [];
  const uploadPath = `/v1_1/${account.cloudName}/image/upload`;
  const standIn = await listen(async (request, response) => {
    const raw = await readBody(request);
    if (request.method !== "POST" || request.url !== uploadPath)
      return sendJson(response, 404, { error: { message: "Resource not found" } });
    const form = await new Request("http://stand-in/", {
      method: "POST",
      headers: { "Content-Type": request.headers["content-type"] ?? "" },
      body: new Uint8Array(raw),
    }).formData();
    const params: Record<string, string> = {};
    let file: Blob | undefined;
    for (const [name, value] of form) {
      if (typeof value === "string") params[name] = value;
      else if (name === "file") file = value;
    }
    const refusal = checkSignature(account, params);
    if (refusal) return sendJson(response, refusal.status, refusal.body);
    if (!file) return sendJson(response, 400, { error: { message: "Missing required parameter - file" } });
    const bytes = Buffer.from(await file.arrayBuffer());
    let metadata: Metadata;
    try {
      metadata = await sharp(bytes).metadata();
    } catch {
      return sendJson(response, 400, { error: { message: "Invalid image file" } });
    }
    const publicId = [params.folder, params.public_id ?? randomBytes(10).toString("hex")].filter(Boolean).join("/");
    const version = Math.floor(Date.now() / 1000);
    const format = metadata.format === "jpeg" ? "jpg" : String(metadata.format);
    const deliveryPath = `${account.cloudName}/image/upload/v${version}/${publicId}.${format}`;
    const secureUrl = `https://res.cloudinary.com/${deliveryPath}`;
    images.push({ publicId, params, bytes, secureUrl });
    sendJson(response, 200, {
      asset_id: randomBytes(16).toString("hex"),
      public_id: publicId,
      version,
      version_id: randomBytes(16).toString("hex"),
      signature: createHash("sha1").update(`public_id=${publicId}&version=${version}${account.apiSecret}`).digest("hex"),
      width: metadata.width,
      height: metadata.height,
      format,
      resource_type: "image",
      created_at: new Date(version * 1000).toISOString().replace(/\.\d{3}/, ""),
      tags: [],
      bytes: bytes.length,
      type: "upload",
      etag: createHash("md5").update(bytes).digest("hex"),
      placeholder: false,
      url: `http://res.cloudinary.com/${deliveryPath}`,
      secure_url: secureUrl,
      folder: params.folder ?? "",
      original_filename: "file",
      api_key: account.apiKey,
    });
  });
  const credentials = `${encodeURIComponent(account.apiKey)}:${encodeURIComponent(account.apiSecret)}`;
  return {
    ...standIn,
    images,
    cloudinaryUrl: `cloudinary://${credentials}@${account.cloudName}?upload_prefix=${encodeURIComponent(standIn.url)}`,
  };
}
