// `npm start`: runs the production server in this process (no wrapper process
// between the one that receives SIGTERM and the one that must stop), building it
// first when the build is missing or older than the sources, so a fresh clone or
// an edited checkout needs only `npm start`.
import { spawnSync } from "node:child_process";
import { existsSync, readdirSync, statSync } from "node:fs";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const root = fileURLToPath(new URL("..", import.meta.url));
const serverEntry = path.join(root, "build/server/server.js");
/** What the build is made from; a deployment that ships only the build has none of them. */
const SOURCES = ["app", "public", "server.ts", "server.production.ts", "vite.config.ts", "package.json"];

/** The newest modification time among the files under `target`, 0 when it does not exist. */
function newestChange(target) {
  if (!existsSync(target)) return 0;
  const stat = statSync(target);
  if (!stat.isDirectory()) return stat.mtimeMs;
  return readdirSync(target).reduce((newest, name) => Math.max(newest, newestChange(path.join(target, name))), stat.mtimeMs);
}

function buildReason() {
  if (!existsSync(serverEntry)) return "No build found";
  const builtAt = statSync(serverEntry).mtimeMs;
  const changed = SOURCES.find((source) => newestChange(path.join(root, source)) > builtAt);
  return changed ? `The sources changed since the last build (${changed})` : undefined;
}

const reason = buildReason();
if (reason) {
  console.log(`${reason}: building the app first...`);
  const remixCli = path.join(root, "node_modules/@remix-run/dev/dist/cli.js");
  if (!existsSync(remixCli)) {
    console.error("Cannot build: the development dependencies are not installed (run `npm ci`).");
    process.exit(1);
  }
  const result = spawnSync(process.execPath, [remixCli, "vite:build"], { cwd: root, stdio: "inherit" });
  if (result.status !== 0) process.exit(result.status ?? 1);
}

await import(pathToFileURL(serverEntry).href);
