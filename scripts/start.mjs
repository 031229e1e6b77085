// `npm start`: runs the production server, building it first when the build is missing or
// older than the sources, so a fresh clone or an edited checkout needs only `npm start`.
// V8's heap limits can only be given when node starts: unless the operator gave a heap
// ceiling, this process starts the server as its one child with limits chosen from the
// memory it may use and passes signals on (decision 0077); with a ceiling given, the server
// runs in this process (decision 0010).
import { spawn, spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { buildNeeded, SERVER_ENTRY } from "./lib/build-freshness.mjs";
import { chooseHeapLimits } from "./lib/heap-limits.mjs";

const root = fileURLToPath(new URL("..", import.meta.url));

// Set for the server this script starts with the chosen limits: it must not choose again.
const LIMITS_CHOSEN = "HEAP_LIMITS_CHOSEN_BY_START";

/**
 * Runs this script again as a child with the heap flags and ends as it ends. SIGTERM,
 * SIGINT and SIGHUP go on to it (it finishes its requests, then exits, and this process
 * exits with its code). The child stops itself when this process dies without passing a
 * signal on (SIGKILL): its IPC channel closes.
 */
function runAsChildWith(flags) {
  const script = fileURLToPath(import.meta.url);
  const child = spawn(process.execPath, [...flags, ...process.execArgv, script, ...process.argv.slice(2)], {
    env: { ...process.env, [LIMITS_CHOSEN]: "1" },
    stdio: ["inherit", "inherit", "inherit", "ipc"],
  });
  for (const signal of ["SIGTERM", "SIGINT", "SIGHUP"]) process.on(signal, () => child.kill(signal));
  child.on("exit", (code, signal) => {
    if (signal === null) process.exit(code ?? 1);
    process.removeAllListeners(signal);
    process.kill(process.pid, signal);
  });
}

function stopWhenParentDies() {
  process.channel?.unref();
  process.once("disconnect", () => process.kill(process.pid, "SIGTERM"));
}

async function buildAndServe() {
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
}

if (process.env[LIMITS_CHOSEN] !== undefined) {
  stopWhenParentDies();
  await buildAndServe();
} else {
  const { flags, line } = chooseHeapLimits({ env: process.env, execArgv: process.execArgv });
  console.log(line);
  if (flags.length > 0) runAsChildWith(flags);
  else await buildAndServe();
}
