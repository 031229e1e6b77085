import { randomBytes, type KeyObject } from "node:crypto";
import { mkdirSync, readFileSync, writeFileSync, existsSync } from "node:fs";
import path from "node:path";
import { isValidPhoneNumber, parsePhoneNumber } from "libphonenumber-js";
import { z } from "zod";
import { optionalText } from "./env-text.server";
import { PUSH_ENV, pushConfig, type PushConfig } from "./push/push-config.server";
import { INBOUND_ENV, inboundConfig, type InboundConfig } from "./mail/inbound-config.server";
import { OUTREACH_ENV, mailEventsKey } from "./outreach/outreach-config.server";
import { ConfigError } from "./env-text.server";

export { ConfigError };

const envSchema = z.object({
  NODE_ENV: z.enum(["development", "production", "test"]).default("development"),
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  HOST: z.string().default("0.0.0.0"),
  APP_URL: z.url().optional(),
  DATA_DIR: z.string().default("./data"),
  SESSION_SECRET: optionalText,
  SENDGRID_API_KEY: optionalText,
  SENDGRID_API_URL: optionalText.refine((value) => value === undefined || URL.canParse(value), {
    message: "must be a URL, e.g. http://127.0.0.1:3291/",
  }),
  MAIL_FROM: z.email().default("no-reply@redriverreferrals.com"),
  SUPPORT_EMAIL: z.email().default("support@redriverreferrals.com"),
  PRIVACY_EMAIL: z.email().default("privacy@redriverreferrals.com"),
  SUPPORT_PHONE: optionalText.refine((value) => value === undefined || isValidPhoneNumber(value, "US"), {
    message: "must be a valid phone number, e.g. +1 214 555 0100",
  }),
  LOG_REQUESTS: z.enum(["on", "off"]).default("on"),
  TRUST_PROXY: z.string().trim().default("loopback"),
  STORE_REFRESH_SECONDS: z.coerce.number().positive().max(3600).default(10),
  AUTH_ATTEMPTS_PER_IP: z.coerce.number().int().positive().default(30),
  LOGIN_FAILURES_PER_EMAIL_AND_IP: z.coerce.number().int().positive().default(10),
  LOGIN_FAILURES_PER_ACCOUNT: z.coerce.number().int().positive().default(10),
  CONTACT_PER_IP_PER_HOUR: z.coerce.number().int().positive().default(5),
  REGISTRATIONS_PER_IP_PER_HOUR: z.coerce.number().int().positive().default(5),
  FORM_MIN_FILL_SECONDS: z.coerce.number().min(0).max(600).default(3),
  MEMBER_WRITES_PER_IP_PER_HOUR: z.coerce.number().int().positive().default(600),
  MESSAGES_PER_MEMBER_PER_HOUR: z.coerce.number().int().positive().default(100),
  MESSAGES_PER_MEMBER_PER_MINUTE: z.coerce.number().int().positive().default(20),
  BROKER_REQUESTS_PER_HOUR: z.coerce.number().int().positive().default(10),
  RESPONSES_PER_MEMBER_PER_HOUR: z.coerce.number().int().positive().default(20),
  REQUESTS_PER_MEMBER_PER_HOUR: z.coerce.number().int().positive().default(10),
  MARKS_PER_MEMBER_PER_HOUR: z.coerce.number().int().positive().default(200),
  SETTINGS_PER_MEMBER_PER_HOUR: z.coerce.number().int().positive().default(30),
  REPORTS_PER_MEMBER_PER_HOUR: z.coerce.number().int().positive().default(10),
  REFERRAL_ACTIONS_PER_MEMBER_PER_HOUR: z.coerce.number().int().positive().default(30),
  VIP_CODES: z.string().default(""),
  HEALTH_TOKEN: optionalText.refine((value) => value === undefined || value.length >= 24, {
    message: "must be at least 24 characters (a random string, e.g. from `openssl rand -hex 24`)",
  }),
  CLOUDINARY_URL: optionalText.refine((value) => value === undefined || parseCloudinaryUrl(value) !== undefined, {
    message: "must look like cloudinary://API_KEY:API_SECRET@CLOUD_NAME (optionally ending ?upload_prefix=URL)",
  }),
  GOOGLE_SHEETS_ID: optionalText,
  DATABASE_URL: optionalText.refine((value) => value === undefined || /^postgres(ql)?:\/\//.test(value), {
    message: "must be a PostgreSQL connection URL, e.g. postgres://user:password@host:5432/referrals",
  }),
  GOOGLE_APPLICATION_CREDENTIALS: optionalText,
  GOOGLE_SERVICE_ACCOUNT_JSON: optionalText,
  SHEETS_WRITE_CALLS_PER_MINUTE: z.coerce.number().int().min(1).max(300).default(24),
  GOOGLE_SHEETS_API_URL: optionalText.refine((value) => value === undefined || URL.canParse(value), {
    message: "must be a URL, e.g. http://127.0.0.1:8085/",
  }),
  TREC_LICENSE_FILE_URL: optionalText.refine((value) => value === undefined || URL.canParse(value), {
    message: "must be the URL of TREC's tab-delimited license holder file (trecfile.txt)",
  }),
  TREC_LICENSE_API_URL: optionalText.refine((value) => value === undefined || URL.canParse(value), {
    message: "must be the open-data dataset's API URL, e.g. https://data.texas.gov/resource/xxxx-xxxx.json",
  }),
  LICENSE_AUTO_APPROVE: z.enum(["off", "tx-active-exact"]).default("off"),
  PASSWORD_HASH_COST: z.coerce.number().int().min(4).max(20).optional(),
  ...PUSH_ENV,
  ...INBOUND_ENV,
  ...OUTREACH_ENV,
});

