import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { FakeSpreadsheet, SheetsRequestError, type CellInput, type ValueInputOption } from "./spreadsheet";

/**
 * A local stand-in for the Google Sheets v4 REST API: the subset the store's Sheets
 * driver calls, cells held in memory, with switches to inject the faults the real
 * service shows (429 quota answers, 500s, slowness, dropped connections).
 */

export type CallKind =
  | "spreadsheets.get"
  | "spreadsheets.batchUpdate"
  | "values.get"
  | "values.batchGet"
  | "values.append"
  | "values.update"
  | "values.batchUpdate";

/** One request received; `ranges` is how many ranges a values.batchGet asked for. */
export type Call = { kind: CallKind; method: string; spreadsheetId: string; at: number; ranges: number };

type Fault = { times: number; match: (call: Call) => boolean } & ({ status: number } | { drop: "before" | "after" });

export type FakeSheetsServer = {
  /** The `rootUrl` to give the client, e.g. http://127.0.0.1:41234/ */
  readonly url: string;
  /** The spreadsheet with this id, created empty on first use (by a request or by a test). */
  spreadsheet(spreadsheetId: string): FakeSpreadsheet;
  /** Every request received, faulty or not, in order. */
  readonly calls: Call[];
  /** The next `times` matching requests are answered with `status` and change nothing. */
  failNext(times: number, status: number, match?: (call: Call) => boolean): void;
  /** The next `times` matching requests lose their connection, before or after the change is made. */
  dropNext(times: number, when: "before" | "after", match?: (call: Call) => boolean): void;
  /** While on, every request is answered 503 ("error") or loses its connection ("drop"). */
  setOutage(mode: "off" | "error" | "drop"): void;
  /** Delay before each answer. */
  setLatency(milliseconds: number): void;
  clearFaults(): void;
  close(): Promise<void>;
};

const isWrite = (call: Call) => call.method !== "GET";
export const matchers = {
  any: () => true,
  writes: isWrite,
  reads: (call: Call) => !isWrite(call),
  kind: (kind: CallKind) => (call: Call) => call.kind === kind,
};

function googleError(response: ServerResponse, status: number, message: string): void {
  const statusText: Record<number, string> = {
    400: "INVALID_ARGUMENT",
    401: "UNAUTHENTICATED",
    404: "NOT_FOUND",
    429: "RESOURCE_EXHAUSTED",
    500: "INTERNAL",
    503: "UNAVAILABLE",
  };
  sendJson(response, status, { error: { code: status, message, status: statusText[status] ?? "UNKNOWN" } });
}

function sendJson(response: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  response.writeHead(status, { "content-type": "application/json; charset=UTF-8", "content-length": Buffer.byteLength(text) });
  response.end(text);
}

async function readBody(request: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  const text = Buffer.concat(chunks).toString("utf8");
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
    if (method === "POST" && head.endsWith(":batchUpdate")) return { kind: "spreadsheets.batchUpdate", spreadsheetId: head.slice(0, -":batchUpdate".length) };
    return undefined;
  }
  if (rest === "/values:batchGet" && method === "GET") return { kind: "values.batchGet", spreadsheetId: head };
  if (rest === "/values:batchUpdate" && method === "POST") return { kind: "values.batchUpdate", spreadsheetId: head };
  if (!rest.startsWith("/values/")) return undefined;
  const range = rest.slice("/values/".length);
  if (method === "POST" && range.endsWith(":append")) return { kind: "values.append", spreadsheetId: head, range: range.slice(0, -":append".length) };
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
type BatchUpdateBody = {
  requests?: Array<{
    addSheet?: { properties?: { title?: string; gridProperties?: { rowCount?: number; columnCount?: number } } };
    appendDimension?: { sheetId?: number; dimension?: string; length?: number };
  }>;
};
type ValuesBatchUpdateBody = { valueInputOption?: string; data?: Array<{ range?: string; values?: CellInput[][] }> };

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

