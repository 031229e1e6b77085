import { createHash } from "node:crypto";
import { readdir, readFile } from "node:fs/promises";
import path from "node:path";
import type { Pool, PoolClient } from "pg";
import { withClient } from "./database.server";

/** One versioned change of the database's tables: `migrations/<version>-<name>.sql`. */
export type Migration = { readonly version: number; readonly name: string; readonly sql: string };

/**
 * The migrations kept in the repository. The app runs from its root (`npm start`, the
 * Docker image, which ships `app/`), so the folder is found from there, in the build too.
 */
const MIGRATIONS_DIRECTORY = path.resolve("app/server/store/postgres/migrations");

const FILE_NAME = /^(\d+)-([a-z0-9-]+)\.sql$/;

/**
 * Held while migrating, so instances starting together apply each migration once: the
 * others wait, then find it applied. Any fixed number does, as long as nothing else in the
 * database takes it.
 */
const MIGRATION_LOCK = 530_001;

/** Reads the folder's migrations in version order; a file named otherwise, or two of one version, is refused. */
export async function readMigrations(directory: string = MIGRATIONS_DIRECTORY): Promise<Migration[]> {
  const names = (await readdir(directory)).filter((name) => name.endsWith(".sql"));
  const migrations = await Promise.all(
    names.map(async (file) => {
      const match = FILE_NAME.exec(file);
      if (!match) throw new Error(`Migration ${file} is not named <version>-<name>.sql`);
      return { version: Number(match[1]), name: match[2]!, sql: await readFile(path.join(directory, file), "utf8") };
    }),
  );
  migrations.sort((a, b) => a.version - b.version);
  const repeated = migrations.find((migration, i) => i > 0 && migrations[i - 1]!.version === migration.version);
  if (repeated) throw new Error(`Two migrations have the version ${repeated.version}`);
  return migrations;
}

function checksumOf(migration: Migration): string {
  return createHash("sha256").update(migration.sql).digest("hex");
}

type AppliedRow = { version: number; checksum: string };

/**
 * Applies the migrations the database has not recorded in `schema_migrations`, in version
 * order, each in its own transaction with its record, under an advisory lock. Resolves with
 * the versions applied now (none when the database was up to date). Refuses to run when an
 * applied migration's text has changed since: a migration is never edited, the next one is added.
 */
export function migrate(pool: Pick<Pool, "connect">, migrations: readonly Migration[]): Promise<number[]> {
  return withClient(pool, async (client) => {
    try {
      await client.query("SELECT pg_advisory_lock($1)", [MIGRATION_LOCK]);
      await client.query(
        `CREATE TABLE IF NOT EXISTS schema_migrations (
        version integer PRIMARY KEY,
        name text NOT NULL,
        checksum text NOT NULL,
        applied_at timestamptz NOT NULL DEFAULT now()
      )`,
      );
      const applied = new Map(
        (await client.query<AppliedRow>("SELECT version, checksum FROM schema_migrations")).rows.map((row) => [row.version, row.checksum]),
      );
      const changed = migrations.find(
        (migration) => applied.has(migration.version) && applied.get(migration.version) !== checksumOf(migration),
      );
      if (changed)
        throw new Error(`Migration ${changed.version}-${changed.name} was changed after it was applied: add a new migration instead`);
      const pending = migrations.filter((migration) => !applied.has(migration.version));
      for (const migration of pending) await applyOne(client, migration);
      return pending.map((migration) => migration.version);
    } finally {
      await client.query("SELECT pg_advisory_unlock($1)", [MIGRATION_LOCK]).catch(() => undefined);
    }
  });
}

async function applyOne(client: PoolClient, migration: Migration): Promise<void> {
  await client.query("BEGIN");
  try {
    await client.query(migration.sql);
    await client.query("INSERT INTO schema_migrations (version, name, checksum) VALUES ($1, $2, $3)", [
      migration.version,
      migration.name,
      checksumOf(migration),
    ]);
    await client.query("COMMIT");
  } catch (error) {
    await client.query("ROLLBACK");
    throw new Error(`Migration ${migration.version}-${migration.name} failed: ${(error as Error).message}`, { cause: error });
  }
}
