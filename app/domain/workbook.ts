/**
 * The workbook contract: the tabs staff see in the spreadsheet, their header rows,
 * and how each row's text cells become a typed record and back.
 *
 * Rows are edited by people, so parsing is tolerant (cells trimmed, enumerations
 * case-insensitive, blank optional cells allowed) and strict only where a wrong
 * value would mislead the app (a missing id, an unknown status, an unreadable time).
 *
 * To add a column, append it to a tab's `columns`; to add a tab, define it with
 * `defineTab` and list it in `WORKBOOK`. The store and its replica are generic over
 * these definitions and need no change.
 */
import { z } from "zod";
import { SPECIALTIES } from "./enums";

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
  readonly schema: z.ZodType<T, string>;
  /** Method syntax on purpose: a column of any value type must fit where a column of unknown values is expected. */
  write(value: T): string;
};

type AnyColumns = { readonly id: Column<string> } & Record<string, Column<unknown>>;

type ColumnValue<C> = C extends Column<infer T> ? T : never;

type OptionalKeys<Columns> = { [K in keyof Columns]: undefined extends ColumnValue<Columns[K]> ? K : never }[keyof Columns];
type Simplify<T> = { [K in keyof T]: T[K] } & {};

/** The typed record of a tab: one property per column; columns that may be blank-as-undefined are optional. */
export type RecordOf<Columns> = Simplify<
  { readonly [K in Exclude<keyof Columns, OptionalKeys<Columns>>]: ColumnValue<Columns[K]> } & {
    readonly [K in OptionalKeys<Columns>]?: ColumnValue<Columns[K]>;
  }
>;

/** An index maps a record to zero, one or several keys; keys are compared trimmed and lower-cased. */
export type IndexKey = string | readonly string[] | undefined;

/** Method-typed so a tab with specific records still fits where any tab is expected. */
type IndexFunction<Record> = { key(record: Record): IndexKey }["key"];

export type TabDefinition<Columns extends AnyColumns = AnyColumns, IndexName extends string = string> = {
  /** The tab's name in the spreadsheet, the table's name in SQLite. */
  readonly name: string;
  readonly columns: Columns;
  /** The header row, in the order the app creates it (staff may reorder columns later). */
  readonly headers: readonly string[];
  /** Each header's cell kind. */
  readonly kinds: Readonly<Record<string, CellKind>>;
  /** Headers of required columns. */
  readonly requiredHeaders: readonly string[];
  /**
   * Append-only tabs only ever grow at the bottom, so a refresh reads just their new
   * rows; mutable tabs are re-read whole.
   */
  readonly appendOnly: boolean;
  readonly indexes: { readonly [I in IndexName]: IndexFunction<RecordOf<Columns>> };
  /**
   * For tabs whose ids are made from the row's content (so two app instances may append
   * the same row at once): two rows with one id are one record, merged by this, rather
   * than the second being skipped as a duplicate.
   */
  readonly mergeDuplicates?: MergeFunction<RecordOf<Columns>>;
};

/** Method-typed for the same reason as IndexFunction. */
type MergeFunction<Record> = { merge(first: Record, later: Record): Record }["merge"];

export type TabRecord<Tab> = Tab extends TabDefinition<infer Columns, string> ? RecordOf<Columns> : never;
export type TabIndexName<Tab> = Tab extends TabDefinition<AnyColumns, infer IndexName> ? IndexName : never;

export function defineTab<Columns extends AnyColumns, IndexName extends string>(definition: {
  name: string;
  appendOnly: boolean;
  columns: Columns;
  indexes: { [I in IndexName]: (record: RecordOf<Columns>) => IndexKey };
  mergeDuplicates?: (first: RecordOf<Columns>, later: RecordOf<Columns>) => RecordOf<Columns>;
}): TabDefinition<Columns, IndexName> {
  const kinds = Object.fromEntries(Object.entries(definition.columns).map(([header, column]) => [header, column.kind]));
  const requiredHeaders = Object.entries(definition.columns)
    .filter(([, column]) => column.required)
    .map(([header]) => header);
  return { ...definition, headers: Object.keys(definition.columns), kinds, requiredHeaders };
}

// ---------------------------------------------------------------------------
// Column kinds

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

/** E-mail addresses are kept lower-cased so look-ups and comparisons ignore case. */
export function email(options: { required: boolean } = { required: false }): Column<string> {
  const base = z.string().toLowerCase();
  return options.required ? { kind: "text", required: true, schema: base.min(1, "is empty"), write: asIs } : { kind: "text", schema: base, write: asIs };
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

/**
 * ISO 8601 only: a date, or a date and time with an optional zone (UTC when absent).
 * Anything else is refused rather than guessed: `47483` is not the year 47483 and
 * `3/4/2025` means different days in different countries.
 */
const ISO_TIME = /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.\d{1,9})?)?)?\s*(Z|[+-]\d{2}:?\d{2})?$/i;

