import { defineConfig, devices } from "@playwright/test";
import { e2eBaseUrl, e2eDataDir, e2eHealthToken } from "./tests/e2e/support/env";

const chromium = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";

export default defineConfig({
  testDir: "tests/e2e",
  outputDir: "test-results/artifacts",
  fullyParallel: true,
  workers: process.env.CI ? 2 : undefined,
  retries: 0,
  forbidOnly: !!process.env.CI,
  reporter: process.env.CI ? [["list"]] : [["list"]],
  timeout: 30_000,
  use: {
    baseURL: e2eBaseUrl,
    trace: "retain-on-failure",
    launchOptions: {
      executablePath: chromium,
      args: ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update"],
    },
  },
  projects: [
    { name: "js-on", use: { ...devices["Desktop Chrome"], javaScriptEnabled: true } },
    // Tests tagged @needs-js check what only scripts add (live updates, typing); the page itself is tested in both.
    { name: "js-off", use: { ...devices["Desktop Chrome"], javaScriptEnabled: false }, grepInvert: /@needs-js/ },
  ],
  webServer: {
    // The production entry `npm start` runs (one node process; builds first when the build is stale).
    command: "node scripts/start.mjs",
    url: `${e2eBaseUrl}/healthz`,
    reuseExistingServer: false,
    timeout: 60_000,
    env: {
      NODE_ENV: "test",
      PORT: new URL(e2eBaseUrl).port,
      DATA_DIR: e2eDataDir,
      LOG_REQUESTS: "off",
      SUPPORT_EMAIL: "support@example.test",
      // Seeded agents and row edits reach the app's replica within a second.
      STORE_REFRESH_SECONDS: "1",
      // Every test logs in from 127.0.0.1: the per-IP limit would stop the suite, not an attacker.
      AUTH_ATTEMPTS_PER_IP: "100000",
      // Likewise for the per-address write limits; per-member limits keep their defaults (each test has its own members).
      CONTACT_PER_IP_PER_HOUR: "100000",
      REGISTRATIONS_PER_IP_PER_HOUR: "100000",
      MEMBER_WRITES_PER_IP_PER_HOUR: "100000",
      // The registration tests' invitation codes (tests/e2e/support/registration.ts).
      VIP_CODES: "Gold2025,Silver2025",
      HEALTH_TOKEN: e2eHealthToken,
    },
  },
});
