import type { Submission } from "@conform-to/react";
import { getZodConstraint, parseWithZod } from "@conform-to/zod/v4";
import { data } from "@remix-run/node";
import { z } from "zod";
import { cleanText, isMultiLine } from "~/domain/text";

/**
 * Every posted form is read here: the body within its size limit, the names
 * checked against the form's schema, the values cleaned of control characters.
 * Nothing a client sends can make the parser build more than the form defines.
 */

/** Ordinary forms are a few kilobytes; photo forms have their own, larger limit (images/photo-form.server.ts). */
export const FORM_MAX_BYTES = 64 * 1024;
/** More fields than any form has (the longest, with every specialty ticked, has about 30). */
export const FORM_MAX_FIELDS = 200;

export const FORM_MESSAGES = {
  tooLarge: "This form is too large to send. Please shorten your text.",
  wrongType: "This form could not be read: it must be sent as a web form.",
  unreadable: "This form could not be read. Please reload the page and try again.",
  unknownFields: "This form has fields the page does not have. Please reload the page and try again.",
  tooManyFields: "This form has too many fields. Please reload the page and try again.",
} as const;

export type FormRefusal = { status: 400 | 413 | 415; message: string };
export type FormRead = { formData: FormData; refusal: FormRefusal | null };

const FORM_MEDIA_TYPES = new Set(["application/x-www-form-urlencoded", "multipart/form-data"]);

/** The media type of a Content-Type header, without parameters, in lower case. */
export function mediaType(contentType: string | null): string {
  return (contentType ?? "").split(";", 1)[0]?.trim().toLowerCase() ?? "";
}

/**
 * Reads a plain (non-photo) form: only the two form encodings, at most
 * FORM_MAX_BYTES, at most FORM_MAX_FIELDS fields. Files are dropped: no plain form takes one.
 * A body that breaks a rule is refused, never thrown, so the page can answer with its message.
 */
export async function readForm(request: Request): Promise<FormRead> {
  const contentType = request.headers.get("Content-Type");
  if (!FORM_MEDIA_TYPES.has(mediaType(contentType))) return refused(415, FORM_MESSAGES.wrongType);
  const body = await readBodyWithin(request, FORM_MAX_BYTES);
  if (body === "too-large") return refused(413, FORM_MESSAGES.tooLarge);
  if (body === "unreadable") return refused(400, FORM_MESSAGES.unreadable);
  let parsed: FormData;
  try {
    // The same parser Request.formData() uses, run on bytes already known to be small.
    parsed = await new Response(body, { headers: { "Content-Type": contentType ?? "" } }).formData();
  } catch {
    return refused(400, FORM_MESSAGES.unreadable);
  }
  const formData = new FormData();
  let fields = 0;
  for (const [name, value] of parsed) {
    if (typeof value !== "string") continue;
    fields += 1;
    if (fields > FORM_MAX_FIELDS) return { formData, refusal: { status: 400, message: FORM_MESSAGES.tooManyFields } };
    formData.append(name, value);
  }
  return { formData, refusal: null };
}

function refused(status: FormRefusal["status"], message: string): FormRead {
  return { formData: new FormData(), refusal: { status, message } };
}

/** The body's bytes, stopping as soon as they pass the limit (a chunked body has no length to check first). */
export async function readBodyWithin(request: Request, limit: number): Promise<Uint8Array<ArrayBuffer> | "too-large" | "unreadable"> {
  if (!request.body) return new Uint8Array();
  const declared = Number(request.headers.get("Content-Length") ?? "0");
  if (declared > limit) return "too-large";
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  try {
    for (let read = await reader.read(); !read.done; read = await reader.read()) {
      total += read.value.byteLength;
      if (total > limit) {
        // Not cancelled: that would reset the connection before the client reads the 413.
        // The rest of the body is left unread; the server's body limit ends the connection.
        reader.releaseLock();
        return "too-large";
      }
      chunks.push(read.value);
    }
  } catch {
    // The client went away or sent a broken stream.
    return "unreadable";
  }
  return new Uint8Array(Buffer.concat(chunks));
}

/** A form's field names, and those of them that are lists (checkbox groups). */
type FormFields = { names: ReadonlySet<string>; lists: ReadonlySet<string> };

const formFieldsBySchema = new WeakMap<z.ZodType, FormFields>();

