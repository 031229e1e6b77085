/**
 * Writes the installed app's icons into public/icons/ from the logo, public/favicon.svg
 * (scripts/lib/app-icons.ts says how each is drawn). Run it after changing the logo and
 * commit the PNGs.
 *
 *   npm run icons:build
 */
import path from "node:path";
import { writeAppIcons } from "./lib/app-icons";

const written = await writeAppIcons(path.resolve("public/favicon.svg"), path.resolve("public/icons"));
for (const file of written) console.log(`Wrote ${path.relative(process.cwd(), file)}`);
