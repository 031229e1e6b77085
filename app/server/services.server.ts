import path from "node:path";
import type { Config } from "./config.server";
import { createOutboxMailer, createSendgridMailer, type Mailer } from "./mail/mailer.server";

export type Services = {
  config: Config;
  mailer: Mailer;
};

export function outboxDirectory(config: Config): string {
  return path.join(config.dataDir, "outbox");
}

/** Chooses each outside service's driver from configuration, once, at start-up. */
export function createServices(config: Config): Services {
  const mailer = config.sendgridApiKey
    ? createSendgridMailer(config.sendgridApiKey, config.mailFrom)
    : createOutboxMailer(outboxDirectory(config), config.mailFrom);
  return { config, mailer };
}
