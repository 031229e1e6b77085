import { randomBytes, verify, type KeyObject } from "node:crypto";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import {
  FakeSpreadsheet,
  SheetsRequestError,
  type CellInput,
  type DataFilter,
  type DateTimeRenderOption,
  type DeveloperMetadataLookup,
  type DimensionRange,
  type GridRange,
  type MetadataMatch,
  type NumberFormat,
  type Render,
  type ValueInputOption,
  type ValueRenderOption,
} from "./spreadsheet";

/**
 * A local stand-in for the Google Sheets v4 REST API: the subset the store's Sheets
 * driver calls, cells held in memory and typed as Google types them, with switches to
 * inject the faults the real service shows (429 quota answers, 500s, slowness, dropped
 * connections, a Viewer-only share) and the edits staff make between two of the app's calls.
 */

export type CallKind =
  | "spreadsheets.get"
  | "spreadsheets.batchUpdate"
  | "developerMetadata.search"
  | "values.get"
  | "values.batchGet"
  | "values.batchGetByDataFilter"
  | "values.append"
  | "values.update"
  | "values.batchUpdate"
  | "values.batchUpdateByDataFilter";

/** One request received; `ranges` is how many ranges a values.batchGet asked for. */
export type Call = { kind: CallKind; method: string; spreadsheetId: string; at: number; ranges: number };

type Fault = { times: number; match: (call: Call) => boolean } & ({ status: number } | { drop: "before" | "after" });

/** What the service account may do with a spreadsheet: a Viewer share reads but every write is refused with 403. */
type ShareRole = "writer" | "reader";

/**
 * The service account the fake signs in, as Google's token endpoint does: `POST /token`
 * takes a JWT-bearer assertion signed with the account's private key and answers an
 * access token, and every Sheets request must then carry one of the tokens it gave.
 */
type FakeServiceAccount = { clientEmail: string; publicKey: KeyObject | string };

export type FakeSheetsOptions = { port?: number; host?: string; serviceAccount?: FakeServiceAccount };

export type FakeSheetsServer = {
  /** The `rootUrl` to give the client, e.g. http://127.0.0.1:41234/ */
  readonly url: string;
  /** The spreadsheet with this id, created empty on first use by a test; a request for an id never created is answered 404, as Google does. */
  spreadsheet(spreadsheetId: string): FakeSpreadsheet;
  /** Shares the spreadsheet with the service account as Editor (the default) or Viewer. */
  share(spreadsheetId: string, role: ShareRole): void;
  /** Every request received, faulty or not, in order. */
  readonly calls: Call[];
  /** The next `times` matching requests are answered with `status` and change nothing. */
  failNext(times: number, status: number, match?: (call: Call) => boolean): void;
  /** The next `times` matching requests lose their connection, before or after the change is made. */
  dropNext(times: number, when: "before" | "after", match?: (call: Call) => boolean): void;
  /**
   * Staff at work between two of the app's calls: `edit` runs on the spreadsheet just
   * before the next matching request is handled (by default the next write).
   */
  beforeNext(edit: (book: FakeSpreadsheet) => void, match?: (call: Call) => boolean): void;
  /** While on, every request is answered 503 ("error") or loses its connection ("drop"). */
  setOutage(mode: "off" | "error" | "drop"): void;
  /** Delay before each answer. */
  setLatency(milliseconds: number): void;
  /**
   * Google's per-user quota: at most this many read and write requests in any window
   * (a minute; shorter to run a benchmark faster), the rest answered 429. Off when undefined.
   */
  setQuota(quota: Quota | undefined): void;
  /** How many access tokens `POST /token` has given (always 0 without a service account). */
  tokensIssued(): number;
  /** How many requests the quota refused so far. */
  quotaRefusals(): number;
  clearFaults(): void;
  close(): Promise<void>;
};

const READ_KINDS = new Set<CallKind>([
  "spreadsheets.get",
  "developerMetadata.search",
  "values.get",
  "values.batchGet",
  "values.batchGetByDataFilter",
]);
const isWrite = (call: Call) => !READ_KINDS.has(call.kind);
export const matchers = {
  any: () => true,
  writes: isWrite,
  reads: (call: Call) => !isWrite(call),
  kind: (kind: CallKind) => (call: Call) => call.kind === kind,
};

const STATUS_TEXT: Record<number, string> = {
  400: "INVALID_ARGUMENT",
  401: "UNAUTHENTICATED",
  403: "PERMISSION_DENIED",
  404: "NOT_FOUND",
  429: "RESOURCE_EXHAUSTED",
  500: "INTERNAL",
  503: "UNAVAILABLE",
};

