/**
 * Reading the previous site's agent spreadsheet export (CSV) into agents to import.
 *
 * The export has a header row naming the columns fullName, email, city, state,
 * brokerage, specialties, password, photo and bio. Columns are found by header name
 * (trimmed, case-insensitive), so their order does not matter and extra columns are
 * ignored. Each data row either becomes an agent to import or is skipped with its
 * line number and the reason, never with the row's password.
 *
 * Pure: the caller reads the file, hashes the passwords and writes the store.
 */
import { CsvError, parse } from "csv-parse/sync";
import { z } from "zod";
import { MARKET_STATES, SPECIALTIES, type MarketState } from "~/domain/enums";

const IMPORT_COLUMNS = ["fullName", "email", "city", "state", "brokerage", "specialties", "password", "photo", "bio"] as const;
type ImportColumn = (typeof IMPORT_COLUMNS)[number];

/** Without these no row could be imported, so the whole file is refused. */
const REQUIRED_IMPORT_COLUMNS: readonly ImportColumn[] = ["fullName", "email", "state"];

/** A row that will become an approved agent. `password` is the plain text from the file: hash it, never keep it. */
export type AgentToImport = {
  /** Where the row starts in the file, counting the header as line 1. */
  line: number;
  fullName: string;
  email: string;
  city: string;
  state: MarketState;
  brokerage: string;
  specialties: string[];
  password: string;
  photoUrl: string;
  bio: string;
  /** Things the operator should know about this row (a dropped photo, no password). */
  notes: string[];
};

type SkippedRow = { line: number; reason: string };

export type ImportPlan = {
  agents: AgentToImport[];
  skipped: SkippedRow[];
  /** Optional columns the file lacks: those cells are blank for every agent. */
  missingColumns: ImportColumn[];
  /** Header names that are not import columns: their cells are not read. */
  ignoredColumns: string[];
};

/** The file as a whole cannot be imported (not CSV, no header, a required column missing). */
export class ImportFileError extends Error {
  override name = "ImportFileError";
}

export const NO_PASSWORD_NOTE = "no password in the file: the agent must use the password reset before logging in";

const emailSchema = z.email();
const marketStates = new Set<string>(MARKET_STATES);
const canonicalSpecialty = new Map<string, string>(SPECIALTIES.map((specialty) => [specialty.toLowerCase(), specialty]));

/** A parsed record and the byte offset where it ends (after its line break). */
type CsvRecord = { record: string[]; end: number };

/**
 * Plans an import: which rows become agents, which are skipped and why.
 * `existingEmails` are the lower-cased e-mails already in the store.
 */
export function planAgentImport(csv: string, existingEmails: ReadonlySet<string>): ImportPlan {
  const records = readCsv(csv);
  const headerAt = records.findIndex((entry) => !isBlank(entry.record));
  if (headerAt === -1) throw new ImportFileError("The file is empty: it needs a header row naming the columns, then one row per agent.");
  const lineAt = lineFinder(csv);
  const header = records[headerAt]!.record;
  const columns = locateColumns(header);

  const agents: AgentToImport[] = [];
  const skipped: SkippedRow[] = [];
  const firstLineOf = new Map<string, number>();
  records.forEach((entry, index) => {
    if (index <= headerAt || isBlank(entry.record)) return;
    // A record starts where the one before it ended.
    const line = lineAt(records[index - 1]!.end);
    // More cells than headers means a comma outside quotes shifted the row: its cells would land in the wrong columns.
    if (entry.record.length > header.length) {
      skipped.push({
        line,
        reason: `${entry.record.length} cells where the header names ${header.length} columns: a comma outside quotes?`,
      });
      return;
    }
    const cell = (column: ImportColumn) => {
      const at = columns.found.get(column);
      return at === undefined ? "" : (entry.record[at] ?? "");
    };
    const result = readRow(line, cell);
    if (!result.ok) {
      skipped.push({ line, reason: result.reason });
      return;
    }
    const { agent } = result;
    if (existingEmails.has(agent.email)) {
      skipped.push({ line, reason: `${agent.email} is already in the store` });
      return;
    }
    const earlier = firstLineOf.get(agent.email);
    if (earlier !== undefined) {
      skipped.push({ line, reason: `${agent.email} repeats line ${earlier}` });
      return;
    }
    firstLineOf.set(agent.email, line);
    agents.push(agent);
  });
  return { agents, skipped, missingColumns: columns.missing, ignoredColumns: columns.ignored };
}

