import { existsSync } from "node:fs";
import type { LaunchOptions } from "@playwright/test";

/**
 * Debian's Chromium headless shell: the browser without the desktop browser's interface, which
 * Playwright itself runs for headless tests. The full browser took about twice the CPU for the
 * same tests on two cores (decision 0076). `CHROMIUM_PATH` names another; where the shell is
 * not installed the full browser runs everything.
 */
const HEADLESS_SHELL = "/usr/bin/chromium-headless-shell";
const FULL_CHROMIUM = "/usr/bin/chromium";
const testBrowser = process.env.CHROMIUM_PATH ?? (existsSync(HEADLESS_SHELL) ? HEADLESS_SHELL : FULL_CHROMIUM);

function launchOptions(executablePath: string): LaunchOptions {
  return {
    executablePath,
    args: ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update"],
  };
}

/** The browser every spec runs in. */
export const testBrowserLaunch = launchOptions(testBrowser);

/**
 * The full browser, for the specs that need its notifications (the headless shell has none:
 * `showNotification` shows nothing): `test.use({ launchOptions: fullBrowserLaunch })`.
 * `CHROMIUM_FULL_PATH` (or `CHROMIUM_PATH`, which names the browser for every spec) names another.
 */
export const fullBrowserLaunch = launchOptions(process.env.CHROMIUM_FULL_PATH ?? process.env.CHROMIUM_PATH ?? FULL_CHROMIUM);
