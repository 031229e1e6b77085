import { defineConfig, devices } from "@playwright/test";
import { testBrowserLaunch } from "./tests/e2e/support/browsers";
import { e2eBaseUrl, e2eDataDir, e2eServerEnv } from "./tests/e2e/support/env";

export default defineConfig({
  testDir: "tests/e2e",
  outputDir: "test-results/artifacts",
  fullyParallel: true,
  // Two, also on two cores: a test mostly waits for the server or the browser, so a second
  // worker fills the time the first one waits (docs/decisions/0041).
  workers: 2,
  retries: 0,
  forbidOnly: !!process.env.CI,
  reporter: process.env.CI ? [["list"]] : [["list"]],
  timeout: 30_000,
  use: {
    baseURL: e2eBaseUrl,
    // A trace records every action's screenshots and page snapshots: about a sixth of the
    // suite's time on two cores. Kept for runs by hand; CI's log has each failure's message and
    // the screenshot taken when a test fails (docs/decisions/0041).
    trace: process.env.CI ? "off" : "retain-on-failure",
    screenshot: "only-on-failure",
    // The site's service worker stays out of the specs that test the server's pages: requests it
    // makes pass by page.route and response waits, and one activating mid-test would change who
    // answers. tests/e2e/service-worker.spec.ts and the installability spec opt in (decision 0065).
    serviceWorkers: "block",
    launchOptions: testBrowserLaunch,
  },
  projects: [
    // Tests tagged @needs-js check what only scripts add (live updates, typing); those tagged @js-off-only check what a page says
    // in place of a script (push needs JavaScript, no worker registered). The page itself is tested in both. Tests tagged
    // @server-only open no page (only the `request` fixture): the server answers them alike in both, so they run once (decision 0076).
    { name: "js-on", use: { ...devices["Desktop Chrome"], javaScriptEnabled: true }, grepInvert: /@js-off-only/ },
    { name: "js-off", use: { ...devices["Desktop Chrome"], javaScriptEnabled: false }, grepInvert: /@needs-js|@server-only/ },
  ],
  webServer: {
    // The production entry `npm start` runs (one node process; builds first when the build is stale).
    command: "node scripts/start.mjs",
    url: `${e2eBaseUrl}/healthz`,
    reuseExistingServer: false,
    timeout: 60_000,
    env: e2eServerEnv(e2eDataDir, new URL(e2eBaseUrl).port),
  },
});
