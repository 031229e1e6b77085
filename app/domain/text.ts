import { z } from "zod";

/**
 * A required form field of trimmed text: `message` when blank or missing, `tooLong` past `max`.
 * (Not the workbook's `requiredText` column, which is about stored cells.)
 */
export function requiredTextField(message: string, max: number, tooLong: string) {
  return z.string({ error: message }).trim().min(1, message).max(max, tooLong);
}

/** An optional form field of trimmed text: blank is undefined (conform sends nothing for an empty input). */
export function optionalTextField(max: number, tooLong: string) {
  return z.string().trim().max(max, tooLong).optional();
}

/**
 * The fields typed in a textarea. Line breaks and tabs are kept in these and
 * turned into spaces in every other field, where no browser lets them be typed.
 */
const multiLineFields = new WeakSet<z.ZodType>();

/** Marks a form field as multi-line (a textarea); returns the same schema. */
export function multiLine<Schema extends z.ZodType>(schema: Schema): Schema {
  multiLineFields.add(schema);
  return schema;
}

export function isMultiLine(schema: z.ZodType | undefined): boolean {
  return schema !== undefined && multiLineFields.has(schema);
}

/**
 * C0 and C1 control characters other than tab, line feed and carriage return
 * (browsers send a textarea's line breaks as CR LF). NUL and friends break
 * mail headers, spreadsheets and terminals and are never typed on purpose.
 */
// eslint-disable-next-line no-control-regex -- control characters are what this pattern removes.
const CONTROL_CHARACTERS = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f]/g;
const LINE_BREAKS_AND_TABS = /[\t\r\n]+/g;

/** Whether cleanText() removes anything but line breaks and tabs from the value: what a form may have to say it changed. */
export function hasControlCharacters(value: string): boolean {
  return value.replace(CONTROL_CHARACTERS, "") !== value;
}

/** A submitted value without control characters; a single-line field's line breaks and tabs become one space. */
export function cleanText(value: string, isMultiLineField: boolean): string {
  const clean = value.replace(CONTROL_CHARACTERS, "");
  return isMultiLineField ? clean : clean.replace(LINE_BREAKS_AND_TABS, " ");
}
