import {
  MaxPartSizeExceededError,
  unstable_createMemoryUploadHandler as createMemoryUploadHandler,
  unstable_parseMultipartFormData as parseMultipartFormData,
  type UploadHandler,
  type UploadHandlerPart,
} from "@remix-run/node";
import { PHOTO_MAX_BYTES } from "~/domain/profile";

/** Text fields are short (the longest, the bio, is 600 characters). */
const MAX_FIELD_BYTES = 16 * 1024;
/** The whole form: one photo and the text fields. */
export const MAX_FORM_BYTES = PHOTO_MAX_BYTES + 256 * 1024;

export type PhotoForm = {
  formData: FormData;
  /** What went over its limit, if anything: a file, or the form as a whole. Reading stopped there. */
  refused: "file" | "form" | undefined;
};

class PartRefusedError extends Error {
  override name = "PartRefusedError";
  constructor(readonly refused: "file" | "form") {
    super(refused === "file" ? "A file is larger than allowed" : "The form is larger than allowed");
  }
}

/**
 * Reads a form that may carry a photo, never holding more than the limits in
 * memory: a part over its limit stops the reading at once, before the rest of
 * the body arrives. Pages put the file input last, so the text fields read
 * before it are kept and shown again with the size message.
 */
export async function readPhotoForm(request: Request): Promise<PhotoForm> {
  const formData = new FormData();
  const contentType = request.headers.get("Content-Type") ?? "";
  if (!contentType.startsWith("multipart/form-data")) {
    return readUrlEncodedForm(request, formData);
  }
  const handler = collectingHandler(formData);
  try {
    await parseMultipartFormData(request, handler);
    return { formData, refused: undefined };
  } catch (error) {
    if (error instanceof PartRefusedError) return { formData, refused: error.refused };
    throw error;
  }
}

function collectingHandler(formData: FormData): UploadHandler {
  const files = createMemoryUploadHandler({ maxPartSize: PHOTO_MAX_BYTES });
  const fields = createMemoryUploadHandler({ maxPartSize: MAX_FIELD_BYTES });
  const total = { bytes: 0 };
  return async (part) => {
    const isFile = typeof part.filename === "string";
    const counted: UploadHandlerPart = { ...part, data: withinLimits(part.data, isFile ? PHOTO_MAX_BYTES : MAX_FIELD_BYTES, isFile, total) };
    try {
      const value = await (isFile ? files(counted) : fields(counted));
      if (value != null) formData.append(part.name, value);
      return value;
    } catch (error) {
      if (error instanceof MaxPartSizeExceededError) throw new PartRefusedError(isFile ? "file" : "form");
      throw error;
    }
  };
}

/** Passes a part's chunks on while the part and the whole form stay within their limits; the part's own limit is checked first. */
async function* withinLimits(data: AsyncIterable<Uint8Array>, partLimit: number, isFile: boolean, total: { bytes: number }): AsyncIterable<Uint8Array> {
  let partBytes = 0;
  for await (const chunk of data) {
    partBytes += chunk.byteLength;
    total.bytes += chunk.byteLength;
    if (partBytes > partLimit) throw new PartRefusedError(isFile ? "file" : "form");
    if (total.bytes > MAX_FORM_BYTES) throw new PartRefusedError("form");
    yield chunk;
  }
}

/** Plain forms carry no file; their body is read only up to the form limit. */
async function readUrlEncodedForm(request: Request, formData: FormData): Promise<PhotoForm> {
  if (!request.body) return { formData, refused: undefined };
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (let read = await reader.read(); !read.done; read = await reader.read()) {
    total += read.value.byteLength;
    if (total > MAX_FORM_BYTES) {
      await reader.cancel();
      return { formData, refused: "form" };
    }
    chunks.push(read.value);
  }
  const params = new URLSearchParams(Buffer.concat(chunks).toString("utf8"));
  for (const [name, value] of params) formData.append(name, value);
  return { formData, refused: undefined };
}
