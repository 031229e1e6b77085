/**
 * Moves the high-volume tabs (Messages, ConversationMembers, Marks, ReferralEvents,
 * SendClaims, Reviews, Invitations, BrokerSignoffs) from the configured sheet or file into
 * the PostgreSQL database at DATABASE_URL, or copies the database's rows back. It resumes
 * where a stopped run ended, checks every tab after, and never deletes anything.
 *
 *   npm run store:move -- --to postgres        into the database (before setting DATABASE_URL on the site)
 *   npm run store:move -- --to sheets|sqlite   back into the configured spreadsheet or SQLite file
 *
 * See docs/operator-guide.md, "Moving the high-volume tabs to PostgreSQL".
 */
import { loadConfig, type Config } from "~/server/config.server";
import { connectDatabase } from "~/server/store/postgres/database.server";
import { createPostgresDriver } from "~/server/store/postgres/driver.server";
import { describeMove, moveTabs, MoveError, type MoveSide } from "~/server/store/postgres/move.server";
import { staffDriverFromConfig } from "~/server/store/store.server";
import { describeStore, OperatorError, runCommand } from "./lib/store-cli";

const USAGE = "Usage: npm run store:move -- --to postgres   (or --to sheets / --to sqlite to copy the database's rows back)";
const TARGETS = ["postgres", "sheets", "sqlite"] as const;
type Target = (typeof TARGETS)[number];

function targetOf(args: readonly string[]): Target {
  const [flag, target, ...extra] = args;
  const known = TARGETS.find((name) => name === target);
  if (flag !== "--to" || known === undefined || extra.length > 0) throw new OperatorError(USAGE);
  return known;
}

/** The database named without its password: user, host, port and database. */
function describeDatabase(url: string): string {
  const parsed = new URL(url);
  return `the database ${decodeURIComponent(parsed.pathname.slice(1)) || "(default)"} at ${parsed.host}`;
}

function storeSide(config: Config): MoveSide {
  return {
    driver: staffDriverFromConfig(config),
    name: config.sheets ? "sheet" : "file",
    description: describeStore(config),
  };
}

/** The first Ctrl-C ends the batch being written and stops; a second one stops at once. */
function stopOnInterrupt(): AbortSignal {
  const controller = new AbortController();
  process.once("SIGINT", () => {
    console.log("Stopping after the batch being written (Ctrl-C again to stop at once; nothing is half written either way)...");
    controller.abort();
    process.once("SIGINT", () => process.exit(130));
  });
  return controller.signal;
}

async function main(): Promise<void> {
  const target = targetOf(process.argv.slice(2));
  const config = loadConfig();
  if (config.databaseUrl === undefined)
    throw new OperatorError("DATABASE_URL is not set: set it to the PostgreSQL database the tabs move to (or come back from).");
  const configured: Target = config.sheets ? "sheets" : "sqlite";
  if (target !== "postgres" && target !== configured)
    throw new OperatorError(`The site is configured with ${describeStore(config)}: the way back is --to ${configured}.`);

  const store = storeSide(config);
  const database: MoveSide = {
    driver: createPostgresDriver(connectDatabase(config.databaseUrl)),
    name: "database",
    description: describeDatabase(config.databaseUrl),
  };
  const [from, to] = target === "postgres" ? [store, database] : [database, store];
  try {
    console.log(`Copying the high-volume tabs from ${from.description} to ${to.description}.`);
    const report = await moveTabs({ from, to, overwriteChanged: target !== "postgres", signal: stopOnInterrupt(), log: console.log });
    for (const line of describeMove(report)) console.log(line);
    if (!report.matches) process.exitCode = 1;
  } finally {
    await Promise.all([store.driver.close(), database.driver.close()]);
  }
}

runCommand(main, [MoveError]);