/** The messages Google gives for the statuses the app must tell apart. */
const GOOGLE_MESSAGES: Record<number, string> = {
  403: "The caller does not have permission",
  404: "Requested entity was not found.",
  500: "Internal error encountered.",
};

function googleError(response: ServerResponse, status: number, message: string, details?: unknown[]): void {
  sendJson(response, status, {
    error: { code: status, message, status: STATUS_TEXT[status] ?? "UNKNOWN", ...(details ? { details } : {}) },
  });
}

/** Google's 429 body: which per-minute quota ran out, with the ErrorInfo detail its clients read. */
function quotaError(response: ServerResponse, call: Call): void {
  const [metric, limit] = isWrite(call)
    ? ["Write requests", "WriteRequestsPerMinutePerUser"]
    : ["Read requests", "ReadRequestsPerMinutePerUser"];
  const message = `Quota exceeded for quota metric '${metric}' and limit '${metric.replace(" requests", "")} requests per minute per user' of service 'sheets.googleapis.com' for consumer 'project_number:000000000000'.`;
  googleError(response, 429, message, [
    {
      "@type": "type.googleapis.com/google.rpc.ErrorInfo",
      reason: "RATE_LIMIT_EXCEEDED",
      domain: "googleapis.com",
      metadata: {
        service: "sheets.googleapis.com",
        quota_metric: `sheets.googleapis.com/${metric.toLowerCase().replace(" ", "_")}`,
        quota_limit: limit,
        consumer: "projects/000000000000",
      },
    },
  ]);
}

const JWT_BEARER = "urn:ietf:params:oauth:grant-type:jwt-bearer";
/** The audience Google requires in a service account's assertion, wherever it is posted. */
const TOKEN_AUDIENCE = "https://oauth2.googleapis.com/token";
const SHEETS_SCOPE = "https://www.googleapis.com/auth/spreadsheets";
const TOKEN_SECONDS = 3599;

/** Google's token endpoint errors: an OAuth error code and description, not the API's error shape. */
class TokenError extends Error {
  constructor(
    readonly code: "invalid_grant" | "unsupported_grant_type" | "invalid_scope",
    description: string,
  ) {
    super(description);
  }
}