/** The names a schema's form has: `name`, and `name[]` for a list (sent as repeated `name` or `name[0]`, `name[1]`...). */
function formFields(schema: z.ZodType): FormFields {
  let fields = formFieldsBySchema.get(schema);
  if (!fields) {
    const constraints = Object.entries(getZodConstraint(schema));
    fields = {
      names: new Set(constraints.map(([name]) => name)),
      lists: new Set(constraints.filter(([, constraint]) => constraint.multiple).map(([name]) => name)),
    };
    formFieldsBySchema.set(schema, fields);
  }
  return fields;
}

const LIST_INDEX = /\[(\d+)\]/g;

/** The schema of a top-level field (`name` or `name[3]`), when the form's schema is an object. */
function fieldSchema(schema: z.ZodType, name: string): z.ZodType | undefined {
  if (!(schema instanceof z.ZodObject)) return undefined;
  return (schema.shape as Record<string, z.ZodType>)[name.replace(LIST_INDEX, "")];
}

/** "known" for a name the form has, "ignored" for a plain extra name (a button's), "refused" for an index or nesting the form does not define. */
function judgeName(name: string, names: ReadonlySet<string>): "known" | "ignored" | "refused" {
  if (names.has(name)) return "known";
  if (!/[[\].]/.test(name)) return "ignored";
  let indexesInRange = true;
  const asList = name.replace(LIST_INDEX, (_match, index: string) => {
    if (Number(index) >= FORM_MAX_FIELDS) indexesInRange = false;
    return "[]";
  });
  return indexesInRange && names.has(asList) ? "known" : "refused";
}

const refusalStatuses = new WeakMap<object, FormRefusal["status"]>();

type SubmissionOf<Schema extends z.ZodType> = Submission<z.input<Schema>, string[], z.output<Schema>>;

/**
 * Validates a read form against its schema. Only the fields the schema defines
 * reach the parser (so a name like `list[1000000000]` or `a.a.a...` never builds
 * anything), and a refused body or refused names give a submission with the
 * refusal's message whose echo holds only the form's own fields. A field that holds
 * one value and is sent twice keeps its first value.
 */
export function parseSubmission<Schema extends z.ZodType>(
  formData: FormData,
  schema: Schema,
  refusal: FormRefusal | null = null,
): SubmissionOf<Schema> {
  const { names, lists } = formFields(schema);
  const accepted = new FormData();
  let problem = refusal;
  for (const [name, value] of formData) {
    const judged = judgeName(name, names);
    if (judged === "refused") problem ??= { status: 400, message: FORM_MESSAGES.unknownFields };
    if (judged !== "known") continue;
    // A field that holds one value keeps the first one sent, as FormData.get() reads it everywhere else (decision 0006).
    if (accepted.has(name) && !lists.has(name)) continue;
    accepted.append(name, typeof value === "string" ? cleanText(value, isMultiLine(fieldSchema(schema, name))) : value);
  }
  if (!problem) return parseWithZod(accepted, { schema });
  const submission = parseWithZod(accepted, { schema: refusalSchema(problem.message) }) as unknown as SubmissionOf<Schema>;
  refusalStatuses.set(submission, problem.status);
  return submission;
}

/** A schema that fails the whole form with one message, so the reply carries it as the form's error. */
function refusalSchema(message: string) {
  return z.unknown().superRefine((_value, context) => context.addIssue({ code: "custom", message }));
}

/** Parses a posted form with its schema: the only validation a form gets (decision 0024). */
export async function parseForm<Schema extends z.ZodType>(request: Request, schema: Schema): Promise<SubmissionOf<Schema>> {
  const { formData, refusal } = await readForm(request);
  return parseSubmission(formData, schema, refusal);
}

/** The status a refused body asks for (413 too large, 415 wrong type), else 400. */
function refusalStatus(submission: Submission<unknown>): number {
  return refusalStatuses.get(submission) ?? 400;
}

/** Messages for the whole form and for named fields, added to the ones the schema found. */
export type SubmissionErrors = { formErrors?: string[]; fieldErrors?: Record<string, string[]> };

/**
 * The one answer to a refused form: status 400 (or the refused body's 413/415, or the
 * status given), the product's messages, the input echoed back so nothing typed is lost,
 * minus any field named in hideFields (passwords).
 */
export function rejectSubmission(
  submission: Submission<unknown>,
  options: SubmissionErrors & { hideFields?: string[]; status?: number; headers?: HeadersInit } = {},
) {
  const { formErrors, fieldErrors, hideFields, status = refusalStatus(submission), headers } = options;
  return data(submission.reply({ formErrors, fieldErrors, hideFields }), { status, headers });
}