/** bcrypt's work factor in production: about a third of a second per hash on a current server core. */
export const PRODUCTION_PASSWORD_HASH_COST = 12;

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
  /** SendGrid's API root when not https://api.sendgrid.com/ (a local stand-in of the API). */
  sendgridApiUrl: string | undefined;
  mailFrom: string;
  /** The waits before each new try of a mail the driver refused (docs/mail.md): seconds in service, milliseconds in tests. */
  mailRetryDelaysMs: readonly number[];
  /** The waits before each new try of a push the push service answered 429 or 5xx (unless it sent Retry-After). */
  pushRetryDelaysMs: readonly number[];
  supportEmail: string;
  privacyEmail: string;
  /** Shown beside the support e-mail when set; pages offer only e-mail otherwise. */
  supportPhone: SupportPhone | undefined;
  logRequests: boolean;
  /** Express's "trust proxy" setting: which proxies may set X-Forwarded-For (client IPs feed the rate limits). */
  trustProxy: boolean | number | string;
  /** How often the in-memory replica re-reads the store. */
  storeRefreshSeconds: number;
  /** Failed login attempts, and separately password-reset requests, one IP address may make per 15 minutes. */
  authAttemptsPerIp: number;
  /** Failed logins to one e-mail from one IP address per 15 minutes: guesses from elsewhere never lock the owner out. */
  loginFailuresPerEmailAndIp: number;
  /** Failed logins to one e-mail from all addresses per 15 minutes, except from the account's own browsers (decision 0030). */
  loginFailuresPerAccount: number;
  /** Writes allowed per hour, and messages per minute too (see WriteLimits). */
  writeLimits: WriteLimitConfig;
  /** The contact and registration forms are refused when sent sooner than this after the page rendered them; 0 checks only the honeypot (decision 0058). */
  formMinFillSeconds: number;
  /** Invitation codes that make a registration VIP; compared case-insensitively. */
  vipCodes: string[];
  /** The bearer token that unlocks /healthz's details (driver, errors, invalid rows); unset keeps them hidden. */
  healthToken: string | undefined;
  /** Where profile photos go; undefined keeps them as files in DATA_DIR/uploads. */
  cloudinary: CloudinaryConfig | undefined;
  /** The Google spreadsheet holding the workbook; undefined means the embedded SQLite file in DATA_DIR. */
  sheets: SheetsConfig | undefined;
  /** The PostgreSQL database holding the high-volume tabs (docs/decisions/0053); undefined keeps every tab in the sheet or file. */
  databaseUrl: string | undefined;
  licenses: LicenseConfig;
  /** bcrypt's work factor for new hashes: production's unless a test run asks for less (decision 0040). */
  passwordHashCost: number;
  push: PushConfig;
  inbound: InboundConfig;
  /** The operator's postal address, in every invitation's footer; invitations are off in production without it (docs/decisions/0084). */
  postalAddress: string | undefined;
  /** The key SendGrid's Event Webhook signs its posts with; undefined keeps POST /mail/events off (404). */
  mailEventsKey: KeyObject | undefined;
};

