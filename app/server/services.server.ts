import path from "node:path";
import { watchAgentDecisions } from "./accounts/status-mail.server";
import { createAuthServices, type AuthServices } from "./auth/auth-services.server";
import type { Config } from "./config.server";
import { createImageService, type ImageService } from "./images/images.server";
import { createPhotoFetcher, type PhotoFetcher } from "./images/remote-photo.server";
import { createLicenseService, type LicenseService } from "./licenses/licenses.server";
import { createOutboxMailer, createSendgridMailer, type Mailer } from "./mail/mailer.server";
import { createStoreFromConfig, type Store } from "./store/store.server";
import { createWriteLimits, type WriteLimits } from "./write-limits.server";

export type Services = {
  config: Config;
  mailer: Mailer;
  /** The workbook's in-memory replica; `server.ts` loads it before listening. */
  store: Store;
  /** Session cookies and the login and password-reset rate limits. */
  auth: AuthServices;
  /** Profile photos: Cloudinary when configured, files in DATA_DIR/uploads otherwise. */
  images: ImageService;
  /** Fetches a photo a member linked to, with guards against reaching internal addresses, so it can be re-hosted. */
  photoFetcher: PhotoFetcher;
  /** Per-hour limits on contact messages, sign-ups and every member write. */
  limits: WriteLimits;
  /** TREC's license data: the check at registration, the daily refresh and lapse check (start/stop with the server). */
  licenses: LicenseService;
};

export function outboxDirectory(config: Config): string {
  return path.join(config.dataDir, "outbox");
}

/** Chooses each outside service's driver from configuration, once, at start-up. */
export function createServices(config: Config): Services {
  const mailer = config.sendgridApiKey
    ? createSendgridMailer(config.sendgridApiKey, config.mailFrom, config.sendgridApiUrl)
    : createOutboxMailer(outboxDirectory(config), config.mailFrom);
  const store = createStoreFromConfig(config);
  // Staff approve and reject agents in the sheet; the agent hears of it by mail.
  watchAgentDecisions({ store, mailer, config });
  return {
    config,
    mailer,
    store,
    auth: createAuthServices(config),
    images: createImageService(config),
    photoFetcher: createPhotoFetcher(),
    limits: createWriteLimits(config),
    licenses: createLicenseService({ config, store, mailer }),
  };
}
