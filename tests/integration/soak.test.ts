import { expect, it } from "vitest";
import { formatFigures, runSoak } from "../../scripts/lib/soak";

// The short fault and load run, each fault once in quick phases; `npm run soak` runs it for longer. Timings are printed, never asserted.
it("under Sheets faults and two instances, no 5xx without a message and no acknowledged write lost", { timeout: 300_000 }, async () => {
  const figures = await runSoak({ durationMs: 20_000, phaseMs: 2_500, members: 6, log: (line) => console.log(line) });
  console.log(formatFigures(figures));
  expect(Object.values(figures.faultsInjected).every((count) => count >= 1)).toBe(true);
  expect(figures.writesAcknowledged).toBeGreaterThan(0);
  expect(figures.serverErrors).toBe(0);
  expect(figures.acknowledgedMissing).toBe(0);
  expect(figures.cleanStops).toBe(true);
});