function readCsv(csv: string): CsvRecord[] {
  const ends: number[] = [];
  try {
    // Blank lines are kept as records (and skipped later) so every line belongs to a record.
    const records = parse(csv, {
      bom: true,
      relax_column_count: true,
      on_record: (record, context) => {
        ends.push(context.bytes_records);
        return record;
      },
    });
    return records.map((record, index) => ({ record, end: ends[index]! }));
  } catch (error) {
    if (!(error instanceof CsvError)) throw error;
    // The parser's message quotes cell text, which may be a password: name only the place, the start of the row that failed.
    throw new ImportFileError(`The file is not valid CSV near line ${lineFinder(csv)(ends.at(-1) ?? 0)} (${error.code}).`);
  }
}

function isBlank(record: readonly string[]): boolean {
  return record.every((cell) => cell.trim() === "");
}

/**
 * The line of the file a byte offset falls on. The parser's own line count is off when
 * a quoted cell holds CRLF line breaks (it counts two), so lines are counted here from
 * the byte offsets the parser reports.
 */
function lineFinder(csv: string): (offset: number) => number {
  const bytes = new TextEncoder().encode(csv);
  const breaks: number[] = [];
  for (let position = 0; position < bytes.length; position += 1) {
    const byte = bytes[position];
    // CRLF is one break: count the LF, or a CR not followed by LF.
    if (byte === 0x0a || (byte === 0x0d && bytes[position + 1] !== 0x0a)) breaks.push(position);
  }
  return (offset) => {
    let low = 0;
    let high = breaks.length;
    while (low < high) {
      const middle = (low + high) >>> 1;
      if (breaks[middle]! < offset) low = middle + 1;
      else high = middle;
    }
    return low + 1;
  };
}

function locateColumns(header: readonly string[]): { found: Map<ImportColumn, number>; missing: ImportColumn[]; ignored: string[] } {
  const byKey = new Map<string, ImportColumn>(IMPORT_COLUMNS.map((column) => [column.toLowerCase(), column]));
  const found = new Map<ImportColumn, number>();
  const ignored: string[] = [];
  header.forEach((name, index) => {
    const column = byKey.get(name.trim().toLowerCase());
    if (column === undefined) {
      if (name.trim() !== "") ignored.push(name.trim());
      return;
    }
    if (found.has(column)) throw new ImportFileError(`The header row names the ${column} column twice: keep one and try again.`);
    found.set(column, index);
  });
  const absent = IMPORT_COLUMNS.filter((column) => !found.has(column));
  const required = absent.filter((column) => REQUIRED_IMPORT_COLUMNS.includes(column));
  if (required.length > 0) {
    throw new ImportFileError(
      `The header row has no ${required.join(", ")} column. The first row must name the columns: ${IMPORT_COLUMNS.join(", ")}.`,
    );
  }
  return { found, missing: absent, ignored };
}

type RowResult = { ok: true; agent: AgentToImport } | { ok: false; reason: string };

function readRow(line: number, cell: (column: ImportColumn) => string): RowResult {
  const fullName = cell("fullName").trim();
  if (fullName === "") return { ok: false, reason: "no name" };
  const email = cell("email").trim().toLowerCase();
  if (email === "") return { ok: false, reason: "no e-mail address" };
  if (!emailSchema.safeParse(email).success) return { ok: false, reason: `invalid e-mail address "${email}"` };
  const state = cell("state").trim().toUpperCase();
  if (!marketStates.has(state)) {
    return { ok: false, reason: state === "" ? "no state (TX or OK)" : `state "${state}" is not TX or OK` };
  }

  const notes: string[] = [];
  const photo = cell("photo").trim();
  const photoUrl = isWebAddress(photo) ? photo : "";
  if (photo !== "" && photoUrl === "") notes.push("photo left out: it is not an http(s) address");
  else if (photoUrl.startsWith("http:")) notes.push("photo kept, but pages show only https photos: change it to an https address");
  // Kept exactly as typed: the old site compared passwords by plain equality, spaces included.
  const typed = cell("password");
  const password = typed.trim() === "" ? "" : typed;
  if (password === "") notes.push(NO_PASSWORD_NOTE);

  return {
    ok: true,
    agent: {
      line,
      fullName,
      email,
      city: cell("city").trim(),
      state: state as MarketState,
      brokerage: cell("brokerage").trim(),
      specialties: readSpecialties(cell("specialties")),
      password,
      photoUrl,
      bio: cell("bio").trim(),
      notes,
    },
  };
}

/** Comma-separated; known specialties take their usual spelling, others are kept as typed, repeats dropped. */
function readSpecialties(cell: string): string[] {
  const items = cell
    .split(",")
    .map((item) => item.trim())
    .filter((item) => item !== "")
    .map((item) => canonicalSpecialty.get(item.toLowerCase()) ?? item);
  const seen = new Set<string>();
  return items.filter((item) => {
    const key = item.toLowerCase();
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

function isWebAddress(text: string): boolean {
  if (!URL.canParse(text)) return false;
  const { protocol } = new URL(text);
  return protocol === "http:" || protocol === "https:";
}
