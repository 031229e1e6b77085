/**
 * Loads TREC's license holder data into DATA_DIR/trec-licenses.sqlite, where the app
 * looks Texas licenses up. The new copy replaces the old one only once every record has
 * read; a malformed file is refused with its line number and field, and the old data stays.
 *
 *   npm run licenses:update -- FILE    the tab-delimited file (trecfile.txt), downloaded and unzipped
 *   npm run licenses:update            TREC_LICENSE_FILE_URL or TREC_LICENSE_API_URL
 */
import { ConfigError, loadConfig } from "~/server/config.server";
import { fileSource, type LoadProgress } from "~/server/licenses/license-source.server";
import { licenseDatabaseFile, openLicenseTable } from "~/server/licenses/license-table.server";
import { configuredSource } from "~/server/licenses/licenses.server";

const BAR_WIDTH = 30;

/** One line redrawn in place on a terminal; nothing when the output is a file or a pipe. */
function progressBar(progress: LoadProgress): void {
  if (!process.stderr.isTTY) return;
  const rows = progress.rows.toLocaleString("en-US");
  if (progress.totalBytes === undefined) {
    process.stderr.write(`\r${rows} records read`);
    return;
  }
  const share = Math.min(1, progress.bytes / progress.totalBytes);
  const filled = Math.round(share * BAR_WIDTH);
  process.stderr.write(`\r[${"#".repeat(filled)}${" ".repeat(BAR_WIDTH - filled)}] ${Math.round(share * 100)}%  ${rows} records`);
}

async function main(): Promise<void> {
  const config = loadConfig();
  const [file, ...extra] = process.argv.slice(2);
  if (extra.length > 0) throw new ConfigError("Usage: npm run licenses:update [-- FILE]");
  const source = file !== undefined ? fileSource(file) : configuredSource(config.licenses.source);
  if (source === undefined)
    throw new ConfigError("Give the file (npm run licenses:update -- trecfile.txt) or set TREC_LICENSE_FILE_URL or TREC_LICENSE_API_URL.");
  const table = openLicenseTable(licenseDatabaseFile(config.dataDir));
  const started = performance.now();
  try {
    const rows = await table.replace(source.records(progressBar), source.label);
    if (process.stderr.isTTY) process.stderr.write("\n");
    const seconds = (performance.now() - started) / 1000;
    console.log(`Loaded ${rows.toLocaleString("en-US")} license records from ${source.label} in ${seconds.toFixed(1)} s.`);
  } finally {
    table.close();
  }
}

main().catch((error: unknown) => {
  if (process.stderr.isTTY) process.stderr.write("\n");
  console.error(error instanceof Error && error.name !== "Error" ? `${error.message}\nThe previous license data stays in use.` : error);
  process.exitCode = 1;
});
