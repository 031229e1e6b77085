import { execFile } from "node:child_process";
import path from "node:path";
import { TEST_PASSWORD_HASH_COST } from "./services";

export type CommandResult = { status: number | null; stdout: string; stderr: string };

const tsx = path.resolve("node_modules/.bin/tsx");

/**
 * Runs an operator command (`scripts/<name>.ts`, as its npm script does) on the SQLite store in
 * `dataDir`, never on a spreadsheet the test's own environment names. It answers once the
 * command has ended, without blocking: each command spends seconds loading the app through
 * tsx, so a test runs the commands that do not depend on each other side by side.
 */
export function runStoreCommand(
  script: string,
  dataDir: string,
  { args = [], env = {} }: { args?: string[]; env?: Record<string, string> } = {},
): Promise<CommandResult> {
  const { GOOGLE_SHEETS_ID: _sheet, GOOGLE_SHEETS_API_URL: _url, GOOGLE_SERVICE_ACCOUNT_JSON: _json, ...inherited } = process.env;
  return new Promise((resolve) => {
    execFile(
      tsx,
      [script, ...args],
      { env: { ...inherited, NODE_ENV: "test", DATA_DIR: dataDir, PASSWORD_HASH_COST: TEST_PASSWORD_HASH_COST, ...env }, encoding: "utf8" },
      (error, stdout, stderr) => {
        const status = error === null ? 0 : typeof error.code === "number" ? error.code : null;
        resolve({ status, stdout, stderr });
      },
    );
  });
}
