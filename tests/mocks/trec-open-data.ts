import { readFileSync } from "node:fs";
import { TREC_FILE_COLUMNS } from "../../app/domain/license-check";
import { decodeCp850 } from "../../app/server/licenses/license-source.server";
import { listen, sendJson, type StandIn } from "./http";

/**
 * A local stand-in for TREC's two publications of its license holder data:
 *
 * - `GET /trecfile.txt`: the tab-delimited file, bytes as given;
 * - `GET /resource/<dataset-id>.json`: the open-data portal's Socrata SODA 2.0 endpoint,
 *   paging with `$limit`, `$offset` and `$order`, answering a JSON array of rows whose
 *   fields are named like the file's columns, blank fields left out and dates given as
 *   floating timestamps (`2027-06-30T00:00:00.000`), as SODA does.
 */
export type FakeTrec = StandIn & {
  fileUrl: string;
  apiUrl: string;
  /** Every API request's query, for the paging assertions. */
  apiQueries: URLSearchParams[];
  /** Answers the next API page with this body instead (a malformed answer). */
  breakNextPage(body: string): void;
};

const DATE = /^(\d{2})\/(\d{2})\/(\d{4})$/;

function apiRows(fileBytes: Buffer): Array<Record<string, string>> {
  return decodeCp850(fileBytes)
    .split(/\r?\n/)
    .filter((line) => line.trim() !== "")
    .map((line) => {
      const fields = line.split("\t");
      const row: Record<string, string> = {};
      TREC_FILE_COLUMNS.forEach((column, index) => {
        const value = fields[index] ?? "";
        if (value === "") return;
        const date = DATE.exec(value);
        row[column] = date ? `${date[3]}-${date[1]}-${date[2]}T00:00:00.000` : value;
      });
      return row;
    });
}

export async function startFakeTrec(fixtureFile: string, datasetId = "trec-lics"): Promise<FakeTrec> {
  const fileBytes = readFileSync(fixtureFile);
  const rows = apiRows(fileBytes);
  const apiQueries: URLSearchParams[] = [];
  let brokenPage: string | undefined;
  const standIn = await listen(async (request, response) => {
    const url = new URL(request.url ?? "/", "http://localhost");
    if (url.pathname === "/trecfile.txt") {
      response.writeHead(200, { "Content-Type": "text/plain", "Content-Length": fileBytes.length });
      response.end(fileBytes);
      return;
    }
    if (url.pathname !== `/resource/${datasetId}.json`) return sendJson(response, 404, { error: true, message: "Not found" });
    apiQueries.push(url.searchParams);
    if (brokenPage !== undefined) {
      response.writeHead(200, { "Content-Type": "application/json" });
      response.end(brokenPage);
      brokenPage = undefined;
      return;
    }
    const limit = Number(url.searchParams.get("$limit") ?? "1000");
    const offset = Number(url.searchParams.get("$offset") ?? "0");
    sendJson(response, 200, rows.slice(offset, offset + limit));
  });
  return {
    ...standIn,
    fileUrl: `${standIn.url}/trecfile.txt`,
    apiUrl: `${standIn.url}/resource/${datasetId}.json`,
    apiQueries,
    breakNextPage: (body) => {
      brokenPage = body;
    },
  };
}
