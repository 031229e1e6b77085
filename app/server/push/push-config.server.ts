import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import webPush from "web-push";
import { z } from "zod";
import { optionalText } from "../env-text.server";

/**
 * Web Push's part of the validated configuration (docs/decisions/0068): the VAPID key pair
 * and contact, and how long a mail waits after its push. `config.server.ts` reads it with
 * the rest of the environment.
 */

/** A P-256 public key, uncompressed (RFC 8292): 0x04 then the two 32-byte coordinates. */
const VAPID_PUBLIC_KEY_BYTES = 65;
const VAPID_PRIVATE_KEY_BYTES = 32;
const VAPID_VARIABLES = ["VAPID_PUBLIC_KEY", "VAPID_PRIVATE_KEY", "VAPID_SUBJECT"] as const;

function isBase64UrlOfLength(value: string, bytes: number): boolean {
  return /^[A-Za-z0-9_-]+$/.test(value) && Buffer.from(value, "base64url").length === bytes;
}

export const PUSH_ENV = {
  VAPID_PUBLIC_KEY: optionalText.refine((value) => value === undefined || isBase64UrlOfLength(value, VAPID_PUBLIC_KEY_BYTES), {
    message: "must be the public key `npx web-push generate-vapid-keys` prints (base64url, 65 bytes)",
  }),
  VAPID_PRIVATE_KEY: optionalText.refine((value) => value === undefined || isBase64UrlOfLength(value, VAPID_PRIVATE_KEY_BYTES), {
    message: "must be the private key `npx web-push generate-vapid-keys` prints (base64url, 32 bytes)",
  }),
  VAPID_SUBJECT: optionalText.refine((value) => value === undefined || /^(mailto:\S+@\S+|https:\/\/\S+)$/.test(value), {
    message: "must be a mailto: address or an https: URL the push services can reach you at, e.g. mailto:support@example.com",
  }),
  PUSH_MAIL_WAIT_MS: z.coerce
    .number()
    .int()
    .min(0)
    .max(86_400_000)
    .default(15 * 60_000),
};

type PushEnv = z.infer<z.ZodObject<typeof PUSH_ENV>> & { SUPPORT_EMAIL: string };

/** Web Push (docs/mail.md, docs/decisions/0067). */
export type PushConfig = {
  /** The VAPID key pair and contact; undefined turns push off and the rest of the site runs. */
  vapid: VapidKeys | undefined;
  /** Why push is off, for the start-up line, /healthz and the settings page's staff; undefined when on. */
  offBecause: string | undefined;
  /** How long a mail waits after its push landed before going, if the item is still unread (PUSH_MAIL_WAIT_MS). */
  mailWaitMs: number;
};

type VapidKeys = { publicKey: string; privateKey: string; subject: string };

/**
 * Production needs all three VAPID variables: without them push is off (said at start-up)
 * and mail goes as before. Elsewhere, with no keys given, a pair is made once in DATA_DIR
 * and kept, so subscriptions made in development survive a restart.
 */
export function pushConfig(values: PushEnv, isProduction: boolean, dataDir: string): PushConfig {
  const mailWaitMs = values.PUSH_MAIL_WAIT_MS;
  const given = {
    VAPID_PUBLIC_KEY: values.VAPID_PUBLIC_KEY,
    VAPID_PRIVATE_KEY: values.VAPID_PRIVATE_KEY,
    VAPID_SUBJECT: values.VAPID_SUBJECT,
  };
  const keysGiven = given.VAPID_PUBLIC_KEY !== undefined || given.VAPID_PRIVATE_KEY !== undefined;
  if (!isProduction && !keysGiven) {
    const subject = given.VAPID_SUBJECT ?? `mailto:${values.SUPPORT_EMAIL}`;
    return { vapid: { ...developmentVapidKeys(dataDir), subject }, offBecause: undefined, mailWaitMs };
  }
  const missing = VAPID_VARIABLES.filter((name) => given[name] === undefined);
  if (missing.length > 0) return { vapid: undefined, offBecause: `${missing.join(", ")} not set`, mailWaitMs };
  return {
    vapid: { publicKey: given.VAPID_PUBLIC_KEY!, privateKey: given.VAPID_PRIVATE_KEY!, subject: given.VAPID_SUBJECT! },
    offBecause: undefined,
    mailWaitMs,
  };
}

/** A P-256 key pair for VAPID, made once per data folder outside production. */
function developmentVapidKeys(dataDir: string): Pick<VapidKeys, "publicKey" | "privateKey"> {
  const file = path.join(dataDir, ".dev-vapid-keys.json");
  if (existsSync(file)) return JSON.parse(readFileSync(file, "utf8")) as Pick<VapidKeys, "publicKey" | "privateKey">;
  mkdirSync(dataDir, { recursive: true });
  const keys = webPush.generateVAPIDKeys();
  writeFileSync(file, JSON.stringify(keys), { mode: 0o600 });
  return keys;
}
