import type { TestProject } from "vitest/node";
import { startPostgres } from "../../scripts/lib/postgres-server";

/**
 * vitest's global set-up: one throwaway PostgreSQL server for the whole run (each test makes
 * its own database on it, `usePostgres`), stopped at the end. Without PostgreSQL the run
 * stops here with the one line saying what to install; no test is skipped.
 */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const server = await startPostgres();
  project.provide("postgresUrl", server.url);
  return () => server.stop();
}

declare module "vitest" {
  export interface ProvidedContext {
    postgresUrl: string;
  }
}
