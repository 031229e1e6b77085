// Starts the production server, building first when no build exists, so a
// fresh clone needs only `npm ci && npm start`.
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";

const run = (command, args, env = process.env) => {
  const result = spawnSync(command, args, { stdio: "inherit", env });
  if (result.status !== 0) process.exit(result.status ?? 1);
};

if (!existsSync("build/server/index.js")) {
  console.log("No build found: building the app first...");
  run("npx", ["remix", "vite:build"]);
}
run("npx", ["tsx", "server.ts"], { SERVE_BUILD: "1", ...process.env });
