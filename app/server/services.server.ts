import path from "node:path";
import type { Config } from "./config.server";
import { createOutboxMailer, createSendgridMailer, type Mailer } from "./mail/mailer.server";
import { createStoreFromConfig, type Store } from "./store/store.server";

export type Services = {
  config: Config;
  mailer: Mailer;
  /** The workbook's in-memory replica; `server.ts` loads it before listening. */
  store: Store;
};

export function outboxDirectory(config: Config): string {
  return path.join(config.dataDir, "outbox");
}

/** Chooses each outside service's driver from configuration, once, at start-up. */
export function createServices(config: Config): Services {
  const mailer = config.sendgridApiKey
    ? createSendgridMailer(config.sendgridApiKey, config.mailFrom)
    : createOutboxMailer(outboxDirectory(config), config.mailFrom);
  return { config, mailer, store: createStoreFromConfig(config) };
}
