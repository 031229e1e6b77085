/**
 * The short version of `npm run bench:sheets`: two app instances on one workbook behind
 * Google's per-user quota (60 reads and 60 writes a minute) send 100 messages in 12
 * seconds (500 a minute, more than the benchmark's 200) through the app's send path while
 * staff sort, insert rows and type into cells. Every send is acknowledged, and every
 * acknowledged value is where it belongs, once. Send times are printed by the benchmark,
 * never asserted here.
 */
import { expect, it } from "vitest";
import { runSendBench } from "../../scripts/lib/sheets-send-bench";

it("two instances behind the quota, staff editing: 500 messages a minute, none failed, none misplaced, duplicated or lost", async () => {
  const result = await runSendBench({
    instances: 2,
    messagesPerMinute: 500,
    seconds: 12,
    quotaPerMinute: 60,
    refreshSeconds: 10,
    conversations: 40,
    staffEditEverySeconds: 2,
  });
  expect(result.failed).toBe(0);
  expect(result.sent).toBe(100);
  expect(result.staffEdits).toBeGreaterThanOrEqual(5);
  expect(result.problems).toEqual([]);
}, 90_000);
