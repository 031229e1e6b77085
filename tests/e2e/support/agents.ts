import path from "node:path";
import bcrypt from "bcryptjs";
import Database from "better-sqlite3";
import { AGENTS_TAB, serialiseRecord, type Agent } from "../../../app/domain/workbook";
import { e2eBaseUrl, e2eDataDir, e2eHealthHeaders } from "./env";

/** A bcrypt hash at the lowest cost: seeded test accounts need a real hash, not a slow one. */
export function quickPasswordHash(password: string): string {
  return bcrypt.hashSync(password, 4);
}

/**
 * Writes agents straight into the e2e server's SQLite store, skipping ids already
 * there, in one transaction: the js-on and js-off workers may seed the same agents at
 * once. The server sees them on its next store refresh.
 */
export function seedAgents(agents: readonly Agent[], dataDir = e2eDataDir): void {
  const db = new Database(path.join(dataDir, "store.sqlite"));
  db.pragma("busy_timeout = 10000");
  try {
    const table = `"${AGENTS_TAB.name}"`;
    const columns = AGENTS_TAB.headers.map((header) => `"${header}"`).join(", ");
    const placeholders = AGENTS_TAB.headers.map(() => "?").join(", ");
    const exists = db.prepare(`SELECT 1 FROM ${table} WHERE id = ?`);
    const insert = db.prepare(`INSERT INTO ${table} (${columns}) VALUES (${placeholders})`);
    const insertMissing = db.transaction(() => {
      for (const agent of agents) {
        if (exists.get(agent.id)) continue;
        const cells = serialiseRecord(AGENTS_TAB, agent);
        insert.run(...AGENTS_TAB.headers.map((header) => cells[header] ?? ""));
      }
    });
    insertMissing.immediate();
  } finally {
    db.close();
  }
}

/** Edits cells of an agent's row in the e2e server's SQLite store, as staff would in the sheet. */
export function updateAgentRow(id: string, cells: Readonly<Record<string, string>>): void {
  const db = new Database(path.join(e2eDataDir, "store.sqlite"));
  db.pragma("busy_timeout = 10000");
  try {
    const assignments = Object.keys(cells).map((column) => `"${column.replaceAll('"', '""')}" = ?`).join(", ");
    db.prepare(`UPDATE "${AGENTS_TAB.name}" SET ${assignments} WHERE id = ?`).run(...Object.values(cells), id);
  } finally {
    db.close();
  }
}

/**
 * Resolves once the server's replica has read the store from scratch after this call:
 * the first refresh seen may have started before the write, the second cannot have.
 */
export async function waitForStoreRefresh(timeoutMs = 15_000, baseUrl = e2eBaseUrl): Promise<void> {
  const after = Date.now();
  const deadline = after + timeoutMs;
  let first: string | undefined;
  while (Date.now() < deadline) {
    const health = (await (await fetch(`${baseUrl}/healthz`, { headers: e2eHealthHeaders })).json()) as { store: { lastRefreshAt: string | null } };
    const at = health.store.lastRefreshAt;
    if (at !== null && Date.parse(at) > after) {
      if (first !== undefined && at !== first) return;
      first ??= at;
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error("The server's store did not refresh in time");
}