type LicenseConfig = {
  /** Where the daily refresh reads TREC's data; undefined: only `npm run licenses:update` loads it. */
  source: { kind: "file" | "api"; url: string } | undefined;
  /** LICENSE_AUTO_APPROVE=tx-active-exact: approve Texas applicants whose check is clean at once. */
  autoApprove: boolean;
};

type WriteLimitConfig = {
  contactPerIp: number;
  /** Complete sign-ups (agent rows, founder spots, mails) from one IP address. */
  registrationsPerIp: number;
  /** Every member write (messages, responses, posts, marks) from one IP address together. */
  memberWritesPerIp: number;
  messagesPerMember: number;
  /** A burst of messages: more than a fast typist sends in a minute is a script flooding a member. */
  messagesPerMemberPerMinute: number;
  responsesPerMember: number;
  requestsPerMember: number;
  marksPerMember: number;
  settingsPerMember: number;
  reportsPerMember: number;
  /** Proposals, term changes, signatures, withdrawals, declines and pipeline steps together. */
  referralActionsPerMember: number;
  /** New pending rows in the Brokers tab, from everyone together: staff check each by hand. */
  pendingBrokersPerHour: number;
};

export type SheetsCredentials =
  /** A service account key file (GOOGLE_APPLICATION_CREDENTIALS). */
  | { kind: "keyFile"; path: string }
  /** A service account key given inline (GOOGLE_SERVICE_ACCOUNT_JSON). */
  | { kind: "json"; json: Record<string, unknown> }
  /** No credentials: a fixed bearer token, only for a local stand-in of the API (GOOGLE_SHEETS_API_URL). */
  | { kind: "fixedToken" };

type SheetsConfig = {
  spreadsheetId: string;
  credentials: SheetsCredentials;
  /** The API's root URL when not Google's own (the fake Sheets server). */
  apiUrl: string | undefined;
  /**
   * Write calls this instance sends a minute at most. Every instance signs in as the same
   * service account, whose quota is 60 writes a minute: 24 lets two instances stay under it
   * with room for start-up and for the calls sent again after staff moved rows or columns.
   * Appends and updates of every tab arriving in between go together in the next call.
   */
  writeCallsPerMinute: number;
};

export type CloudinaryConfig = {
  cloudName: string;
  apiKey: string;
  apiSecret: string;
  /** The Upload API's root when not https://api.cloudinary.com (a local stand-in of the API). */
  uploadPrefix: string | undefined;
};

