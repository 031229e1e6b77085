/**
 * The production build on the demo network, logged in as the demo member: what the page
 * audits (`npm run audit`, `npm run bench:lighthouse`) measure.
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { logIn, productionEnv, startBuiltServer, type BuiltServer } from "../scripts/lib/built-server";

const ROOT = path.resolve(import.meta.dirname, "..");
const DEMO_PASSWORD = "audit-demo-password";

/** Debian's Chromium, headless, as Lighthouse and the browser tests run it. */
export const CHROME_FLAGS = ["--no-sandbox", "--headless=new", "--disable-gpu"];
export const chromePath = () => process.env.CHROMIUM_PATH || "/usr/bin/chromium";

/** Seeds the demo network with the npm script operators use, and returns its login e-mail. */
function seedDemo(dataDir: string): string {
  const result = spawnSync(process.execPath, ["--import", "tsx", "scripts/seed-demo.ts"], {
    cwd: ROOT,
    env: { ...process.env, ...productionEnv(dataDir), DEMO_PASSWORD },
    encoding: "utf8",
  });
  const email = /Demo login: (\S+)/.exec(result.stdout)?.[1];
  if (result.status !== 0 || !email) throw new Error(`Seeding the demo network failed:\n${result.stdout}${result.stderr}`);
  return email;
}

export type DemoApp = { server: BuiltServer; cookie: string; stop(): Promise<void> };

/**
 * Builds the app as production serves it. `npm start` rebuilds only a build older than the
 * sources, and one the browser tests made (NODE_ENV=test: React's development build, the
 * worker's debug logging) is as new: measured, it would weigh a third more.
 */
function buildForProduction(): void {
  console.log("Building the app for production...");
  const result = spawnSync(process.execPath, ["node_modules/@remix-run/dev/dist/cli.js", "vite:build"], {
    cwd: ROOT,
    env: { ...process.env, NODE_ENV: "production" },
    stdio: ["ignore", "ignore", "inherit"],
  });
  if (result.status !== 0) throw new Error("The production build failed");
}

/** Seeds a throwaway data folder, builds the app, starts the production server on it and logs the demo member in. */
export async function startDemoApp(): Promise<DemoApp> {
  const dataDir = mkdtempSync(path.join(tmpdir(), "audit-"));
  console.log("Seeding the demo network...");
  const email = seedDemo(dataDir);
  buildForProduction();
  console.log("Starting the production server...");
  const server = await startBuiltServer([process.execPath, "scripts/start.mjs"], productionEnv(dataDir));
  const cookie = await logIn(server.baseUrl, email, DEMO_PASSWORD);
  return {
    server,
    cookie,
    async stop() {
      server.child.kill("SIGTERM");
      await server.exited;
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
