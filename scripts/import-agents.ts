/**
 * Imports the previous site's agent spreadsheet export as approved agents.
 *
 *   npm run import:agents -- FILE.csv
 *
 * The file needs a header row naming the columns fullName, email, city, state,
 * brokerage, specialties, password, photo, bio (any order, any case). Passwords are
 * stored as bcrypt hashes only and never printed. Rows that are invalid or already
 * in the store are skipped and listed; re-running the same file changes nothing.
 */
import { readFile } from "node:fs/promises";
import { ImportFileError } from "./lib/agent-import";
import { hashPassword } from "~/server/auth/password.server";
import { importAgents, type ImportedAgent } from "./lib/import-agents";
import { OperatorError, openConfiguredStore, runCommand } from "./lib/store-cli";

const USAGE = "Usage: npm run import:agents -- FILE.csv";

async function readCsvFile(file: string): Promise<string> {
  try {
    return await readFile(file, "utf8");
  } catch (error) {
    throw new OperatorError(`Cannot read ${file}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}\n${USAGE}`);
  }
}

function describeImported(agent: ImportedAgent): string {
  const notes = agent.notes.length > 0 ? `  (${agent.notes.join("; ")})` : "";
  return `  line ${agent.line}: ${agent.email}${notes}`;
}

function plural(count: number, word: string): string {
  return `${count} ${word}${count === 1 ? "" : "s"}`;
}

async function main(): Promise<void> {
  const [file, ...extra] = process.argv.slice(2);
  if (file === undefined || extra.length > 0) throw new OperatorError(USAGE);
  const csv = await readCsvFile(file);

  const { config, store, description, beforeWrite } = await openConfiguredStore();
  try {
    console.log(`Importing agents from ${file} into ${description}...`);
    let announced = false;
    const outcome = await importAgents(store, csv, {
      now: new Date(),
      hashPassword: (plain) => hashPassword(config, plain),
      beforeWrite,
      onImported: (agent) => {
        if (!announced) console.log("Imported (approved members):");
        announced = true;
        console.log(describeImported(agent));
      },
    });
    const { plan, imported, failure } = outcome;
    if (plan.missingColumns.length > 0) console.log(`Columns not in the file, left blank: ${plan.missingColumns.join(", ")}`);
    if (plan.ignoredColumns.length > 0) console.log(`Columns not imported: ${plan.ignoredColumns.join(", ")}`);
    if (plan.skipped.length > 0) {
      console.log("Skipped:");
      for (const row of plan.skipped) console.log(`  line ${row.line}: ${row.reason}`);
    }
    if (failure) {
      throw new OperatorError(
        `Stopped at line ${failure.line} (${failure.email}): ${failure.reason}\n` +
          `Imported before that: ${plural(imported.length, "agent")}. Run the same command again to import the rest.`,
      );
    }
    const summary = `${plural(imported.length, "agent")} imported, ${plural(plan.skipped.length, "row")} skipped.`;
    console.log(imported.length === 0 ? `${summary} Nothing changed.` : summary);
  } finally {
    await store.stop();
  }
}

runCommand(main, [ImportFileError]);