function toIsoTime(cell: string): string | null {
  const match = ISO_TIME.exec(cell);
  if (!match) return null;
  const [, year, month, day, hours = "00", minutes = "00"] = match;
  if (Number(month) < 1 || Number(month) > 12 || Number(day) < 1 || Number(day) > 31 || Number(hours) > 23 || Number(minutes) > 59) return null;
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

// ---------------------------------------------------------------------------
// The tabs

export const AGENT_STATUSES = ["pending", "approved", "rejected"] as const;
export type AgentStatus = (typeof AGENT_STATUSES)[number];
export const MEMBERSHIP_TYPES = ["founder", "vip", "member"] as const;
export type MembershipType = (typeof MEMBERSHIP_TYPES)[number];
export const REQUEST_TYPE_VALUES = ["referral", "listing", "buyer"] as const;
export type RequestType = (typeof REQUEST_TYPE_VALUES)[number];
export const REQUEST_STATUSES = ["active", "deleted", "expired"] as const;
export type RequestStatus = (typeof REQUEST_STATUSES)[number];

export const AGENTS_TAB = defineTab({
  name: "Agents",
  appendOnly: false,
  columns: {
    id: requiredText(),
    fullName: text(),
    email: email({ required: true }),
    phone: text(),
    state: stateCode(),
    city: text(),
    zipCode: text(),
    licenseNumber: text(),
    licenseState: stateCode(),
    licenseExpiration: text(),
    brokerage: text(),
    brokerEmail: email(),
    specialties: list(SPECIALTIES),
    bio: text(),
    photoUrl: text(),
    membershipType: choice(MEMBERSHIP_TYPES, "member"),
    vipCode: text(),
    status: choice(AGENT_STATUSES, "pending"),
    statusNote: text(),
    passwordHash: text(),
    createdAt: time(),
    updatedAt: optionalTime(),
    /** Sessions that began at or before this time are over: set by logging out. */
    sessionsEndedAt: optionalTime(),
    /** The license check's verdict for staff, e.g. "TX active, name matches, broker matches" or "check OREC". */
    licenseCheck: optionalText(),
    licenseCheckedAt: optionalTime(),
    /** The facts behind the verdict: license type, status, expiration, name on the license, sponsoring broker. */
    licenseCheckNote: optionalText(),
  },
  indexes: {
    email: (agent) => agent.email,
    status: (agent) => agent.status,
    state: (agent) => agent.state,
    specialty: (agent) => agent.specialties,
  },
});

export const REQUESTS_TAB = defineTab({
  name: "Requests",
  appendOnly: false,
  columns: {
    id: requiredText(),
    requestType: choice(REQUEST_TYPE_VALUES),
    title: text(),
    location: text(),
    state: stateCode(),
    specialty: text(),
    priceRange: text(),
    clientType: text(),
    timeline: text(),
    contactPreference: text(),
    listingAddress: text(),
    listingMLS: text(),
    description: text(),
    urgent: flag(),
    agentEmail: email({ required: true }),
    agentName: text(),
    status: choice(REQUEST_STATUSES, "active"),
    responses: count(),
    createdAt: time(),
    updatedAt: optionalTime(),
    expiresAt: optionalTime(),
    /** When the poster was last mailed about a response: at most one such mail per request every 10 minutes. */
    lastNotifiedAt: optionalTime(),
  },
  indexes: {
    agentEmail: (request) => request.agentEmail,
    status: (request) => request.status,
  },
});

export const RESPONSES_TAB = defineTab({
  name: "Responses",
  appendOnly: true,
  columns: {
    id: requiredText(),
    requestId: requiredText(),
    fromEmail: email({ required: true }),
    fromName: text(),
    toEmail: email({ required: true }),
    message: text(),
    createdAt: time(),
  },
  indexes: {
    requestId: (response) => response.requestId,
    fromEmail: (response) => response.fromEmail,
    toEmail: (response) => response.toEmail,
  },
});

export const MESSAGES_TAB = defineTab({
  name: "Messages",
  appendOnly: true,
  columns: {
    id: requiredText(),
    conversationId: requiredText(),
    fromEmail: email({ required: true }),
    toEmail: email({ required: true }),
    text: text(),
    createdAt: time(),
  },
  indexes: {
    conversationId: (message) => message.conversationId,
    fromEmail: (message) => message.fromEmail,
    toEmail: (message) => message.toEmail,
  },
});

/**
 * One row per member per conversation they have opened or been mailed about: how far
 * they have read (unread counts survive reloads and other devices) and when they were
 * last mailed about it (the notification throttle). Updated in place, never deleted.
 */
export const CONVERSATION_MEMBERS_TAB = defineTab({
  name: "ConversationMembers",
  appendOnly: false,
  columns: {
    id: requiredText(),
    conversationId: requiredText(),
    agentEmail: email({ required: true }),
    lastReadAt: optionalTime(),
    lastNotifiedAt: optionalTime(),
  },
  indexes: {
    conversationId: (row) => row.conversationId,
    agentEmail: (row) => row.agentEmail,
  },
  // Ids are conversation/e-mail, so two instances can add the same row at once: keep the furthest read and latest mail.
  mergeDuplicates: (first, later) => ({
    ...first,
    lastReadAt: latestTime(first.lastReadAt, later.lastReadAt),
    lastNotifiedAt: latestTime(first.lastNotifiedAt, later.lastNotifiedAt),
  }),
});

function latestTime(a: string | undefined, b: string | undefined): string | undefined {
  if (a === undefined) return b;
  if (b === undefined) return a;
  return a >= b ? a : b;
}

export const CONTACT_TAB = defineTab({
  name: "Contact",
  appendOnly: true,
  columns: {
    id: requiredText(),
    name: text(),
    email: email({ required: true }),
    subject: text(),
    category: text(),
    message: text(),
    agentLicense: text(),
    // Not a state code: the contact form stores the spec's "Not provided" when no state was chosen.
    state: text(),
    createdAt: time(),
  },
  indexes: {
    email: (contact) => contact.email,
  },
});

export const MARK_KINDS = ["interested", "saved"] as const;
export type MarkKind = (typeof MARK_KINDS)[number];
export const MARK_STATUSES = ["active", "removed"] as const;

/**
 * A member's Interested and Save marks on requests. Unsaving sets the status to
 * removed rather than deleting the row, so the tab keeps every mark ever made.
 */
export const MARKS_TAB = defineTab({
  name: "Marks",
  appendOnly: false,
  columns: {
    id: requiredText(),
    agentEmail: email({ required: true }),
    requestId: requiredText(),
    kind: choice(MARK_KINDS),
    status: choice(MARK_STATUSES, "active"),
    createdAt: time(),
    updatedAt: optionalTime(),
  },
  indexes: {
    agentEmail: (mark) => mark.agentEmail,
    requestId: (mark) => mark.requestId,
  },
});

/** Every tab of the workbook, by the name the store's collections take. */
export const WORKBOOK = {
  agents: AGENTS_TAB,
  requests: REQUESTS_TAB,
  responses: RESPONSES_TAB,
  messages: MESSAGES_TAB,
  conversationMembers: CONVERSATION_MEMBERS_TAB,
  contact: CONTACT_TAB,
  marks: MARKS_TAB,
} as const;

export type Workbook = typeof WORKBOOK;
export type CollectionName = keyof Workbook;
export type CollectionRecord<Name extends CollectionName> = TabRecord<Workbook[Name]>;
export type CollectionIndex<Name extends CollectionName> = TabIndexName<Workbook[Name]>;

export type Agent = CollectionRecord<"agents">;
export type ReferralRequest = CollectionRecord<"requests">;
export type RequestResponse = CollectionRecord<"responses">;
export type Message = CollectionRecord<"messages">;
export type ConversationMember = CollectionRecord<"conversationMembers">;
export type ContactRow = CollectionRecord<"contact">;
export type RequestMark = CollectionRecord<"marks">;

// ---------------------------------------------------------------------------
// Rows ↔ records

/** A row as text cells by header name; missing cells count as blank. */
export type RowCells = Readonly<Record<string, string | undefined>>;

export type RowParse<T> = { ok: true; record: T } | { ok: false; reason: string } | { ok: "blank" };

/** True when every cell the tab knows is blank: such rows are skipped silently. */
export function isBlankRow(tab: TabDefinition, cells: RowCells): boolean {
  return tab.headers.every((header) => (cells[header] ?? "").trim() === "");
}

/** Reads one row into a record, trimming every cell; the reason names each column that did not read. */
export function parseRow<Tab extends TabDefinition>(tab: Tab, cells: RowCells): RowParse<TabRecord<Tab>> {
  if (isBlankRow(tab, cells)) return { ok: "blank" };
  const record: Record<string, unknown> = {};
  const problems: string[] = [];
  for (const header of tab.headers) {
    const column = tab.columns[header] as Column<unknown>;
    const result = column.schema.safeParse((cells[header] ?? "").trim());
    if (result.success) record[header] = result.data;
    else problems.push(`${header} ${result.error.issues.map((issue) => issue.message).join(", ")}`);
  }
  if (problems.length > 0) return { ok: false, reason: problems.join("; ") };
  return { ok: true, record: record as TabRecord<Tab> };
}

/** Writes a record as text cells by header name. */
export function serialiseRecord<Tab extends TabDefinition>(tab: Tab, record: TabRecord<Tab>): Record<string, string> {
  const cells: Record<string, string> = {};
  const values = record as Record<string, unknown>;
  for (const header of tab.headers) {
    const column = tab.columns[header] as Column<unknown>;
    cells[header] = column.write(values[header]);
  }
  return cells;
}

/** The index keys of a record, normalised the way look-ups normalise theirs. */
export function indexKeys(key: IndexKey): string[] {
  if (key === undefined) return [];
  const keys = typeof key === "string" ? [key] : key;
  return keys.map(normaliseIndexKey).filter((item) => item !== "");
}

export function normaliseIndexKey(key: string): string {
  return key.trim().toLowerCase();
}
