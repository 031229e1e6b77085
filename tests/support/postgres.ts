import { inject } from "vitest";
import { createDatabaseOn } from "../../scripts/lib/postgres-server";

/** The run's PostgreSQL server (tests/support/postgres-setup.ts): its URL, and new databases on it. */
export type TestPostgres = {
  readonly url: string;
  /** A new, empty database on the server, for one test: its connection URL. */
  createDatabase(): Promise<string>;
};

/** The throwaway PostgreSQL server vitest started for the run, shared by every test file. */
export function usePostgres(): { server(): TestPostgres } {
  const url = inject("postgresUrl");
  return { server: () => ({ url, createDatabase: () => createDatabaseOn(url) }) };
}