function base64UrlJson(part: string | undefined): Record<string, unknown> {
  try {
    const value: unknown = JSON.parse(Buffer.from(part ?? "", "base64url").toString("utf8"));
    return typeof value === "object" && value !== null ? (value as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

/** Checks an RS256 assertion as Google does: signature, issuer, audience, scope and lifetime (at most an hour). */
function verifyAssertion(form: URLSearchParams, account: FakeServiceAccount, now: number): void {
  if (form.get("grant_type") !== JWT_BEARER)
    throw new TokenError("unsupported_grant_type", "Invalid grant_type: " + (form.get("grant_type") ?? ""));
  const [header, claims, signature, ...extra] = (form.get("assertion") ?? "").split(".");
  if (header === undefined || claims === undefined || signature === undefined || extra.length > 0)
    throw new TokenError("invalid_grant", "Invalid JWT: Token must be a short-lived token (60 minutes) and in a reasonable timeframe.");
  if (base64UrlJson(header).alg !== "RS256") throw new TokenError("invalid_grant", "Invalid JWT Signature.");
  const signed = verify("RSA-SHA256", Buffer.from(`${header}.${claims}`), account.publicKey, Buffer.from(signature, "base64url"));
  if (!signed) throw new TokenError("invalid_grant", "Invalid JWT Signature.");
  const { iss, aud, scope, iat, exp } = base64UrlJson(claims);
  if (iss !== account.clientEmail) throw new TokenError("invalid_grant", "Invalid grant: account not found");
  if (aud !== TOKEN_AUDIENCE) throw new TokenError("invalid_grant", "Invalid JWT: Failed audience check.");
  if (typeof scope !== "string" || !scope.split(" ").includes(SHEETS_SCOPE))
    throw new TokenError("invalid_scope", "Invalid OAuth scope or ID token audience provided.");
  const seconds = Math.floor(now / 1000);
  if (typeof iat !== "number" || typeof exp !== "number" || exp <= seconds || exp - iat > 3600 || iat > seconds + 300) {
    throw new TokenError("invalid_grant", "Invalid JWT: Token must be a short-lived token (60 minutes) and in a reasonable timeframe.");
  }
}

function sendJson(response: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  response.writeHead(status, { "content-type": "application/json; charset=UTF-8", "content-length": Buffer.byteLength(text) });
  response.end(text);
}

async function readText(request: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString("utf8");
}

async function readBody(request: IncomingMessage): Promise<unknown> {
  const text = await readText(request);
  return text === "" ? {} : (JSON.parse(text) as unknown);
}

type Route = { kind: CallKind; spreadsheetId: string; range?: string };

/** Maps `/v4/spreadsheets/{id}...` to the API method it names. */
function route(method: string, pathname: string): Route | undefined {
  const match = /^\/v4\/spreadsheets\/([^/]+)(\/.*)?$/.exec(pathname);
  if (!match) return undefined;
  const head = decodeURIComponent(match[1]!);
  const rest = match[2] ? decodeURIComponent(match[2]) : "";
  if (rest === "") {
    if (method === "GET") return { kind: "spreadsheets.get", spreadsheetId: head };
    if (method === "POST" && head.endsWith(":batchUpdate"))
      return { kind: "spreadsheets.batchUpdate", spreadsheetId: head.slice(0, -":batchUpdate".length) };
    return undefined;
  }
  if (rest === "/values:batchGet" && method === "GET") return { kind: "values.batchGet", spreadsheetId: head };
  if (rest === "/values:batchUpdate" && method === "POST") return { kind: "values.batchUpdate", spreadsheetId: head };
  if (rest === "/values:batchGetByDataFilter" && method === "POST") return { kind: "values.batchGetByDataFilter", spreadsheetId: head };
  if (rest === "/values:batchUpdateByDataFilter" && method === "POST")
    return { kind: "values.batchUpdateByDataFilter", spreadsheetId: head };
  if (rest === "/developerMetadata:search" && method === "POST") return { kind: "developerMetadata.search", spreadsheetId: head };
  if (!rest.startsWith("/values/")) return undefined;
  const range = rest.slice("/values/".length);
  if (method === "POST" && range.endsWith(":append"))
    return { kind: "values.append", spreadsheetId: head, range: range.slice(0, -":append".length) };
  if (method === "GET") return { kind: "values.get", spreadsheetId: head, range };
  if (method === "PUT") return { kind: "values.update", spreadsheetId: head, range };
  return undefined;
}

function valueInputOption(query: URLSearchParams, body: { valueInputOption?: unknown } = {}): ValueInputOption {
  const option = query.get("valueInputOption") ?? body.valueInputOption;
  if (option !== "RAW" && option !== "USER_ENTERED") {
    throw new SheetsRequestError("Invalid valueInputOption: must be RAW or USER_ENTERED");
  }
  return option;
}

type ValuesBody = { values?: CellInput[][]; range?: string };
type CellData = { userEnteredValue?: { stringValue?: string; numberValue?: number; boolValue?: boolean; formulaValue?: string } };
type BatchRequest = {
  addSheet?: { properties?: { title?: string; gridProperties?: { rowCount?: number; columnCount?: number } } };
  appendDimension?: { sheetId?: number; dimension?: string; length?: number };
  insertDimension?: { range?: DimensionRange };
  deleteDimension?: { range?: DimensionRange };
  moveDimension?: { source?: DimensionRange; destinationIndex?: number };
  sortRange?: { range?: GridRange; sortSpecs?: { dimensionIndex?: number; sortOrder?: string }[] };
  appendCells?: { sheetId?: number; rows?: { values?: CellData[] }[]; fields?: string };
  updateCells?: {
    start?: { sheetId?: number; rowIndex?: number; columnIndex?: number };
    range?: GridRange;
    rows?: { values?: CellData[] }[];
    fields?: string;
  };
  updateSheetProperties?: {
    properties?: { sheetId?: number; gridProperties?: { rowCount?: number; columnCount?: number } };
    fields?: string;
  };
  repeatCell?: { range?: GridRange; cell?: { userEnteredFormat?: { numberFormat?: NumberFormat } }; fields?: string };
  createDeveloperMetadata?: {
    developerMetadata?: {
      metadataId?: number;
      metadataKey?: string;
      metadataValue?: string;
      visibility?: "DOCUMENT" | "PROJECT";
      location?: { dimensionRange?: DimensionRange };
    };
  };
  deleteDeveloperMetadata?: { dataFilter?: DataFilter };
  updateDeveloperMetadata?: {
    dataFilters?: DataFilter[];
    developerMetadata?: { metadataKey?: string; metadataValue?: string };
    fields?: string;
  };
};
type ValuesBatchUpdateBody = { valueInputOption?: string; data?: Array<{ range?: string; values?: CellInput[][] }> };
type ByDataFilterUpdateBody = { valueInputOption?: string; data?: Array<{ dataFilter?: DataFilter; values?: CellInput[][] }> };
type ByDataFilterGetBody = { dataFilters?: DataFilter[]; valueRenderOption?: string; dateTimeRenderOption?: string };

function sheetProperties(spreadsheet: FakeSpreadsheet) {
  return spreadsheet.sheets.map((sheet, index) => ({
    properties: {
      sheetId: sheet.sheetId,
      title: sheet.title,
      index,
      sheetType: "GRID",
      gridProperties: { rowCount: sheet.rowCount, columnCount: sheet.columnCount },
    },
  }));
}

function renderOf(valueRenderOption: unknown, dateTimeRenderOption: unknown): Render {
  const value = (valueRenderOption ?? "FORMATTED_VALUE") as ValueRenderOption;
  const dateTime = (dateTimeRenderOption ?? "SERIAL_NUMBER") as DateTimeRenderOption;
  if (!["FORMATTED_VALUE", "UNFORMATTED_VALUE", "FORMULA"].includes(value))
    throw new SheetsRequestError(`Invalid valueRenderOption: ${value}`);
  if (!["SERIAL_NUMBER", "FORMATTED_STRING"].includes(dateTime)) throw new SheetsRequestError(`Invalid dateTimeRenderOption: ${dateTime}`);
  return { value, dateTime };
}

function cellInput(cell: CellData): CellInput {
  const value = cell.userEnteredValue;
  if (!value) return null;
  if (value.formulaValue !== undefined) return value.formulaValue;
  return value.stringValue ?? value.numberValue ?? value.boolValue ?? null;
}

function metadataJson(match: MetadataMatch) {
  return {
    ...match.metadata,
    location: {
      locationType: match.dimension === "ROWS" ? "ROW" : "COLUMN",
      dimensionRange: { sheetId: match.sheet.sheetId, dimension: match.dimension, startIndex: match.index, endIndex: match.index + 1 },
    },
  };
}

/** Only developer-metadata lookups are served (on rows and columns): the app's anchors and column tags. */
function lookupOf(filter: DataFilter | undefined): DeveloperMetadataLookup {
  if (!filter?.developerMetadataLookup) throw new SheetsRequestError("The fake supports developerMetadataLookup data filters only");
  return filter.developerMetadataLookup;
}

function applyBatchRequest(spreadsheet: FakeSpreadsheet, request: BatchRequest): unknown {
  if (request.addSheet) {
    const title = request.addSheet.properties?.title;
    if (!title) throw new SheetsRequestError("addSheet needs a title");
    const sheet = spreadsheet.addSheet(title, request.addSheet.properties?.gridProperties);
    return {
      addSheet: {
        properties: {
          sheetId: sheet.sheetId,
          title: sheet.title,
          gridProperties: { rowCount: sheet.rowCount, columnCount: sheet.columnCount },
        },
      },
    };
  }
  if (request.appendDimension?.dimension === "COLUMNS") {
    spreadsheet.appendColumns(request.appendDimension.sheetId ?? -1, request.appendDimension.length ?? 0);
    return {};
  }
  if (request.insertDimension?.range) {
    spreadsheet.insertDimension(request.insertDimension.range);
    return {};
  }
  if (request.deleteDimension?.range) {
    spreadsheet.deleteDimension(request.deleteDimension.range);
    return {};
  }
  if (request.moveDimension?.source) {
    spreadsheet.moveDimension(request.moveDimension.source, request.moveDimension.destinationIndex ?? 0);
    return {};
  }
  if (request.sortRange?.range) {
    spreadsheet.sortRange(request.sortRange.range, request.sortRange.sortSpecs ?? []);
    return {};
  }
  if (request.appendCells) {
    const rows = (request.appendCells.rows ?? []).map((row) => (row.values ?? []).map(cellInput));
    // A stringValue is stored as it is, like RAW input.
    spreadsheet.appendCells(request.appendCells.sheetId, rows, "RAW");
    return {};
  }
  if (request.repeatCell?.range && request.repeatCell.cell?.userEnteredFormat?.numberFormat) {
    spreadsheet.setNumberFormat(request.repeatCell.range, request.repeatCell.cell.userEnteredFormat.numberFormat);
    return {};
  }
  if (request.updateCells?.start) {
    if (request.updateCells.fields !== "userEnteredValue")
      throw new SheetsRequestError("The fake supports updateCells with fields userEnteredValue only");
    spreadsheet.updateCells(
      request.updateCells.start,
      (request.updateCells.rows ?? []).map((row) => (row.values ?? []).map(cellInput)),
    );
    return {};
  }
  if (request.updateCells?.range) {
    if (request.updateCells.fields !== "userEnteredValue")
      throw new SheetsRequestError("The fake supports updateCells with fields userEnteredValue only");
    spreadsheet.updateCellsInRange(
      request.updateCells.range,
      (request.updateCells.rows ?? []).map((row) => (row.values ?? []).map(cellInput)),
    );
    return {};
  }
  if (request.updateSheetProperties?.properties?.gridProperties) {
    const { sheetId, gridProperties } = request.updateSheetProperties.properties;
    const fields = request.updateSheetProperties.fields ?? "";
    spreadsheet.resizeGrid(sheetId, {
      ...(fields.includes("gridProperties.rowCount") ? { rowCount: gridProperties.rowCount } : {}),
      ...(fields.includes("gridProperties.columnCount") ? { columnCount: gridProperties.columnCount } : {}),
    });
    return {};
  }
  if (request.createDeveloperMetadata?.developerMetadata) {
    const { location, metadataKey, ...rest } = request.createDeveloperMetadata.developerMetadata;
    const range = location?.dimensionRange;
    if (!metadataKey) throw new SheetsRequestError("Developer metadata must have a key");
    if ((range?.dimension !== "ROWS" && range?.dimension !== "COLUMNS") || (range.endIndex ?? 0) - (range.startIndex ?? 0) !== 1) {
      throw new SheetsRequestError("The fake supports developer metadata on a single row or column only");
    }
    const match = spreadsheet.createMetadata(range.sheetId, range.dimension, range.startIndex ?? 0, {
      visibility: "DOCUMENT",
      ...rest,
      metadataKey,
    });
    return { createDeveloperMetadata: { developerMetadata: metadataJson(match) } };
  }
  if (request.deleteDeveloperMetadata) {
    return {
      deleteDeveloperMetadata: {
        deletedDeveloperMetadata: spreadsheet.deleteMetadata(lookupOf(request.deleteDeveloperMetadata.dataFilter)),
      },
    };
  }
  if (request.updateDeveloperMetadata) {
    const { dataFilters = [], developerMetadata = {}, fields = "" } = request.updateDeveloperMetadata;
    const matches = dataFilters.flatMap((filter) => spreadsheet.findMetadata(lookupOf(filter)));
    // Google asks for "at least one DataFilter matching the metadata" to update: a request
    // whose filters match none is not valid, and fails the whole batch.
    if (matches.length === 0) throw new SheetsRequestError("No developer metadata matches the data filters");
    for (const { metadata } of matches) {
      if (fields.includes("metadataKey") && developerMetadata.metadataKey) metadata.metadataKey = developerMetadata.metadataKey;
      if (fields.includes("metadataValue")) metadata.metadataValue = developerMetadata.metadataValue;
    }
    return { updateDeveloperMetadata: { developerMetadata: matches.map(metadataJson) } };
  }
  throw new SheetsRequestError(`The fake does not support this request: ${Object.keys(request).join(", ")}`);
}

/** Google applies a batchUpdate's requests all or none: a failing request leaves the spreadsheet as it was. */
function applyBatch(spreadsheet: FakeSpreadsheet, requests: readonly BatchRequest[]): unknown[] {
  const before = structuredClone(spreadsheet.sheets);
  let index = 0;
  try {
    return requests.map((request, i) => {
      index = i;
      return applyBatchRequest(spreadsheet, request);
    });
  } catch (error) {
    spreadsheet.sheets.splice(0, spreadsheet.sheets.length, ...before);
    // Google names the failing request: "Invalid requests[2].updateDeveloperMetadata: ...".
    if (error instanceof SheetsRequestError)
      throw new SheetsRequestError(
        `Invalid requests[${index}].${Object.keys(requests[index] ?? {})[0] ?? ""}: ${error.message}`,
        error.status,
      );
    throw error;
  }
}

function handle(spreadsheet: FakeSpreadsheet, found: Route, query: URLSearchParams, body: unknown): unknown {
  const spreadsheetId = spreadsheet.spreadsheetId;
  switch (found.kind) {
    case "spreadsheets.get":
      return { spreadsheetId, properties: { title: spreadsheet.title, locale: spreadsheet.locale }, sheets: sheetProperties(spreadsheet) };
    case "spreadsheets.batchUpdate":
      return { spreadsheetId, replies: applyBatch(spreadsheet, (body as { requests?: BatchRequest[] }).requests ?? []) };
    case "developerMetadata.search": {
      const filters = (body as { dataFilters?: DataFilter[] }).dataFilters ?? [];
      const matched = filters.flatMap((filter) =>
        spreadsheet.findMetadata(lookupOf(filter)).map((match) => ({ developerMetadata: metadataJson(match), dataFilters: [filter] })),
      );
      return matched.length > 0 ? { matchedDeveloperMetadata: matched } : {};
    }
    case "values.get":
      return spreadsheet.read(found.range ?? "", renderOf(query.get("valueRenderOption"), query.get("dateTimeRenderOption")));
    case "values.batchGet": {
      const render = renderOf(query.get("valueRenderOption"), query.get("dateTimeRenderOption"));
      return { spreadsheetId, valueRanges: query.getAll("ranges").map((range) => spreadsheet.read(range, render)) };
    }
    case "values.batchGetByDataFilter": {
      const request = body as ByDataFilterGetBody;
      const render = renderOf(request.valueRenderOption, request.dateTimeRenderOption);
      const valueRanges = (request.dataFilters ?? []).flatMap((filter) =>
        spreadsheet
          .findMetadata(lookupOf(filter))
          .map((match) => ({ valueRange: spreadsheet.readMatch(match, render), dataFilters: [filter] })),
      );
      return { spreadsheetId, valueRanges };
    }
    case "values.append": {
      const option = valueInputOption(query);
      const result = spreadsheet.append(found.range ?? "", (body as ValuesBody).values ?? [], option);
      return {
        spreadsheetId,
        ...(result.tableRange ? { tableRange: result.tableRange } : {}),
        updates: { spreadsheetId, ...result.updates },
      };
    }
    case "values.update": {
      const option = valueInputOption(query);
      const values = (body as ValuesBody).values ?? [];
      spreadsheet.requireWithinGrid(found.range ?? "", values.length);
      return { spreadsheetId, ...spreadsheet.write(found.range ?? "", values, option) };
    }
    case "values.batchUpdate": {
      const request = body as ValuesBatchUpdateBody;
      const option = valueInputOption(query, request);
      for (const item of request.data ?? []) spreadsheet.requireWithinGrid(item.range ?? "", item.values?.length ?? 0);
      const responses = (request.data ?? []).map((item) => ({
        spreadsheetId,
        ...spreadsheet.write(item.range ?? "", item.values ?? [], option),
      }));
      return totals(spreadsheetId, responses);
    }
    case "values.batchUpdateByDataFilter": {
      const request = body as ByDataFilterUpdateBody;
      const option = valueInputOption(query, request);
      // A filter that matches no row (its row was deleted) updates nothing and has no response.
      const responses = (request.data ?? []).flatMap((item) =>
        spreadsheet
          .findMetadata(lookupOf(item.dataFilter))
          .map((match) => ({ ...spreadsheet.writeMatch(match, item.values ?? [], option), dataFilter: item.dataFilter })),
      );
      return totals(spreadsheetId, responses);
    }
  }
}

function totals<R extends { updatedRows: number; updatedCells: number }>(spreadsheetId: string, responses: R[]) {
  return {
    spreadsheetId,
    totalUpdatedRows: responses.reduce((total, r) => total + r.updatedRows, 0),
    totalUpdatedCells: responses.reduce((total, r) => total + r.updatedCells, 0),
    responses,
  };
}

const sleep = (milliseconds: number) => new Promise((resolve) => setTimeout(resolve, milliseconds));

type Quota = { readsPerWindow: number; writesPerWindow: number; windowMs: number };

type StaffEdit = { match: (call: Call) => boolean; edit: (book: FakeSpreadsheet) => void };

/**
 * The staff edits `npm run fake-sheets` takes over HTTP, so a person can replay a scenario
 * by hand: `POST /_staff/{spreadsheetId}/{action}?tab=Agents&...`, done now or, with
 * `when=next-write`, between the app's next read and its write.
 */
function staffEdit(action: string, query: URLSearchParams): ((book: FakeSpreadsheet) => void) | undefined {
  const tab = query.get("tab") ?? "";
  const row = Number(query.get("row"));
  switch (action) {
    case "sort":
      return (book) => book.sortRows(tab, query.get("column") ?? "id", query.get("order") === "descending" ? "descending" : "ascending");
    case "insert-row":
      return (book) => book.insertRow(tab, row);
    case "delete-row":
      return (book) => book.deleteRow(tab, row);
    case "move-row":
      return (book) => book.moveRow(tab, row, Number(query.get("before")));
    case "move-column":
      return (book) => book.moveColumn(tab, query.get("column") ?? "", Number(query.get("to")));
    case "insert-column":
      return (book) => book.insertColumn(tab, Number(query.get("at")), query.get("header") ?? "");
    case "delete-column":
      return (book) => book.deleteColumn(tab, query.get("column") ?? "");
    case "type":
      return (book) => book.typeCell(tab, query.get("cell") ?? "A1", query.get("text") ?? "");
    case "rename-tab":
      return (book) => book.renameSheet(tab, query.get("to") ?? tab);
    case "locale":
      return (book) => void (book.locale = query.get("locale") === "en_GB" ? "en_GB" : "en_US");
    default:
      return undefined;
  }
}

export async function startFakeSheets(options: FakeSheetsOptions = {}): Promise<FakeSheetsServer> {
  const spreadsheets = new Map<string, FakeSpreadsheet>();
  const roles = new Map<string, ShareRole>();
  const calls: Call[] = [];
  let faults: Fault[] = [];
  let edits: StaffEdit[] = [];
  let outage: "off" | "error" | "drop" = "off";
  let latency = 0;
  let quota: Quota | undefined;
  const served = { reads: [] as number[], writes: [] as number[] };
  let refusals = 0;
  /** Access tokens given by `POST /token`, with when each expires. */
  const tokens = new Map<string, number>();

  /** Google's token endpoint: a signed assertion in, a bearer token out. */
  async function serveToken(request: IncomingMessage, response: ServerResponse, account: FakeServiceAccount): Promise<void> {
    const form = new URLSearchParams(await readText(request));
    try {
      verifyAssertion(form, account, Date.now());
    } catch (error) {
      if (!(error instanceof TokenError)) throw error;
      return sendJson(response, 400, { error: error.code, error_description: error.message });
    }
    const token = `ya29.fake-${randomBytes(18).toString("base64url")}`;
    tokens.set(token, Date.now() + TOKEN_SECONDS * 1000);
    sendJson(response, 200, { access_token: token, expires_in: TOKEN_SECONDS, token_type: "Bearer" });
  }

  /** Any bearer token passes without a service account; with one, only a live token from `POST /token`. */
  function authorized(header: string | undefined): boolean {
    const token = /^Bearer (\S+)$/.exec(header ?? "")?.[1];
    if (token === undefined) return false;
    if (!options.serviceAccount) return true;
    return (tokens.get(token) ?? 0) > Date.now();
  }

  /** True when the call fits in the quota (and is then counted against it). */
  function withinQuota(call: Call): boolean {
    if (!quota) return true;
    const [times, limit] = isWrite(call) ? [served.writes, quota.writesPerWindow] : [served.reads, quota.readsPerWindow];
    while (times.length > 0 && times[0]! <= call.at - quota.windowMs) times.shift();
    if (times.length >= limit) {
      refusals += 1;
      return false;
    }
    times.push(call.at);
    return true;
  }

  const spreadsheet = (spreadsheetId: string) => {
    let found = spreadsheets.get(spreadsheetId);
    if (!found) {
      found = new FakeSpreadsheet(spreadsheetId);
      spreadsheets.set(spreadsheetId, found);
    }
    return found;
  };

  /** The first fault rule that applies to this call, used up by one. */
  function takeFault(call: Call): Fault | undefined {
    const fault = faults.find((candidate) => candidate.times > 0 && candidate.match(call));
    if (fault) fault.times -= 1;
    faults = faults.filter((candidate) => candidate.times > 0);
    return fault;
  }

  function runStaffEdits(call: Call, book: FakeSpreadsheet): void {
    const due = edits.filter((edit) => edit.match(call));
    edits = edits.filter((edit) => !due.includes(edit));
    for (const { edit } of due) edit(book);
  }

  function serveStaff(method: string, url: URL, response: ServerResponse): void {
    const [, , spreadsheetId = "", action = ""] = url.pathname.split("/").map(decodeURIComponent);
    if (method !== "POST" || !spreadsheets.has(spreadsheetId)) return googleError(response, 404, `No spreadsheet ${spreadsheetId}`);
    if (action === "share") {
      roles.set(spreadsheetId, url.searchParams.get("role") === "reader" ? "reader" : "writer");
      return sendJson(response, 200, { ok: true });
    }
    const edit = staffEdit(action, url.searchParams);
    if (!edit) return googleError(response, 400, `Unknown staff action ${action}`);
    if (url.searchParams.get("when") === "next-write") {
      edits.push({ match: (call) => call.spreadsheetId === spreadsheetId && isWrite(call), edit });
      return sendJson(response, 200, { ok: true, when: "next-write" });
    }
    try {
      edit(spreadsheet(spreadsheetId));
    } catch (error) {
      return googleError(response, 400, error instanceof Error ? error.message : String(error));
    }
    sendJson(response, 200, { ok: true });
  }

  const server = createServer((request, response) => {
    void (async () => {
      const url = new URL(request.url ?? "/", "http://fake");
      const method = request.method ?? "GET";
      if (url.pathname.startsWith("/_staff/")) return serveStaff(method, url, response);
      if (url.pathname === "/token" && method === "POST" && options.serviceAccount)
        return serveToken(request, response, options.serviceAccount);
      const found = route(method, url.pathname);
      if (!found) return googleError(response, 404, `The fake Sheets server does not serve ${method} ${url.pathname}`);
      const call: Call = {
        kind: found.kind,
        method,
        spreadsheetId: found.spreadsheetId,
        at: Date.now(),
        ranges: url.searchParams.getAll("ranges").length,
      };
      calls.push(call);
      const body = method === "GET" ? {} : await readBody(request);
      if (latency > 0) await sleep(latency);
      if (!request.headers.authorization)
        return googleError(
          response,
          401,
          "Request is missing required authentication credential. Expected OAuth 2 access token, login cookie or other valid authentication credential.",
        );
      if (!authorized(request.headers.authorization)) {
        return googleError(
          response,
          401,
          "Request had invalid authentication credentials. Expected OAuth 2 access token, login cookie or other valid authentication credential.",
        );
      }
      if (outage === "drop") return request.socket.destroy();
      if (outage === "error") return googleError(response, 503, "The service is currently unavailable.");
      const book = spreadsheets.get(found.spreadsheetId);
      if (!book) return googleError(response, 404, GOOGLE_MESSAGES[404]!);
      if (isWrite(call) && roles.get(found.spreadsheetId) === "reader") return googleError(response, 403, GOOGLE_MESSAGES[403]!);
      if (!withinQuota(call)) return quotaError(response, call);
      const fault = takeFault(call);
      if (fault && "status" in fault) {
        return fault.status === 429
          ? quotaError(response, call)
          : googleError(response, fault.status, GOOGLE_MESSAGES[fault.status] ?? "Internal error encountered.");
      }
      if (fault && "drop" in fault && fault.drop === "before") return request.socket.destroy();
      runStaffEdits(call, book);
      let answer: unknown;
      try {
        answer = handle(book, found, url.searchParams, body);
      } catch (error) {
        if (error instanceof SheetsRequestError) return googleError(response, error.status, error.message);
        throw error;
      }
      if (fault && "drop" in fault && fault.drop === "after") return request.socket.destroy();
      sendJson(response, 200, answer);
    })().catch((error: unknown) => {
      googleError(response, 500, error instanceof Error ? error.message : String(error));
    });
  });

  await new Promise<void>((resolve) => server.listen(options.port ?? 0, options.host ?? "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;

  return {
    url: `http://${options.host ?? "127.0.0.1"}:${port}/`,
    spreadsheet,
    share(spreadsheetId, role) {
      roles.set(spreadsheetId, role);
    },
    calls,
    failNext(times, status, match = matchers.any) {
      faults.push({ times, status, match });
    },
    dropNext(times, when, match = matchers.any) {
      faults.push({ times, drop: when, match });
    },
    beforeNext(edit, match = matchers.writes) {
      edits.push({ edit, match });
    },
    setOutage(mode) {
      outage = mode;
    },
    setLatency(milliseconds) {
      latency = milliseconds;
    },
    quotaRefusals: () => refusals,
    tokensIssued: () => tokens.size,
    setQuota(next) {
      quota = next;
      served.reads = [];
      served.writes = [];
    },
    clearFaults() {
      faults = [];
      edits = [];
      outage = "off";
      latency = 0;
    },
    close() {
      server.closeAllConnections();
      return new Promise((resolve, reject) => server.close((error) => (error ? reject(error) : resolve())));
    },
  };
}
