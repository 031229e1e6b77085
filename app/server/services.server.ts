import path from "node:path";
import { createAuthServices, type AuthServices } from "./auth/auth-services.server";
import type { Config } from "./config.server";
import { createOutboxMailer, createSendgridMailer, type Mailer } from "./mail/mailer.server";
import { createStoreFromConfig, type Store } from "./store/store.server";

export type Services = {
  config: Config;
  mailer: Mailer;
  /** The workbook's in-memory replica; `server.ts` loads it before listening. */
  store: Store;
  /** Session cookies and the login and password-reset rate limits. */
  auth: AuthServices;
};

export function outboxDirectory(config: Config): string {
  return path.join(config.dataDir, "outbox");
}

/** Chooses each outside service's driver from configuration, once, at start-up. */
export function createServices(config: Config): Services {
  const mailer = config.sendgridApiKey
    ? createSendgridMailer(config.sendgridApiKey, config.mailFrom)
    : createOutboxMailer(outboxDirectory(config), config.mailFrom);
  return { config, mailer, store: createStoreFromConfig(config), auth: createAuthServices(config) };
}