type SupportPhone = { display: string; href: string };

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

  let secretList =
    values.SESSION_SECRET?.split(",")
      .map((s) => s.trim())
      .filter(Boolean) ?? [];
  if (secretList.length === 0) {
    if (isProduction) {
      throw new ConfigError("SESSION_SECRET is required in production (a long random string; a comma-separated list rotates secrets).");
    }
    secretList = [developmentSecret(dataDir)];
  }
  // Mailed links (password reset) must not take their address from a Host header anyone can forge.
  if (isProduction && !values.APP_URL) {
    throw new ConfigError("APP_URL is required in production (the public https:// address used in e-mailed links).");
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
    sendgridApiUrl: values.SENDGRID_API_URL,
    mailFrom: values.MAIL_FROM,
    mailRetryDelaysMs: values.NODE_ENV === "test" ? [10, 50] : [2_000, 10_000],
    pushRetryDelaysMs: values.NODE_ENV === "test" ? [10, 50] : [1_000, 5_000],
    supportEmail: values.SUPPORT_EMAIL,
    privacyEmail: values.PRIVACY_EMAIL,
    supportPhone: values.SUPPORT_PHONE === undefined ? undefined : supportPhone(values.SUPPORT_PHONE),
    logRequests: values.LOG_REQUESTS === "on",
    trustProxy: parseTrustProxy(values.TRUST_PROXY),
    storeRefreshSeconds: values.STORE_REFRESH_SECONDS,
    authAttemptsPerIp: values.AUTH_ATTEMPTS_PER_IP,
    loginFailuresPerEmailAndIp: values.LOGIN_FAILURES_PER_EMAIL_AND_IP,
    loginFailuresPerAccount: values.LOGIN_FAILURES_PER_ACCOUNT,
    formMinFillSeconds: values.FORM_MIN_FILL_SECONDS,
    writeLimits: {
      contactPerIp: values.CONTACT_PER_IP_PER_HOUR,
      registrationsPerIp: values.REGISTRATIONS_PER_IP_PER_HOUR,
      memberWritesPerIp: values.MEMBER_WRITES_PER_IP_PER_HOUR,
      messagesPerMember: values.MESSAGES_PER_MEMBER_PER_HOUR,
      messagesPerMemberPerMinute: values.MESSAGES_PER_MEMBER_PER_MINUTE,
      responsesPerMember: values.RESPONSES_PER_MEMBER_PER_HOUR,
      requestsPerMember: values.REQUESTS_PER_MEMBER_PER_HOUR,
      marksPerMember: values.MARKS_PER_MEMBER_PER_HOUR,
      settingsPerMember: values.SETTINGS_PER_MEMBER_PER_HOUR,
      reportsPerMember: values.REPORTS_PER_MEMBER_PER_HOUR,
      referralActionsPerMember: values.REFERRAL_ACTIONS_PER_MEMBER_PER_HOUR,
      pendingBrokersPerHour: values.BROKER_REQUESTS_PER_HOUR,
    },
    vipCodes: values.VIP_CODES.split(",")
      .map((code) => code.trim())
      .filter(Boolean),
    healthToken: values.HEALTH_TOKEN,
    cloudinary: values.CLOUDINARY_URL === undefined ? undefined : parseCloudinaryUrl(values.CLOUDINARY_URL),
    sheets: sheetsConfig(values, isProduction),
    databaseUrl: values.DATABASE_URL,
    licenses: licenseConfig(values),
    passwordHashCost: passwordHashCost(values),
    push: pushConfig(values, isProduction, dataDir),
    inbound: inboundConfig(values),
    postalAddress: values.POSTAL_ADDRESS,
    mailEventsKey: mailEventsKey(values),
  };
}

/** Only NODE_ENV=test may hash below production's cost: test logins are many, and none guards an account. */
function passwordHashCost(values: z.infer<typeof envSchema>): number {
  const cost = values.PASSWORD_HASH_COST ?? PRODUCTION_PASSWORD_HASH_COST;
  if (cost < PRODUCTION_PASSWORD_HASH_COST && values.NODE_ENV !== "test") {
    throw new ConfigError(
      `PASSWORD_HASH_COST below ${PRODUCTION_PASSWORD_HASH_COST} is for tests only (NODE_ENV=test): remove it to use ${PRODUCTION_PASSWORD_HASH_COST}.`,
    );
  }
  return cost;
}

function licenseConfig(values: z.infer<typeof envSchema>): LicenseConfig {
  const fileUrl = values.TREC_LICENSE_FILE_URL;
  const apiUrl = values.TREC_LICENSE_API_URL;
  if (fileUrl && apiUrl)
    throw new ConfigError("Set only one of TREC_LICENSE_FILE_URL (the published file) and TREC_LICENSE_API_URL (the open-data API).");
  const source = fileUrl ? { kind: "file" as const, url: fileUrl } : apiUrl ? { kind: "api" as const, url: apiUrl } : undefined;
  return { source, autoApprove: values.LICENSE_AUTO_APPROVE === "tx-active-exact" };
}

