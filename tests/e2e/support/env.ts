import { tmpdir } from "node:os";
import path from "node:path";

/** Shared by the Playwright config and the tests: where the app under test runs and keeps its files. */
const port = process.env.E2E_PORT ?? "3199";
export const e2eBaseUrl = `http://127.0.0.1:${port}`;
export const e2eDataDir = process.env.E2E_DATA_DIR ?? path.join(tmpdir(), `referral-e2e-${port}`);
/** Unlocks /healthz's details (the replica's last refresh), which the tests wait on. */
const e2eHealthToken = "e2e-health-token-0123456789abcdef";
/** How long the browser tests' servers hold a mail back after its push landed. */
export const PUSH_MAIL_WAIT_MS = 2_000;
/** Replies by mail (tests/e2e/reply-by-mail.spec.ts): the inbound domain and the webhook's password. */
const E2E_INBOUND_DOMAIN = "reply.e2e.example.test";
export const E2E_INBOUND_SECRET = "e2e-inbound-secret-0123456789abcdef";
export const e2eHealthHeaders = { Authorization: `Bearer ${e2eHealthToken}` };

/** The environment of every app server the browser tests start: the shared one and a test's own. */
export function e2eServerEnv(dataDir: string, port: string): Record<string, string> {
  return {
    NODE_ENV: "test",
    PORT: port,
    DATA_DIR: dataDir,
    LOG_REQUESTS: "off",
    SUPPORT_EMAIL: "support@example.test",
    // Seeded agents and row edits reach the app's replica within a quarter second, and a test
    // waiting for them waits about that long (docs/decisions/0041). While the SQLite file is
    // unchanged a refresh costs one query.
    STORE_REFRESH_SECONDS: "0.25",
    // Every test logs in from 127.0.0.1: the per-IP limit would stop the suite, not an attacker.
    AUTH_ATTEMPTS_PER_IP: "100000",
    // Likewise for the per-address write limits; per-member limits keep their defaults (each test has its own members).
    CONTACT_PER_IP_PER_HOUR: "100000",
    REGISTRATIONS_PER_IP_PER_HOUR: "100000",
    MEMBER_WRITES_PER_IP_PER_HOUR: "100000",
    // The suite fills forms in milliseconds: the bot trap checks only its honeypot here (decision 0058);
    // tests/e2e/bot-trap.spec.ts starts a server with the minimum on.
    FORM_MIN_FILL_SECONDS: "0",
    // Passwords set, reset and checked against no account are hashed at bcrypt's least cost, as in the
    // vitest run (decision 0040): at 12 each took the one server's event loop a quarter second or more.
    PASSWORD_HASH_COST: "4",
    // The registration tests' invitation codes (tests/e2e/support/registration.ts).
    VIP_CODES: "Gold2025,Silver2025",
    HEALTH_TOKEN: e2eHealthToken,
    // A mail held back after its push landed waits 2 seconds here instead of 15 minutes (tests/e2e/push.spec.ts).
    PUSH_MAIL_WAIT_MS: String(PUSH_MAIL_WAIT_MS),
    INBOUND_DOMAIN: E2E_INBOUND_DOMAIN,
    INBOUND_SECRET: E2E_INBOUND_SECRET,
  };
}
