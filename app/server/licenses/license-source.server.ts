import { createReadStream, statSync } from "node:fs";
import { Readable } from "node:stream";
import { LicenseDataError, parseTrecLine, readTrecRecord, type TrecColumn, type TrecLicense } from "~/domain/license-check";

/** How far a load has got; `totalBytes` is unknown for the API and for downloads without a length. */
export type LoadProgress = { rows: number; bytes: number; totalBytes: number | undefined };

export type LicenseSource = {
  /** Where the data comes from, as recorded with it. */
  label: string;
  records(onProgress: (progress: LoadProgress) => void): AsyncIterable<TrecLicense>;
};

/**
 * TREC writes its files in the DOS code page 850: the upper half of that table, so an
 * accented name (José, Peña) reads as typed.
 */
export const CP850_HIGH =
  "ÇüéâäàåçêëèïîìÄÅÉæÆôöòûùÿÖÜø£Ø×ƒáíóúñÑªº¿®¬½¼¡«»░▒▓│┤ÁÂÀ©╣║╗╝¢¥┐└┴┬├─┼ãÃ╚╔╩╦╠═╬¤ðÐÊËÈıÍÎÏ┘┌█▄¦Ì▀ÓßÔÒõÕµþÞÚÛÙýÝ¯´\u00AD±‗¾¶§÷¸°¨·¹³²■\u00A0";

export function decodeCp850(bytes: Uint8Array): string {
  // Most lines are plain ASCII: decoded in one step.
  if (bytes.every((byte) => byte > 0 && byte < 0x80)) return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length).toString("latin1");
  let text = "";
  for (const byte of bytes) {
    // NUL bytes appear in TREC's files and mean nothing.
    if (byte === 0) continue;
    text += byte < 0x80 ? String.fromCharCode(byte) : CP850_HIGH[byte - 0x80];
  }
  return text;
}

/** The lines of a byte stream, split on LF, each decoded once it is complete. */
async function* linesOf(chunks: AsyncIterable<Uint8Array>, onBytes: (bytes: number) => void): AsyncGenerator<string> {
  let pending: Buffer = Buffer.alloc(0);
  for await (const chunk of chunks) {
    onBytes(chunk.length);
    pending = pending.length === 0 ? Buffer.from(chunk) : Buffer.concat([pending, chunk]);
    let start = 0;
    for (let end = pending.indexOf(0x0a, start); end !== -1; end = pending.indexOf(0x0a, start)) {
      yield decodeCp850(pending.subarray(start, end));
      start = end + 1;
    }
    pending = pending.subarray(start);
  }
  if (pending.length > 0) yield decodeCp850(pending);
}

/** The records of the tab-delimited file, read as it streams in; the first bad line stops the load. */
export async function* trecFileRecords(
  chunks: AsyncIterable<Uint8Array>,
  totalBytes: number | undefined,
  onProgress: (progress: LoadProgress) => void,
): AsyncGenerator<TrecLicense> {
  const progress: LoadProgress = { rows: 0, bytes: 0, totalBytes };
  let lineNumber = 0;
  for await (const line of linesOf(chunks, (bytes) => (progress.bytes += bytes))) {
    lineNumber += 1;
    if (line.trim() === "") continue;
    yield parseTrecLine(line, lineNumber);
    progress.rows += 1;
    if (progress.rows % 10_000 === 0) onProgress(progress);
  }
  onProgress(progress);
}

export function fileSource(file: string): LicenseSource {
  return {
    label: file,
    records: (onProgress) => trecFileRecords(createReadStream(file, { highWaterMark: 1 << 20 }), statSync(file).size, onProgress),
  };
}

async function get(url: string): Promise<Response> {
  const response = await fetch(url, { signal: AbortSignal.timeout(10 * 60_000) });
  if (!response.ok || response.body === null) throw new Error(`${url} answered ${response.status} ${response.statusText}`);
  return response;
}

/** The published file at a URL, streamed rather than saved first. */
export function fileUrlSource(url: string): LicenseSource {
  return {
    label: url,
    async *records(onProgress) {
      const response = await get(url);
      const length = Number(response.headers.get("Content-Length"));
      yield* trecFileRecords(
        Readable.fromWeb(response.body as import("node:stream/web").ReadableStream<Uint8Array>),
        length > 0 ? length : undefined,
        onProgress,
      );
    },
  };
}

/** Rows per API request: the SODA 2.0 endpoints' most. */
const API_PAGE_SIZE = 50_000;

/**
 * The open-data portal's dataset API (Socrata SODA, `/resource/<id>.json`): pages of JSON
 * rows named like the file's columns, in a stable order (`$order=:id`) until a short page.
 */
export function apiSource(url: string, pageSize = API_PAGE_SIZE): LicenseSource {
  return {
    label: url,
    async *records(onProgress) {
      const progress: LoadProgress = { rows: 0, bytes: 0, totalBytes: undefined };
      for (let offset = 0; ; offset += pageSize) {
        const page = new URL(url);
        page.searchParams.set("$limit", String(pageSize));
        page.searchParams.set("$offset", String(offset));
        page.searchParams.set("$order", ":id");
        const text = await (await get(page.href)).text();
        progress.bytes += text.length;
        const rows = parseApiPage(text, offset);
        for (const [index, row] of rows.entries()) {
          yield readTrecRecord(row, `API row ${offset + index + 1}`);
          progress.rows += 1;
        }
        onProgress(progress);
        if (rows.length < pageSize) return;
      }
    },
  };
}

function parseApiPage(text: string, offset: number): Array<Partial<Record<TrecColumn, string>>> {
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    throw new LicenseDataError(`API answer at offset ${offset}`, "(body)", "is not JSON");
  }
  if (!Array.isArray(body)) throw new LicenseDataError(`API answer at offset ${offset}`, "(body)", "is not a list of rows");
  return body.map((row: unknown, index) => {
    if (typeof row !== "object" || row === null || Array.isArray(row))
      throw new LicenseDataError(`API row ${offset + index + 1}`, "(row)", "is not an object");
    const entries = Object.entries(row).map(([field, value]) => {
      if (value !== null && typeof value === "object") throw new LicenseDataError(`API row ${offset + index + 1}`, field, "is not text");
      return [field, value === null ? "" : String(value)];
    });
    return Object.fromEntries(entries) as Partial<Record<TrecColumn, string>>;
  });
}
