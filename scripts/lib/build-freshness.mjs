// Whether `npm start` must build first: the build is missing, or a source it is made
// from changed after it. Plain JavaScript, so the check runs before anything is compiled.
import { existsSync, readdirSync, statSync } from "node:fs";
import path from "node:path";

/** The production server's entry inside the build. */
export const SERVER_ENTRY = "build/server/server.js";

/** What the build is made from; a deployment that ships only the build has none of them. */
const SOURCES = ["app", "public", "server.ts", "server.production.ts", "vite.config.ts", "package.json"];

/** The newest modification time among the files under `target`, 0 when it does not exist. */
function newestChange(target) {
  if (!existsSync(target)) return 0;
  const stat = statSync(target);
  if (!stat.isDirectory()) return stat.mtimeMs;
  return readdirSync(target).reduce((newest, name) => Math.max(newest, newestChange(path.join(target, name))), stat.mtimeMs);
}

/** Why the checkout at `root` needs a build, or undefined when its build is current. */
export function buildNeeded(root) {
  const entry = path.join(root, SERVER_ENTRY);
  if (!existsSync(entry)) return "No build found";
  const builtAt = statSync(entry).mtimeMs;
  const changed = SOURCES.find((source) => newestChange(path.join(root, source)) > builtAt);
  return changed ? `The sources changed since the last build (${changed})` : undefined;
}
