import type { AppLoadContext } from "@remix-run/node";
import Database from "better-sqlite3";
import { sqliteStorePath } from "../../app/server/store/store.server";

/** The cookie a response set, ready to send back as a Cookie header. */
export function cookieFrom(response: Response): string {
  const header = response.headers.get("Set-Cookie");
  if (!header) throw new Error("The response set no cookie");
  return header.split(";")[0] ?? "";
}

export function getWithCookie(url: string, cookie: string | null): Request {
  return new Request(`http://localhost${url}`, { headers: cookie ? { Cookie: cookie } : {} });
}

/** Edits an agent's row in the SQLite file, as staff or another process would, then lets the replica notice. */
export async function editAgentRow(context: AppLoadContext, id: string, cells: Record<string, string>): Promise<void> {
  const db = new Database(sqliteStorePath(context.services.config));
  try {
    const assignments = Object.keys(cells)
      .map((column) => `"${column}" = ?`)
      .join(", ");
    db.prepare(`UPDATE "Agents" SET ${assignments} WHERE "id" = ?`).run(...Object.values(cells), id);
  } finally {
    db.close();
  }
  await context.services.store.refresh();
}

export function deleteAgentRow(context: AppLoadContext, id: string): Promise<void> {
  const db = new Database(sqliteStorePath(context.services.config));
  try {
    db.prepare(`DELETE FROM "Agents" WHERE "id" = ?`).run(id);
  } finally {
    db.close();
  }
  return context.services.store.refresh();
}

/** A thrown Response (a redirect from requireMember) or the returned one. */
export async function responseOf(run: () => unknown): Promise<Response> {
  try {
    const result = await run();
    if (result instanceof Response) return result;
    throw new Error(`Expected a Response, got ${JSON.stringify(result)}`);
  } catch (thrown) {
    if (thrown instanceof Response) return thrown;
    throw thrown;
  }
}

export type ActionReply = { init: ResponseInit | null; data: { initialValue?: Record<string, unknown>; error?: Record<string, string[]> } };
