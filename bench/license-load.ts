/**
 * `npm run licenses:bench`: writes a license holder file of realistic size in TREC's
 * layout (500,000 records by default, about 100 MB), then times `npm run licenses:update`'s
 * load of it and a look-up against the loaded table. Prints the figures; asserts nothing.
 *
 *   npm run licenses:bench [-- --rows 500000]
 */
import { createWriteStream, mkdtempSync, rmSync, statSync } from "node:fs";
import { once } from "node:events";
import { tmpdir } from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { TREC_FILE_COLUMNS } from "../app/domain/license-check";
import { fileSource } from "../app/server/licenses/license-source.server";
import { licenseDatabaseFile, openLicenseTable } from "../app/server/licenses/license-table.server";

const { values } = parseArgs({ options: { rows: { type: "string", default: "500000" } } });
const rows = Number(values.rows);

const FIRST = ["JAMES", "MARIA", "ROBERT", "LINDA", "JOSE", "PATRICIA", "DAVID", "JENNIFER", "NGUYEN", "ANA"];
const LAST = ["SMITH", "GARCIA", "JOHNSON", "MARTINEZ", "BROWN", "LOPEZ", "WILLIAMS", "HERNANDEZ", "JONES", "TRAN"];
const STATUSES = ["20", "20", "20", "20", "21", "45", "45", "47", "56", "30"];

function record(index: number): string {
  const name = `${LAST[index % 10]}, ${FIRST[Math.floor(index / 10) % 10]} ${String.fromCharCode(65 + (index % 26))}`;
  const month = String((index % 12) + 1).padStart(2, "0");
  const fields: Record<string, string> = {
    license_type: index % 20 === 0 ? "BRK" : "SALE",
    license_number: String(400_000 + index).padStart(7, "0"),
    full_name: name,
    license_status: STATUSES[index % 10] ?? "20",
    original_license_date: `${month}/15/2015`,
    license_expiration_date: `${month}/28/${2025 + (index % 4)}`,
    education_status: "2",
    mce_status: "2",
    designated_supervisor: "0",
    mailing_address_line_1: `${index} MAIN ST`,
    mailing_address_city: "DALLAS",
    mailing_address_state: "TX",
    mailing_address_zip: "75201",
    mailing_address_county: "057",
    physical_address_city: "DALLAS",
    physical_address_state: "TX",
    physical_address_zip: "75201",
    physical_address_county: "057",
    related_license_type: "BLLC",
    related_license_number: "9001234",
    related_license_full_name: `${LAST[(index + 3) % 10]} REALTY LLC`,
    related_license_start_date: "01/01/2020",
    full_name_last_first: name,
  };
  return TREC_FILE_COLUMNS.map((column) => fields[column] ?? "").join("\t");
}

async function writeFile(file: string): Promise<void> {
  const out = createWriteStream(file, { encoding: "latin1" });
  for (let index = 0; index < rows; index += 1) {
    if (!out.write(`${record(index)}\r\n`)) await once(out, "drain");
  }
  out.end();
  await once(out, "finish");
}

async function main(): Promise<void> {
  const dir = mkdtempSync(path.join(tmpdir(), "license-bench-"));
  try {
    const file = path.join(dir, "trecfile.txt");
    await writeFile(file);
    const megabytes = statSync(file).size / 1_000_000;
    const table = openLicenseTable(licenseDatabaseFile(dir));
    const started = performance.now();
    const loaded = await table.replace(
      fileSource(file).records(() => undefined),
      file,
    );
    const seconds = (performance.now() - started) / 1000;
    const lookups = 10_000;
    const lookupStart = performance.now();
    for (let index = 0; index < lookups; index += 1) table.lookup(String(400_000 + ((index * 7919) % rows)));
    const lookupMicros = ((performance.now() - lookupStart) * 1000) / lookups;
    table.close();
    console.log(`File: ${loaded.toLocaleString("en-US")} records, ${megabytes.toFixed(0)} MB`);
    console.log(`Load: ${seconds.toFixed(1)} s (${Math.round(loaded / seconds).toLocaleString("en-US")} records/s)`);
    console.log(`Look-up: ${lookupMicros.toFixed(0)} µs each`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

void main();
