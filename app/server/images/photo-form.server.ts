import {
  MaxPartSizeExceededError,
  unstable_createMemoryUploadHandler as createMemoryUploadHandler,
  unstable_parseMultipartFormData as parseMultipartFormData,
  type UploadHandler,
  type UploadHandlerPart,
} from "@remix-run/node";
import { PHOTO_MAX_BYTES, PHOTO_TOO_LARGE_MESSAGE } from "~/domain/profile";
import { FORM_MAX_FIELDS, FORM_MESSAGES, mediaType, readBodyWithin, type SubmissionErrors } from "~/server/forms.server";

/** Text fields are short (the longest, the bio, is 600 characters). */
const MAX_FIELD_BYTES = 16 * 1024;
/** The whole form: one photo and the text fields. */
export const MAX_FORM_BYTES = PHOTO_MAX_BYTES + 256 * 1024;

export type PhotoForm = {
  formData: FormData;
  /**
   * Why reading stopped, if it did: a file or the form as a whole went over its limit
   * (or the form had too many fields), or the body was not a readable web form.
   */
  refused: "file" | "form" | "unreadable" | undefined;
};

export const PHOTO_FORM_TOO_LARGE_MESSAGE = "This form is too large to send. Please shorten your text or choose a smaller photo.";

/** What a photo form's page answers when reading stopped: the message (beside the photo field for a large file) and the status. */
export function photoFormRefusal(refused: PhotoForm["refused"]): (SubmissionErrors & { status: number }) | null {
  if (refused === "file") return { fieldErrors: { photo: [PHOTO_TOO_LARGE_MESSAGE] }, status: 413 };
  if (refused === "form") return { formErrors: [PHOTO_FORM_TOO_LARGE_MESSAGE], status: 413 };
  if (refused === "unreadable") return { formErrors: [FORM_MESSAGES.unreadable], status: 400 };
  return null;
}

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
  const type = mediaType(request.headers.get("Content-Type"));
  if (type === "application/x-www-form-urlencoded") return readUrlEncodedForm(request, formData);
  if (type !== "multipart/form-data") return { formData, refused: "unreadable" };
  const handler = collectingHandler(formData);
  try {
    await parseMultipartFormData(request, handler);
    return { formData, refused: undefined };
  } catch (error) {
    if (error instanceof PartRefusedError) return { formData, refused: error.refused };
    // A missing or wrong boundary, a truncated body: the client's fault, not the server's.
    return { formData, refused: "unreadable" };
  }
}

function collectingHandler(formData: FormData): UploadHandler {
  const files = createMemoryUploadHandler({ maxPartSize: PHOTO_MAX_BYTES });
  const fields = createMemoryUploadHandler({ maxPartSize: MAX_FIELD_BYTES });
  const total = { bytes: 0, parts: 0 };
  return async (part) => {
    total.parts += 1;
    if (total.parts > FORM_MAX_FIELDS) throw new PartRefusedError("form");
    const isFile = typeof part.filename === "string";
    const counted: UploadHandlerPart = {
      ...part,
      data: withinLimits(part.data, isFile ? PHOTO_MAX_BYTES : MAX_FIELD_BYTES, isFile, total),
    };
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
async function* withinLimits(
  data: AsyncIterable<Uint8Array>,
  partLimit: number,
  isFile: boolean,
  total: { bytes: number; parts: number },
): AsyncIterable<Uint8Array> {
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
  const body = await readBodyWithin(request, MAX_FORM_BYTES);
  if (body === "too-large") return { formData, refused: "form" };
  if (body === "unreadable") return { formData, refused: "unreadable" };
  const params = new URLSearchParams(Buffer.from(body).toString("utf8"));
  let fields = 0;
  for (const [name, value] of params) {
    fields += 1;
    if (fields > FORM_MAX_FIELDS) return { formData, refused: "form" };
    formData.append(name, value);
  }
  return { formData, refused: undefined };
}
