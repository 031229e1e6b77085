import bcrypt from "bcryptjs";
import { AGENTS_TAB, type Agent } from "../../../app/domain/workbook/tabs";
import { e2eBaseUrl, e2eDataDir, e2eHealthHeaders } from "./env";
import { insertRows, updateRow } from "./store-file";

/** A bcrypt hash at the lowest cost: seeded test accounts need a real hash, not a slow one. */
export function quickPasswordHash(password: string): string {
  return bcrypt.hashSync(password, 4);
}

/**
 * Writes agents straight into the e2e server's store (or another server's), skipping ids
 * already there: the js-on and js-off workers may seed the same agents at once.
 */
export function seedAgents(agents: readonly Agent[], dataDir = e2eDataDir): void {
  insertRows(AGENTS_TAB, agents, { skipExisting: true, dataDir });
}

/** Edits cells of an agent's row in the e2e server's store, as staff would in the sheet. */
export function updateAgentRow(id: string, cells: Readonly<Record<string, string>>): void {
  updateRow(AGENTS_TAB, id, cells);
}

/**
 * Resolves once the server's replica has read the store from scratch after this call:
 * the first refresh seen may have started before the write, the second cannot have.
 */
export async function waitForReplica(baseUrl = e2eBaseUrl, timeoutMs = 15_000): Promise<void> {
  const after = Date.now();
  const deadline = after + timeoutMs;
  let first: string | undefined;
  while (Date.now() < deadline) {
    const health = (await (await fetch(`${baseUrl}/healthz`, { headers: e2eHealthHeaders })).json()) as {
      store: { lastRefreshAt: string | null };
    };
    const at = health.store.lastRefreshAt;
    if (at !== null && Date.parse(at) > after) {
      if (first !== undefined && at !== first) return;
      first ??= at;
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error("The server's store did not refresh in time");
}
