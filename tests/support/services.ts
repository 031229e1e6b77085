import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import type { AppLoadContext } from "@remix-run/node";
import type { Agent } from "../../app/domain/workbook/tabs";
import { hashPassword } from "../../app/server/auth/password.server";
import { loadConfig, type Config } from "../../app/server/config.server";
import { readOutbox, type Mail, type StoredMail } from "../../app/server/mail/mailer.server";
import { createNotifier, type Notifier } from "../../app/server/notifier/notifier.server";
import type { SendClaims } from "../../app/server/send-claims.server";
import { createServices, outboxDirectory } from "../../app/server/service-lifecycle.server";
import type { Services } from "../../app/server/services.server";
import { agentRecord } from "./records";

/**
 * bcrypt's lowest cost, for the many logins of a test run (decision 0040). A context
 * configured as production keeps production's cost, which tests/unit/config.test.ts proves.
 */
export const TEST_PASSWORD_HASH_COST = "4";

/**
 * Real services on a throw-away data directory, for calling loaders and actions directly:
 * mail goes to its outbox, the store is an empty SQLite file in it. Records written with
 * `services.store.<tab>.insert()` are visible at once; call `services.store.refresh()`
 * after writing to the file any other way. An overriding `store` replaces only that member:
 * the queues and caches stay over the original store.
 */
export function testContext(overrides: Partial<Services> = {}, env: Record<string, string> = {}): AppLoadContext {
  return { services: { ...createServices(testConfig(env)), ...overrides }, nonce: "test-nonce" };
}

/** The configuration testContext's services get, on a throw-away data directory. */
export function testConfig(env: Record<string, string> = {}): Config {
  const dataDir = mkdtempSync(path.join(tmpdir(), "referral-test-"));
  const cost = env.NODE_ENV === "production" ? {} : { PASSWORD_HASH_COST: TEST_PASSWORD_HASH_COST };
  // Tests post forms at once; tests/security/bot-trap.test.ts turns the minimum fill time back on (decision 0058).
  return loadConfig({
    NODE_ENV: "test",
    DATA_DIR: dataDir,
    SUPPORT_EMAIL: "support@example.test",
    FORM_MIN_FILL_SECONDS: "0",
    ...cost,
    ...env,
  });
}

const hashes = new Map<string, Promise<string>>();

/** bcrypt at production's cost takes a third of a second: each test password is hashed once per run and cost. */
function testHash(config: Config, password: string): Promise<string> {
  const key = `${config.passwordHashCost}:${password}`;
  let hash = hashes.get(key);
  if (!hash) {
    hash = hashPassword(config, password);
    hashes.set(key, hash);
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
    // A referral agreement names both sponsoring brokers: a member has one unless a test says otherwise.
    brokerLicenseNumber: "0598765",
    membershipType: "founder",
    createdAt: new Date().toISOString(),
    ...rest,
    passwordHash: await testHash(context.services.config, password),
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
