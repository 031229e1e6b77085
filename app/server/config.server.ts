import { randomBytes } from "node:crypto";
import { mkdirSync, readFileSync, writeFileSync, existsSync } from "node:fs";
import path from "node:path";
import { isValidPhoneNumber, parsePhoneNumber } from "libphonenumber-js";
import { z } from "zod";

const optionalText = z
  .string()
  .trim()
  .transform((value) => (value === "" ? undefined : value))
  .optional();

const envSchema = z.object({
  NODE_ENV: z.enum(["development", "production", "test"]).default("development"),
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  HOST: z.string().default("0.0.0.0"),
  APP_URL: z.url().optional(),
  DATA_DIR: z.string().default("./data"),
  SESSION_SECRET: optionalText,
  SENDGRID_API_KEY: optionalText,
  MAIL_FROM: z.email().default("no-reply@redriverreferrals.com"),
  SUPPORT_EMAIL: z.email().default("support@redriverreferrals.com"),
  PRIVACY_EMAIL: z.email().default("privacy@redriverreferrals.com"),
  SUPPORT_PHONE: optionalText.refine((value) => value === undefined || isValidPhoneNumber(value, "US"), {
    message: "must be a valid phone number, e.g. +1 214 555 0100",
  }),
  LOG_REQUESTS: z.enum(["on", "off"]).default("on"),
  STORE_REFRESH_SECONDS: z.coerce.number().positive().max(3600).default(10),
});

export type Config = {
  env: "development" | "production" | "test";
  isProduction: boolean;
  port: number;
  host: string;
  /** Public base URL used in e-mailed links; falls back to the request's origin. */
  appUrl: string | undefined;
  dataDir: string;
  sessionSecrets: string[];
  sendgridApiKey: string | undefined;
  mailFrom: string;
  supportEmail: string;
  privacyEmail: string;
  /** Shown beside the support e-mail when set; pages offer only e-mail otherwise. */
  supportPhone: SupportPhone | undefined;
  logRequests: boolean;
  /** How often the in-memory replica re-reads the store. */
  storeRefreshSeconds: number;
};

export type SupportPhone = { display: string; href: string };

export class ConfigError extends Error {
  override name = "ConfigError";
}

/**
 * Reads and validates the environment once. In production every secret must be
 * given; elsewhere a development session secret is generated and kept in DATA_DIR
 * so the app starts on a fresh clone with no set-up.
 */
export function loadConfig(env: Record<string, string | undefined> = process.env): Config {
  const parsed = envSchema.safeParse(env);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((issue) => `${issue.path.join(".")}: ${issue.message}`);
    throw new ConfigError(`Invalid configuration:\n  ${problems.join("\n  ")}`);
  }
  const values = parsed.data;
  const isProduction = values.NODE_ENV === "production";
  const dataDir = path.resolve(values.DATA_DIR);

  let secretList = values.SESSION_SECRET?.split(",").map((s) => s.trim()).filter(Boolean) ?? [];
  if (secretList.length === 0) {
    if (isProduction) {
      throw new ConfigError(
        "SESSION_SECRET is required in production (a long random string; a comma-separated list rotates secrets).",
      );
    }
    secretList = [developmentSecret(dataDir)];
  }

  return {
    env: values.NODE_ENV,
    isProduction,
    port: values.PORT,
    host: values.HOST,
    appUrl: values.APP_URL?.replace(/\/+$/, ""),
    dataDir,
    sessionSecrets: secretList,
    sendgridApiKey: values.SENDGRID_API_KEY,
    mailFrom: values.MAIL_FROM,
    supportEmail: values.SUPPORT_EMAIL,
    privacyEmail: values.PRIVACY_EMAIL,
    supportPhone: values.SUPPORT_PHONE === undefined ? undefined : supportPhone(values.SUPPORT_PHONE),
    logRequests: values.LOG_REQUESTS === "on",
    storeRefreshSeconds: values.STORE_REFRESH_SECONDS,
  };
}

function supportPhone(value: string): SupportPhone {
  const phone = parsePhoneNumber(value, "US");
  return { display: phone.country === "US" ? phone.formatNational() : phone.formatInternational(), href: phone.getURI() };
}

function developmentSecret(dataDir: string): string {
  const file = path.join(dataDir, ".dev-session-secret");
  if (existsSync(file)) return readFileSync(file, "utf8").trim();
  mkdirSync(dataDir, { recursive: true });
  const secret = randomBytes(32).toString("hex");
  writeFileSync(file, secret, { mode: 0o600 });
  return secret;
}
