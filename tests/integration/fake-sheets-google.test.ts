/** The fake Sheets server behaves like Google where the app depends on it: checked through its REST surface. */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startFakeSheets, type FakeSheetsServer } from "../../scripts/lib/fake-sheets/server";
import { serialFromDate, type FakeSpreadsheet } from "../../scripts/lib/fake-sheets/spreadsheet";

let fake: FakeSheetsServer;
let counter = 0;

beforeAll(async () => {
  fake = await startFakeSheets();
});
afterAll(async () => {
  await fake.close();
});

function workbook(): { id: string; book: FakeSpreadsheet } {
  const id = `google-${(counter += 1)}`;
  const book = fake.spreadsheet(id);
  book.addSheet("Agents");
  book.write("Agents!A1", [["id", "name", "license"]], "RAW");
  return { id, book };
}

type MetadataMatch = { developerMetadata: { metadataValue: string; location: { dimensionRange: { startIndex: number } } } };

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- the tests read the API's answers by path; the assertions check their shape.
async function call(method: string, path: string, body?: unknown): Promise<{ status: number; json: any }> {
  const response = await fetch(new URL(path, fake.url), {
    method,
    headers: { authorization: "Bearer test", "content-type": "application/json" },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  return { status: response.status, json: await response.json() };
}

describe("fake Sheets server, Google's behaviour", () => {
  it("appends after the table it detects from A1, so a blank row makes values.append land mid-sheet", async () => {
    const { id, book } = workbook();
    book.write(
      "Agents!A2",
      [
        ["a1", "Ann"],
        ["a2", "Bo"],
      ],
      "RAW",
    );
    book.write("Agents!A5", [["Note: call Bo back"]], "RAW");
    const answer = await call("POST", `v4/spreadsheets/${id}/values/Agents!A1:append?valueInputOption=RAW&insertDataOption=INSERT_ROWS`, {
      values: [["a3", "Cy"]],
    });
    expect(answer.status).toBe(200);
    expect(answer.json.updates.updatedRange).toBe("'Agents'!A4:B4");
    expect(book.rows("Agents").map((row) => row[0])).toEqual(["id", "a1", "a2", "a3", undefined, "Note: call Bo back"]);
  });

  it("appends cells (AppendCellsRequest) after the last row with data, whatever lies above", async () => {
    const { id, book } = workbook();
    book.write("Agents!A2", [["a1"]], "RAW");
    book.write("Agents!A5", [["a2"]], "RAW");
    const sheetId = book.requireSheet("Agents").sheetId;
    await call("POST", `v4/spreadsheets/${id}:batchUpdate`, {
      requests: [
        { appendCells: { sheetId, rows: [{ values: [{ userEnteredValue: { stringValue: "a3" } }] }], fields: "userEnteredValue" } },
      ],
    });
    expect(book.rows("Agents").map((row) => row[0])).toEqual(["id", "a1", undefined, undefined, "a2", "a3"]);
  });

  it("types USER_ENTERED text as Google does, unless the column is formatted as plain text", async () => {
    const { id, book } = workbook();
    const answer = await call("PUT", `v4/spreadsheets/${id}/values/Agents!A2?valueInputOption=USER_ENTERED`, {
      values: [["0123456", "+1 512 555 0100", "2025-03-04", "TRUE", "3/4/2025"]],
    });
    expect(answer.status).toBe(200);
    const unformatted = await call("GET", `v4/spreadsheets/${id}/values/Agents!A2:E2?valueRenderOption=UNFORMATTED_VALUE`);
    expect(unformatted.json.values).toEqual([[123456, "#ERROR!", serialFromDate(2025, 3, 4), true, serialFromDate(2025, 3, 4)]]);
    const formatted = await call("GET", `v4/spreadsheets/${id}/values/Agents!A2:E2`);
    expect(formatted.json.values).toEqual([["123456", "#ERROR!", "2025-03-04", "TRUE", "3/4/2025"]]);
    const dates = await call(
      "GET",
      `v4/spreadsheets/${id}/values/Agents!C2?valueRenderOption=UNFORMATTED_VALUE&dateTimeRenderOption=FORMATTED_STRING`,
    );
    expect(dates.json.values).toEqual([["2025-03-04"]]);

    book.locale = "en_GB";
    book.typeCell("Agents", "F2", "3/4/2025");
    expect(book.rows("Agents")[1]?.[5]).toBe("03/04/2025");
    const british = await call("GET", `v4/spreadsheets/${id}/values/Agents!F2?valueRenderOption=UNFORMATTED_VALUE`);
    expect(british.json.values).toEqual([[serialFromDate(2025, 4, 3)]]);

    const sheetId = book.requireSheet("Agents").sheetId;
    await call("POST", `v4/spreadsheets/${id}:batchUpdate`, {
      requests: [
        {
          repeatCell: {
            range: { sheetId, startColumnIndex: 0, endColumnIndex: 2 },
            cell: { userEnteredFormat: { numberFormat: { type: "TEXT", pattern: "@" } } },
            fields: "userEnteredFormat.numberFormat",
          },
        },
      ],
    });
    book.typeCell("Agents", "A3", "0123456");
    book.typeCell("Agents", "B3", "+1 512 555 0100");
    expect(book.rows("Agents")[2]).toEqual(["0123456", "+1 512 555 0100"]);
  });

  it("types percents, dollars and thousands separators as numbers that keep showing as typed", async () => {
    const { id } = workbook();
    const typed = ["25%", "$1,250.00", "1,250.00", "1,234", "12.5%", "-$5.50"];
    const answer = await call("PUT", `v4/spreadsheets/${id}/values/Agents!A2?valueInputOption=USER_ENTERED`, { values: [typed] });
    expect(answer.status).toBe(200);
    const unformatted = await call("GET", `v4/spreadsheets/${id}/values/Agents!A2:F2?valueRenderOption=UNFORMATTED_VALUE`);
    expect(unformatted.json.values).toEqual([[0.25, 1250, 1250, 1234, 0.125, -5.5]]);
    const formatted = await call("GET", `v4/spreadsheets/${id}/values/Agents!A2:F2`);
    expect(formatted.json.values).toEqual([typed]);
  });

  it("refuses with 400 a write to rows past the grid, as Google does, and grows the grid for an append", async () => {
    const { id, book } = workbook();
    const rowCount = book.requireSheet("Agents").rowCount;
    const past = await call("PUT", `v4/spreadsheets/${id}/values/Agents!A${rowCount + 1}?valueInputOption=RAW`, { values: [["a9"]] });
    expect(past.status).toBe(400);
    expect(past.json.error.message).toBe(
      `Range (Agents!A${rowCount + 1}) exceeds grid limits. Max rows: ${rowCount}, max columns: ${book.requireSheet("Agents").columnCount}`,
    );
    const batch = await call("POST", `v4/spreadsheets/${id}/values:batchUpdate`, {
      valueInputOption: "RAW",
      data: [
        { range: "Agents!A2", values: [["a1"]] },
        { range: `Agents!A${rowCount}`, values: [["a2"], ["a3"]] },
      ],
    });
    expect(batch.status).toBe(400);
    expect(book.rows("Agents")).toHaveLength(1);
    const last = await call("PUT", `v4/spreadsheets/${id}/values/Agents!A${rowCount}?valueInputOption=RAW`, { values: [["a1"]] });
    expect(last.status).toBe(200);
    const appended = await call("POST", `v4/spreadsheets/${id}/values/Agents!A1:append?valueInputOption=RAW&insertDataOption=INSERT_ROWS`, {
      values: [["a2"]],
    });
    expect(appended.status).toBe(200);
    expect(book.requireSheet("Agents").rowCount).toBe(rowCount + 1);
  });

  it("answers 404 for an unknown spreadsheet, 403 to a Viewer's writes and 429 with Google's bodies", async () => {
    const missing = await call("GET", "v4/spreadsheets/no-such-sheet?fields=sheets");
    expect(missing).toEqual({
      status: 404,
      json: { error: { code: 404, message: "Requested entity was not found.", status: "NOT_FOUND" } },
    });

    const { id } = workbook();
    fake.share(id, "reader");
    expect((await call("GET", `v4/spreadsheets/${id}/values/Agents!A1`)).status).toBe(200);
    const refused = await call("PUT", `v4/spreadsheets/${id}/values/Agents!A2?valueInputOption=RAW`, { values: [["x"]] });
    expect(refused).toEqual({
      status: 403,
      json: { error: { code: 403, message: "The caller does not have permission", status: "PERMISSION_DENIED" } },
    });
    fake.share(id, "writer");

    fake.failNext(1, 429);
    const quota = await call("GET", `v4/spreadsheets/${id}/values/Agents!A1`);
    expect(quota.status).toBe(429);
    expect(quota.json.error).toMatchObject({
      code: 429,
      status: "RESOURCE_EXHAUSTED",
      message: expect.stringMatching(/Quota exceeded for quota metric 'Read requests'/),
    });
    expect(quota.json.error.details[0]).toMatchObject({
      reason: "RATE_LIMIT_EXCEEDED",
      metadata: { quota_limit: "ReadRequestsPerMinutePerUser" },
    });
  });

  it("keeps developer metadata on its row through sorts, inserts, moves and deletes, and writes through it", async () => {
    const { id, book } = workbook();
    book.write(
      "Agents!A2",
      [
        ["b", "Bo"],
        ["a", "Ann"],
        ["c", "Cy"],
      ],
      "RAW",
    );
    const sheetId = book.requireSheet("Agents").sheetId;
    const tag = (rowIndex: number, value: string) => ({
      createDeveloperMetadata: {
        developerMetadata: {
          metadataKey: "rowId",
          metadataValue: value,
          visibility: "DOCUMENT",
          location: { dimensionRange: { sheetId, dimension: "ROWS", startIndex: rowIndex, endIndex: rowIndex + 1 } },
        },
      },
    });
    const created = await call("POST", `v4/spreadsheets/${id}:batchUpdate`, { requests: [tag(1, "b"), tag(2, "a"), tag(3, "c")] });
    expect(created.json.replies[0].createDeveloperMetadata.developerMetadata).toMatchObject({
      metadataKey: "rowId",
      metadataValue: "b",
      location: { locationType: "ROW" },
    });

    await call("POST", `v4/spreadsheets/${id}:batchUpdate`, {
      requests: [
        { sortRange: { range: { sheetId, startRowIndex: 1 }, sortSpecs: [{ dimensionIndex: 1, sortOrder: "ASCENDING" }] } },
        { insertDimension: { range: { sheetId, dimension: "ROWS", startIndex: 1, endIndex: 2 } } },
        { moveDimension: { source: { sheetId, dimension: "ROWS", startIndex: 4, endIndex: 5 }, destinationIndex: 2 } },
      ],
    });
    expect(book.rows("Agents").map((row) => row[0])).toEqual(["id", undefined, "c", "a", "b"]);

    const lookup = (value: string) => ({ developerMetadataLookup: { metadataKey: "rowId", metadataValue: value, locationType: "ROW" } });
    const written = await call("POST", `v4/spreadsheets/${id}/values:batchUpdateByDataFilter`, {
      valueInputOption: "RAW",
      data: [{ dataFilter: lookup("a"), values: [[null, null, "TX-1"]] }],
    });
    expect(written.json.totalUpdatedCells).toBe(1);
    expect(book.cell("Agents", "a", "license")).toBe("TX-1");

    const read = await call("POST", `v4/spreadsheets/${id}/values:batchGetByDataFilter`, {
      dataFilters: [lookup("c")],
      valueRenderOption: "UNFORMATTED_VALUE",
    });
    expect(read.json.valueRanges[0].valueRange).toMatchObject({ range: "'Agents'!A3:Z3", values: [["c", "Cy"]] });

    book.deleteRow("Agents", book.rowNumberOf("Agents", "b"));
    const gone = await call("POST", `v4/spreadsheets/${id}/values:batchUpdateByDataFilter`, {
      valueInputOption: "RAW",
      data: [{ dataFilter: lookup("b"), values: [["b", "Bo again"]] }],
    });
    expect(gone.json).toMatchObject({ totalUpdatedCells: 0, responses: [] });
    expect(book.rows("Agents").map((row) => row[0])).toEqual(["id", undefined, "c", "a"]);

    const search = await call("POST", `v4/spreadsheets/${id}/developerMetadata:search`, {
      dataFilters: [{ developerMetadataLookup: { metadataKey: "rowId" } }],
    });
    expect(
      search.json.matchedDeveloperMetadata.map((match: MetadataMatch) => [
        match.developerMetadata.metadataValue,
        match.developerMetadata.location.dimensionRange.startIndex,
      ]),
    ).toEqual([
      ["c", 2],
      ["a", 3],
    ]);
  });

  it("keeps developer metadata on its column through moves and inserts, drops it with the column, and matches an exact location", async () => {
    const { id, book } = workbook();
    const sheetId = book.sheet("Agents")!.sheetId;
    const tag = (column: number) => ({
      createDeveloperMetadata: {
        developerMetadata: {
          metadataKey: "column",
          metadataValue: "license",
          location: { dimensionRange: { sheetId, dimension: "COLUMNS", startIndex: column, endIndex: column + 1 } },
        },
      },
    });
    expect((await call("POST", `v4/spreadsheets/${id}:batchUpdate`, { requests: [tag(2)] })).status).toBe(200);
    book.moveColumn("Agents", "license", 1);
    book.insertColumn("Agents", 1, "Notes");
    const at = (column: number) => ({
      developerMetadataLookup: {
        metadataKey: "column",
        metadataLocation: { dimensionRange: { sheetId, dimension: "COLUMNS", startIndex: column, endIndex: column + 1 } },
        locationMatchingStrategy: "EXACT_LOCATION",
      },
    });
    const found = await call("POST", `v4/spreadsheets/${id}/developerMetadata:search`, { dataFilters: [at(1)] });
    expect(found.json.matchedDeveloperMetadata[0].developerMetadata.location).toEqual({
      locationType: "COLUMN",
      dimensionRange: { sheetId, dimension: "COLUMNS", startIndex: 1, endIndex: 2 },
    });
    expect((await call("POST", `v4/spreadsheets/${id}/developerMetadata:search`, { dataFilters: [at(2)] })).json).toEqual({});
    book.deleteColumn("Agents", "license");
    expect(book.findMetadata({ metadataKey: "column" })).toEqual([]);
  });

  it("applies a batchUpdate all or none: an updateDeveloperMetadata whose filters match nothing fails it, named as Google names it", async () => {
    const { id, book } = workbook();
    const sheetId = book.sheet("Agents")!.sheetId;
    const before = book.rows("Agents");
    const answer = await call("POST", `v4/spreadsheets/${id}:batchUpdate`, {
      requests: [
        {
          updateCells: {
            start: { sheetId, rowIndex: 1, columnIndex: 0 },
            rows: [{ values: [{ userEnteredValue: { stringValue: "a9" } }] }],
            fields: "userEnteredValue",
          },
        },
        {
          updateDeveloperMetadata: {
            dataFilters: [{ developerMetadataLookup: { metadataKey: "nowhere" } }],
            developerMetadata: { metadataValue: "x" },
            fields: "metadataValue",
          },
        },
      ],
    });
    expect(answer.status).toBe(400);
    expect(answer.json.error.message).toMatch(/^Invalid requests\[1\]\.updateDeveloperMetadata: /);
    expect(book.rows("Agents")).toEqual(before);
  });

  it("clears what updateCells over a range does not cover, and cuts a grid updateSheetProperties makes smaller", async () => {
    const { id, book } = workbook();
    book.write(
      "Agents!A2",
      [
        ["a1", "Ann", "0612345"],
        ["a2", "Bo", "0654321"],
        ["a3", "Cy", "0698765"],
      ],
      "RAW",
    );
    const sheetId = book.requireSheet("Agents").sheetId;
    const answer = await call("POST", `v4/spreadsheets/${id}:batchUpdate`, {
      requests: [
        {
          updateSheetProperties: {
            properties: { sheetId, gridProperties: { rowCount: 3, columnCount: 2 } },
            fields: "gridProperties.rowCount,gridProperties.columnCount",
          },
        },
        {
          updateCells: {
            range: { sheetId, startRowIndex: 1, endRowIndex: 3, startColumnIndex: 0, endColumnIndex: 2 },
            rows: [{ values: [{ userEnteredValue: { stringValue: "=1+1" } }] }],
            fields: "userEnteredValue",
          },
        },
      ],
    });
    expect(answer.status).toBe(200);
    expect(book.rows("Agents")).toEqual([["id", "name"], ["=1+1"], []]);
    expect(book.requireSheet("Agents")).toMatchObject({ rowCount: 3, columnCount: 2 });
    const past = await call("POST", `v4/spreadsheets/${id}:batchUpdate`, {
      requests: [{ updateCells: { range: { sheetId, startRowIndex: 0, endRowIndex: 4 }, rows: [], fields: "userEnteredValue" } }],
    });
    expect(past.status).toBe(400);
  });

  it("takes staff edits over HTTP, now or between the app's read and its next write", async () => {
    const { id, book } = workbook();
    book.write(
      "Agents!A2",
      [
        ["b", "Bo"],
        ["a", "Ann"],
      ],
      "RAW",
    );
    const control = (path: string) => fetch(new URL(`_staff/${id}/${path}`, fake.url), { method: "POST" });
    expect((await control("sort?tab=Agents&column=name&when=next-write")).status).toBe(200);
    expect(book.rows("Agents").map((row) => row[0])).toEqual(["id", "b", "a"]);
    await call("PUT", `v4/spreadsheets/${id}/values/Agents!C2?valueInputOption=RAW`, { values: [["written to row 2"]] });
    expect(book.cell("Agents", "a", "license")).toBe("written to row 2");
    await control("move-row?tab=Agents&row=3&before=2");
    expect(book.rows("Agents").map((row) => row[0])).toEqual(["id", "b", "a"]);
  });
});
