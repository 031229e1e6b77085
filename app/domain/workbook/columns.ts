/**
 * The kinds of column a workbook tab has: how a trimmed cell is read into a value and
 * written back as text, and what a spreadsheet that types its cells holds in it.
 */
import { z } from "zod";
import { dollarsCell, parseDollars, parsePercent } from "../referrals/money";
import { SERVICE_RADII, type ServiceRadius } from "../places/service-radius";

/**
 * What a column holds, for a spreadsheet that types its cells: `text` columns are
 * formatted as plain text so typed leading zeros and `+` survive, `time` cells typed by
 * staff arrive as date serial numbers, `number` and `flag` cells as numbers and booleans.
 */
export type CellKind = "text" | "time" | "number" | "flag";

/** One column: how a trimmed cell is read into a value, and how the value is written back as text. */
export type Column<T> = {
  readonly kind: CellKind;
  /**
   * A column the tab cannot be read without (ids, required e-mails and times, choices such
   * as status whose blank would mean something): when its header is missing the tab is
   * degraded rather than read with every cell blank.
   */
  readonly required?: true;
  /**
   * Values that repeat across many rows (e-mails, ids of the row pointed at): the replica
   * keeps one string per distinct value rather than a copy in every record.
   */
  readonly repeats?: true;
  readonly schema: z.ZodType<T, string>;
  /** Method syntax on purpose: a column of any value type must fit where a column of unknown values is expected. */
  write(value: T): string;
};

const asIs = (value: string) => value;

/** Free text; blank is allowed. */
export function text(): Column<string> {
  return { kind: "text", schema: z.string(), write: asIs };
}

/** Free text that rows written before the column existed lack: blank reads as undefined. */
export function optionalText(): Column<string | undefined> {
  return { kind: "text", schema: z.string().transform((cell) => (cell === "" ? undefined : cell)), write: (value) => value ?? "" };
}

export function requiredText(): Column<string> {
  return { kind: "text", required: true, schema: z.string().min(1, "is empty"), write: asIs };
}

/**
 * E-mail addresses are kept lower-cased so look-ups and comparisons ignore case. Typed ones
 * are lower-cased by the forms' schemas (`emailField`, `loginSchema`), so the app compares
 * an e-mail from a record or a parsed form as it is.
 */
export function email(options: { required: boolean } = { required: false }): Column<string> {
  const base = z.string().toLowerCase();
  return options.required
    ? { kind: "text", required: true, repeats: true, schema: base.min(1, "is empty"), write: asIs }
    : { kind: "text", repeats: true, schema: base, write: asIs };
}

/** The id of a row another tab holds (a conversation, a request, a referral): required, and repeated by every row that points at it. */
export function reference(): Column<string> {
  return { kind: "text", required: true, repeats: true, schema: z.string().min(1, "is empty"), write: asIs };
}

/** Two-letter state codes, upper-cased (`tx` = `TX`). */
export function stateCode(): Column<string> {
  return { kind: "text", schema: z.string().toUpperCase(), write: asIs };
}

/** One of a fixed list, case-insensitive (`Approved ` = `approved`); a blank cell takes the default when one is given. */
export function choice<const Values extends readonly [string, ...string[]]>(
  values: Values,
  blankMeans?: Values[number],
): Column<Values[number]> {
  const allowed = new Set<string>(values);
  const schema = z
    .string()
    .transform((cell) => (cell === "" && blankMeans !== undefined ? blankMeans : cell.toLowerCase()))
    .refine((value) => allowed.has(value), { message: `must be one of ${values.join(", ")}` })
    .transform((value) => value as Values[number]);
  return { kind: "text", required: true, schema, write: asIs };
}

/** One of a fixed list, case-insensitive, or blank (undefined): for a column added to rows that already exist. */
export function optionalChoice<const Values extends readonly [string, ...string[]]>(values: Values): Column<Values[number] | undefined> {
  const allowed = new Set<string>(values);
  const schema = z
    .string()
    .transform((cell) => cell.toLowerCase())
    .refine((value) => value === "" || allowed.has(value), { message: `must be blank or one of ${values.join(", ")}` })
    .transform((value) => (value === "" ? undefined : (value as Values[number])));
  return { kind: "text", schema, write: (value) => value ?? "" };
}

const TRUE_WORDS = new Set(["true", "yes", "y", "1", "x"]);
const FALSE_WORDS = new Set(["false", "no", "n", "0", ""]);

