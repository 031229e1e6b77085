// `npm start`: runs the production server in this process (no wrapper process
// between the one that receives SIGTERM and the one that must stop), building it
// first when the build is missing or older than the sources, so a fresh clone or
// an edited checkout needs only `npm start`.
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { buildNeeded, SERVER_ENTRY } from "./lib/build-freshness.mjs";

const root = fileURLToPath(new URL("..", import.meta.url));

const serverEntry = path.join(root, SERVER_ENTRY);
const remixCli = path.join(root, "node_modules/@remix-run/dev/dist/cli.js");
const reason = buildNeeded(root);
if (reason && !existsSync(remixCli)) {
  // A production-only install (the Docker image) cannot build: it serves the build it shipped.
  if (!existsSync(serverEntry)) {
    console.error(`${reason}, and the development dependencies needed to build are not installed (run \`npm ci\`).`);
    process.exit(1);
  }
  console.warn(`${reason}, but the development dependencies needed to build are not installed: serving the existing build.`);
} else if (reason) {
  console.log(`${reason}: building the app first...`);
  const result = spawnSync(process.execPath, [remixCli, "vite:build"], { cwd: root, stdio: "inherit" });
  if (result.status !== 0) process.exit(result.status ?? 1);
}

await import(pathToFileURL(serverEntry).href);
