import { afterAll, beforeAll } from "vitest";
import { binDirectory, startPostgres, type PostgresServer } from "../../scripts/lib/postgres-server";

/**
 * One server for a test file, started before its tests and stopped after the last. A machine
 * without PostgreSQL fails the file as it is collected, with the one line saying what to
 * install, rather than reporting its tests as skipped.
 */
export function usePostgres(): { server(): PostgresServer } {
  binDirectory();
  let started: PostgresServer | undefined;
  beforeAll(async () => {
    started = await startPostgres();
  }, 30_000);
  afterAll(async () => {
    await started?.stop();
  });
  return {
    server() {
      if (!started) throw new Error("The PostgreSQL server is used before its tests start");
      return started;
    },
  };
}
