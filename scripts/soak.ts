/**
 * `npm run soak`: the fault and load run (scripts/lib/soak.ts) for longer than the
 * 20 seconds `npm test` gives it. Prints the figures; exits 1 when a 5xx without a message
 * was served or an acknowledged write went missing.
 *
 *   npm run soak                     # 5 minutes, 8 members
 *   SOAK_SECONDS=900 SOAK_MEMBERS=12 npm run soak
 */
import { formatFigures, runSoak } from "./lib/soak";

const seconds = Number(process.env.SOAK_SECONDS ?? 300);
const members = Number(process.env.SOAK_MEMBERS ?? 8);
const figures = await runSoak({ durationMs: seconds * 1000, members, log: (line) => console.log(line) });
console.log(formatFigures(figures));
process.exit(figures.serverErrors === 0 && figures.acknowledgedMissing === 0 ? 0 : 1);
