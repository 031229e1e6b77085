import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import type { AppLoadContext } from "@remix-run/node";
import type { Agent } from "../../app/domain/workbook/tabs";
import { hashPassword } from "../../app/server/auth/password.server";
import { loadConfig } from "../../app/server/config.server";
import { readOutbox, type Mail, type StoredMail } from "../../app/server/mail/mailer.server";
import { createNotifier, type Notifier } from "../../app/server/notifier/notifier.server";
import type { SendClaims } from "../../app/server/send-claims.server";
import { createServices, outboxDirectory, type Services } from "../../app/server/services.server";
import { agentRecord } from "./records";

/**
 * Real services on a throw-away data directory, for calling loaders and actions directly:
 * mail goes to its outbox, the store is an empty SQLite file in it. Records written with
 * `services.store.<tab>.insert()` are visible at once; call `services.store.refresh()`
 * after writing to the file any other way. An overriding `store` replaces only that member:
 * the queues and caches stay over the original store.
 */
export function testContext(overrides: Partial<Services> = {}, env: Record<string, string> = {}): AppLoadContext {
  const dataDir = mkdtempSync(path.join(tmpdir(), "referral-test-"));
  const config = loadConfig({ NODE_ENV: "test", DATA_DIR: dataDir, SUPPORT_EMAIL: "support@example.test", ...env });
  return { services: { ...createServices(config), ...overrides }, nonce: "test-nonce" };
}

const hashes = new Map<string, Promise<string>>();

/** bcrypt at full cost takes a third of a second: each test password is hashed once per run. */
function testHash(password: string): Promise<string> {
  let hash = hashes.get(password);
  if (!hash) {
    hash = hashPassword(password);
    hashes.set(password, hash);
  }
  return hash;
}

/** Stores an agent (approved unless told otherwise) whose password is `password`. */
export async function insertAgent(
  context: AppLoadContext,
  fields: Partial<Omit<Agent, "passwordHash">> & { password?: string } = {},
): Promise<Agent> {
  const { password = "correct horse battery", ...rest } = fields;
  const agent = agentRecord({
    zipCode: "",
    licenseNumber: "0123456",
    licenseExpiration: "",
    brokerage: "Red River Realty",
    membershipType: "founder",
    createdAt: new Date().toISOString(),
    ...rest,
    passwordHash: await testHash(password),
  });
  return context.services.store.agents.insert(agent);
}

export function postForm(url: string, fields: Record<string, string | string[]>): Request {
  const body = new URLSearchParams();
  for (const [name, value] of Object.entries(fields)) {
    for (const item of Array.isArray(value) ? value : [value]) body.append(name, item);
  }
  return new Request(`http://localhost${url}`, { method: "POST", body });
}

/** The mails in the services' outbox once every queued mail is sent or given up: tests wait on the queue, never on the clock. */
export async function sentMails(services: Pick<Services, "notifier" | "config">): Promise<StoredMail[]> {
  await services.notifier.idle();
  return readOutbox(outboxDirectory(services.config));
}

/** A notifier over `claims` whose driver keeps each mail it is handed in `sent`. */
export function collectingNotifier(sent: Mail[], claims: SendClaims): Notifier {
  const config = loadConfig({ NODE_ENV: "test", DATA_DIR: mkdtempSync(path.join(tmpdir(), "referral-test-")) });
  return createNotifier({ driver: { driver: "outbox", send: async (mail) => void sent.push(mail) }, claims, config });
}