/** Decides between SQLite and Google Sheets, refusing half a Sheets configuration. */
function sheetsConfig(values: z.infer<typeof envSchema>, isProduction: boolean): SheetsConfig | undefined {
  const spreadsheetId = values.GOOGLE_SHEETS_ID;
  const keyFile = values.GOOGLE_APPLICATION_CREDENTIALS;
  const keyJson = values.GOOGLE_SERVICE_ACCOUNT_JSON;
  const apiUrl = values.GOOGLE_SHEETS_API_URL;
  const writeCallsPerMinute = values.SHEETS_WRITE_CALLS_PER_MINUTE;
  if (spreadsheetId === undefined) {
    // GOOGLE_APPLICATION_CREDENTIALS alone is no mistake: other Google tools on the machine read it too.
    const stray = [keyJson && "GOOGLE_SERVICE_ACCOUNT_JSON", apiUrl && "GOOGLE_SHEETS_API_URL"].filter(Boolean);
    if (stray.length > 0)
      throw new ConfigError(
        `${stray.join(" and ")} set without GOOGLE_SHEETS_ID: set the spreadsheet's id too, or remove them to use the embedded SQLite store.`,
      );
    return undefined;
  }
  if (keyFile && keyJson) {
    throw new ConfigError(
      "Set only one of GOOGLE_APPLICATION_CREDENTIALS (a key file's path) and GOOGLE_SERVICE_ACCOUNT_JSON (the key itself).",
    );
  }
  if (keyJson) return { spreadsheetId, apiUrl, writeCallsPerMinute, credentials: { kind: "json", json: serviceAccountKey(keyJson) } };
  if (keyFile) {
    const file = path.resolve(keyFile);
    if (!existsSync(file)) throw new ConfigError(`GOOGLE_APPLICATION_CREDENTIALS: no key file at ${file}.`);
    return { spreadsheetId, apiUrl, writeCallsPerMinute, credentials: { kind: "keyFile", path: file } };
  }
  if (apiUrl && !isProduction) return { spreadsheetId, apiUrl, writeCallsPerMinute, credentials: { kind: "fixedToken" } };
  throw new ConfigError(
    "GOOGLE_SHEETS_ID is set but no credentials are: set GOOGLE_APPLICATION_CREDENTIALS (the path of a service account key file) or GOOGLE_SERVICE_ACCOUNT_JSON (the key's JSON).",
  );
}

function serviceAccountKey(text: string): Record<string, unknown> {
  let key: unknown;
  try {
    key = JSON.parse(text);
  } catch {
    throw new ConfigError("GOOGLE_SERVICE_ACCOUNT_JSON is not valid JSON: paste the whole key file downloaded for the service account.");
  }
  const { client_email: clientEmail, private_key: privateKey } = (key ?? {}) as Record<string, unknown>;
  if (typeof clientEmail !== "string" || typeof privateKey !== "string") {
    throw new ConfigError("GOOGLE_SERVICE_ACCOUNT_JSON is not a service account key: it needs client_email and private_key.");
  }
  return key as Record<string, unknown>;
}

/**
 * Reads the `cloudinary://API_KEY:API_SECRET@CLOUD_NAME` form Cloudinary's console shows,
 * with the SDK's own `?upload_prefix=` query for another API root. The prefix must stay in
 * this variable: the SDK reads it from the environment when loaded, to choose between
 * http and https.
 */
function parseCloudinaryUrl(value: string): CloudinaryConfig | undefined {
  if (!URL.canParse(value)) return undefined;
  const url = new URL(value);
  if (url.protocol !== "cloudinary:" || !url.hostname || !url.username || !url.password) return undefined;
  const uploadPrefix = url.searchParams.get("upload_prefix") ?? undefined;
  if (uploadPrefix !== undefined && !URL.canParse(uploadPrefix)) return undefined;
  return {
    cloudName: url.hostname,
    apiKey: decodeURIComponent(url.username),
    apiSecret: decodeURIComponent(url.password),
    uploadPrefix,
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

/**
 * Express reads a string as a list of addresses, so "1" or "true" given as text
 * would trust nobody (or crash); hop counts and booleans become real values here.
 */
export function parseTrustProxy(value: string): boolean | number | string {
  if (value === "true") return true;
  if (value === "false") return false;
  if (/^\d+$/.test(value)) return Number(value);
  return value;
}