function handle(spreadsheet: FakeSpreadsheet, found: Route, query: URLSearchParams, body: unknown): unknown {
  const spreadsheetId = spreadsheet.spreadsheetId;
  switch (found.kind) {
    case "spreadsheets.get":
      return { spreadsheetId, properties: { title: spreadsheet.title }, sheets: sheetProperties(spreadsheet) };
    case "spreadsheets.batchUpdate": {
      const replies = ((body as BatchUpdateBody).requests ?? []).map((request) => {
        if (request.addSheet) {
          const title = request.addSheet.properties?.title;
          if (!title) throw new SheetsRequestError("addSheet needs a title");
          const sheet = spreadsheet.addSheet(title, request.addSheet.properties?.gridProperties);
          return { addSheet: { properties: { sheetId: sheet.sheetId, title: sheet.title, gridProperties: { rowCount: sheet.rowCount, columnCount: sheet.columnCount } } } };
        }
        if (request.appendDimension?.dimension === "COLUMNS") {
          spreadsheet.appendColumns(request.appendDimension.sheetId ?? -1, request.appendDimension.length ?? 0);
          return {};
        }
        throw new SheetsRequestError("The fake supports addSheet and appendDimension (COLUMNS) requests only");
      });
      return { spreadsheetId, replies };
    }
    case "values.get":
      return spreadsheet.read(found.range ?? "");
    case "values.batchGet":
      return { spreadsheetId, valueRanges: query.getAll("ranges").map((range) => spreadsheet.read(range)) };
    case "values.append": {
      const option = valueInputOption(query);
      const result = spreadsheet.append(found.range ?? "", (body as ValuesBody).values ?? [], option);
      return { spreadsheetId, tableRange: result.tableRange, updates: { spreadsheetId, ...result.updates } };
    }
    case "values.update": {
      const option = valueInputOption(query);
      return { spreadsheetId, ...spreadsheet.write(found.range ?? "", (body as ValuesBody).values ?? [], option) };
    }
    case "values.batchUpdate": {
      const request = body as ValuesBatchUpdateBody;
      const option = valueInputOption(query, request);
      const responses = (request.data ?? []).map((item) => ({ spreadsheetId, ...spreadsheet.write(item.range ?? "", item.values ?? [], option) }));
      return {
        spreadsheetId,
        totalUpdatedRows: responses.reduce((total, r) => total + r.updatedRows, 0),
        totalUpdatedCells: responses.reduce((total, r) => total + r.updatedCells, 0),
        responses,
      };
    }
  }
}

const sleep = (milliseconds: number) => new Promise((resolve) => setTimeout(resolve, milliseconds));

export async function startFakeSheets(options: { port?: number; host?: string } = {}): Promise<FakeSheetsServer> {
  const spreadsheets = new Map<string, FakeSpreadsheet>();
  const calls: Call[] = [];
  let faults: Fault[] = [];
  let outage: "off" | "error" | "drop" = "off";
  let latency = 0;

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

  const server = createServer((request, response) => {
    void (async () => {
      const url = new URL(request.url ?? "/", "http://fake");
      const method = request.method ?? "GET";
      const found = route(method, url.pathname);
      if (!found) return googleError(response, 404, `The fake Sheets server does not serve ${method} ${url.pathname}`);
      const call: Call = { kind: found.kind, method, spreadsheetId: found.spreadsheetId, at: Date.now(), ranges: url.searchParams.getAll("ranges").length };
      calls.push(call);
      const body = method === "GET" ? {} : await readBody(request);
      if (latency > 0) await sleep(latency);
      if (!/^Bearer \S+/.test(request.headers.authorization ?? "")) {
        return googleError(response, 401, "Request is missing required authentication credential.");
      }
      if (outage === "drop") return request.socket.destroy();
      if (outage === "error") return googleError(response, 503, "The service is currently unavailable.");
      const fault = takeFault(call);
      if (fault && "status" in fault) return googleError(response, fault.status, fault.status === 429 ? "Quota exceeded for quota metric 'Read requests'" : "Internal error encountered.");
      if (fault?.drop === "before") return request.socket.destroy();
      let answer: unknown;
      try {
        answer = handle(spreadsheet(found.spreadsheetId), found, url.searchParams, body);
      } catch (error) {
        if (error instanceof SheetsRequestError) return googleError(response, error.status, error.message);
        throw error;
      }
      if (fault?.drop === "after") return request.socket.destroy();
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
    calls,
    failNext(times, status, match = matchers.any) {
      faults.push({ times, status, match });
    },
    dropNext(times, when, match = matchers.any) {
      faults.push({ times, drop: when, match });
    },
    setOutage(mode) {
      outage = mode;
    },
    setLatency(milliseconds) {
      latency = milliseconds;
    },
    clearFaults() {
      faults = [];
      outage = "off";
      latency = 0;
    },
    close() {
      server.closeAllConnections();
      return new Promise((resolve, reject) => server.close((error) => (error ? reject(error) : resolve())));
    },
  };
}