/** A yes/no cell: true, yes, 1 (any case) are true; false, no, 0 or blank are false. */
export function flag(): Column<boolean> {
  const schema = z
    .string()
    .transform((cell) => cell.toLowerCase())
    .refine((cell) => TRUE_WORDS.has(cell) || FALSE_WORDS.has(cell), { message: "must be true or false" })
    .transform((cell) => TRUE_WORDS.has(cell));
  return { kind: "flag", schema, write: (value) => (value ? "true" : "false") };
}

/** A whole number of zero or more; blank is 0. */
export function count(): Column<number> {
  const schema = z
    .string()
    .refine((cell) => /^\d*$/.test(cell), { message: "must be a whole number" })
    .transform((cell) => (cell === "" ? 0 : Number.parseInt(cell, 10)));
  return { kind: "number", schema, write: (value) => String(value) };
}

/** Stars from 1 to 5, as a whole number; blank (an aspect left unrated) reads as undefined. */
export function rating(): Column<number | undefined> {
  const schema = z
    .string()
    .refine((cell) => cell === "" || /^[1-5]$/.test(cell), { message: "must be a whole number from 1 to 5" })
    .transform((cell) => (cell === "" ? undefined : Number(cell)));
  return { kind: "number", schema, write: (stars) => (stars === undefined ? "" : String(stars)) };
}

/**
 * ISO 8601 only: a date, or a date and time with an optional zone (UTC when absent).
 * Anything else is refused rather than guessed: `47483` is not the year 47483 and
 * `3/4/2025` means different days in different countries.
 */
const ISO_TIME = /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.\d{1,9})?)?)?\s*(Z|[+-]\d{2}:?\d{2})?$/i;

function toIsoTime(cell: string): string | null {
  const match = ISO_TIME.exec(cell);
  if (!match) return null;
  const [, , month, day, hours = "00", minutes = "00"] = match;
  if (Number(month) < 1 || Number(month) > 12 || Number(day) < 1 || Number(day) > 31 || Number(hours) > 23 || Number(minutes) > 59)
    return null;
  const zoned = match[7] ? cell : `${cell.replace(" ", "T")}${match[4] === undefined ? "T00:00" : ""}Z`;
  const time = Date.parse(zoned.replace(" ", "T"));
  if (Number.isNaN(time)) return null;
  const date = new Date(time);
  // Date.parse rolls 2025-02-30 over to March; such a date was mistyped.
  if (!match[7] && date.getUTCDate() !== Number(day)) return null;
  return date.toISOString();
}

/** Google keeps a date as days since 30 December 1899 (a serial number); the fraction is the time of day. */
const SERIAL_EPOCH_MS = Date.UTC(1899, 11, 30);
const DAY_MS = 86_400_000;

/**
 * A cell as the Sheets API gives it unformatted (a string, a number or a boolean) as the
 * text the column reads: a date serial number in a time column becomes ISO 8601 (the
 * sheet's wall-clock time taken as UTC), numbers and booleans elsewhere their plain text.
 */
export function sheetValueText(kind: CellKind | undefined, value: unknown): string {
  if (value === null || value === undefined) return "";
  if (typeof value === "number" && kind === "time") return new Date(SERIAL_EPOCH_MS + Math.round(value * DAY_MS)).toISOString();
  if (typeof value === "boolean") return value ? "true" : "false";
  return String(value);
}

/** A point in time, read from ISO 8601 text (or a date the spreadsheet typed) and kept as ISO 8601 UTC. */
export function time(): Column<string> {
  const schema = z
    .string()
    .min(1, "is empty")
    .transform((cell, context) => {
      const iso = toIsoTime(cell);
      if (iso === null) {
        context.addIssue({ code: "custom", message: "is not a date and time" });
        return z.NEVER;
      }
      return iso;
    });
  return { kind: "time", required: true, schema, write: asIs };
}

export function optionalTime(): Column<string | undefined> {
  const schema = z.string().transform((cell, context) => {
    if (cell === "") return undefined;
    const iso = toIsoTime(cell);
    if (iso === null) {
      context.addIssue({ code: "custom", message: "is not a date and time" });
      return z.NEVER;
    }
    return iso;
  });
  return { kind: "time", schema, write: (value) => value ?? "" };
}

