import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import type { AppLoadContext } from "@remix-run/node";
import { loadConfig } from "../../app/server/config.server";
import { createServices, type Services } from "../../app/server/services.server";

/**
 * Real services on a throw-away data directory, for calling loaders and actions directly:
 * mail goes to its outbox, the store is an empty SQLite file in it. Records written with
 * `services.store.<tab>.insert()` are visible at once; call `services.store.refresh()`
 * after writing to the file any other way.
 */
export function testContext(overrides: Partial<Services> = {}): AppLoadContext {
  const dataDir = mkdtempSync(path.join(tmpdir(), "referral-test-"));
  const config = loadConfig({ NODE_ENV: "test", DATA_DIR: dataDir, SUPPORT_EMAIL: "support@example.test" });
  return { services: { ...createServices(config), ...overrides }, nonce: "test-nonce" };
}

export function postForm(url: string, fields: Record<string, string | string[]>): Request {
  const body = new URLSearchParams();
  for (const [name, value] of Object.entries(fields)) {
    for (const item of Array.isArray(value) ? value : [value]) body.append(name, item);
  }
  return new Request(`http://localhost${url}`, { method: "POST", body });
}