/**
 * A comma-separated list. Items matching a known option in any case are spelled as the
 * option is; other items are kept as typed.
 */
export function list(knownOptions: readonly string[] = []): Column<readonly string[]> {
  const canonical = new Map(knownOptions.map((option) => [option.toLowerCase(), option]));
  const schema = z.string().transform((cell) =>
    cell
      .split(",")
      .map((item) => item.trim())
      .filter((item) => item !== "")
      .map((item) => canonical.get(item.toLowerCase()) ?? item),
  );
  return { kind: "text", schema, write: (items) => items.join(", ") };
}

/**
 * Places as "City, ST", separated by semicolons ("Tyler, TX; Longview, TX"): a place's own
 * name holds a comma. Kept as typed; the gazetteer decides which of them are real places.
 */
export function placeList(): Column<readonly string[]> {
  const schema = z.string().transform((cell) =>
    cell
      .split(";")
      .map((item) => item.trim().replace(/\s+/g, " "))
      .filter((item) => item !== ""),
  );
  return { kind: "text", schema, write: (places) => places.join("; ") };
}

/** One of `SERVICE_RADII` ("25" or "25 mi"); blank reads as undefined. */
export function serviceRadius(): Column<ServiceRadius | undefined> {
  const schema = z.string().transform((cell, context) => {
    if (cell === "") return undefined;
    const miles = Number(cell.replace(/\s*(mi|miles?)\.?$/i, ""));
    const radius = SERVICE_RADII.find((each) => each === miles);
    if (radius === undefined) {
      context.addIssue({ code: "custom", message: `must be one of ${SERVICE_RADII.join(", ")} miles` });
      return z.NEVER;
    }
    return radius;
  });
  return { kind: "number", schema, write: (radius) => (radius === undefined ? "" : String(radius)) };
}

/** A dollar amount ("$1,234.50" or 1234.5), kept in whole cents; blank reads as undefined. */
export function amount(): Column<number | undefined> {
  const schema = z.string().transform((cell, context) => {
    if (cell === "") return undefined;
    const cents = parseDollars(cell);
    if (cents === null) {
      context.addIssue({ code: "custom", message: "is not an amount in dollars" });
      return z.NEVER;
    }
    return cents;
  });
  return { kind: "number", schema, write: (cents) => (cents === undefined ? "" : dollarsCell(cents)) };
}

/**
 * A cell Google formats as a percent keeps its fraction: staff typing "25%" leave 0.25, and
 * that is what the API reads unformatted. Percentages the app keeps run from 1 to 50, so a
 * number strictly between 0 and 1 can only be such a fraction (docs/decisions/0026).
 */
const PERCENT_FRACTION = /^0?\.\d+$/;

function percentOfCell(cell: string): number | null {
  if (PERCENT_FRACTION.test(cell)) return Math.round(Number(cell) * 10_000) / 100;
  return parsePercent(cell);
}

/** A percentage (25, "25%", or 0.25 from a cell formatted as a percent); blank reads as undefined. */
export function percentage(): Column<number | undefined> {
  const schema = z.string().transform((cell, context) => {
    if (cell === "") return undefined;
    const percent = percentOfCell(cell);
    if (percent === null) {
      context.addIssue({ code: "custom", message: "is not a percentage" });
      return z.NEVER;
    }
    return percent;
  });
  return { kind: "number", schema, write: (percent) => (percent === undefined ? "" : String(percent)) };
}

/**
 * A list of one-word names from a fixed set, as staff type it: separated by commas,
 * semicolons, slashes or spaces, with stray punctuation around a name ignored
 * (`Messages.; urgent` is messages and urgent). Names still not in the set are kept as
 * typed, for the tab's doubts to list; blank reads as undefined.
 */
export function optionalNameList(names: readonly string[]): Column<readonly string[] | undefined> {
  const canonical = new Map(names.map((name) => [name.toLowerCase(), name]));
  const schema = z.string().transform((cell) => {
    const items = cell
      .split(/[\s,;/|]+/)
      .map((item) => item.replace(/^[^\p{L}\p{N}]+|[^\p{L}\p{N}]+$/gu, ""))
      .filter((item) => item !== "")
      .map((item) => canonical.get(item.toLowerCase()) ?? item);
    return items.length === 0 ? undefined : [...new Set(items)];
  });
  return { kind: "text", schema, write: (values) => (values ?? []).join(", ") };
}
