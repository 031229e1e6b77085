/**
 * The quota target on the real send path: app instances (each its own Services and store,
 * Sheets driver as configured in production) on one fake workbook behind Google's per-user
 * quota send messages through the function the messages route's action calls (message,
 * notification mail and its throttle stamp), then store the sender's read position as the
 * page it redirects to does, while staff sort, insert rows and type into cells. Prints
 * messages a minute, failed sends, send times (and apart, those of the first message of each
 * conversation, whose notification mail is due) and the Sheets calls made, and checks the
 * workbook: every acknowledged message stored once, every value under its own header.
 *
 *   npm run bench:sheets                          # 2 instances, 200 messages a minute for 5 minutes, quota 60 + 60
 *   npm run bench:sheets -- --minutes 1 --messages 300
 *
 * Options: --instances N (2), --messages N (a minute, 200), --minutes N (5), --quota N
 * (reads and writes a minute for the whole service account, 60; 0 for none), --refresh S
 * (STORE_REFRESH_SECONDS, 10), --conversations N (40), --staff S (a staff edit every S
 * seconds, 10; 0 for none). Runs in real time: the app's intervals are not compressed.
 */
import { parseArgs } from "node:util";
import { runSendBench } from "./lib/sheets-send-bench";

const { values: args } = parseArgs({
  options: {
    instances: { type: "string", default: "2" },
    messages: { type: "string", default: "200" },
    minutes: { type: "string", default: "5" },
    quota: { type: "string", default: "60" },
    refresh: { type: "string", default: "10" },
    conversations: { type: "string", default: "40" },
    staff: { type: "string", default: "10" },
  },
});
const numbers = Object.fromEntries(Object.entries(args).map(([name, value]) => [name, Number(value)]));
for (const [name, value] of Object.entries(numbers)) {
  if (!Number.isFinite(value) || value < 0) throw new Error(`Bad option --${name}: ${value}`);
}

const result = await runSendBench(
  {
    instances: numbers.instances!,
    messagesPerMinute: numbers.messages!,
    seconds: numbers.minutes! * 60,
    quotaPerMinute: numbers.quota!,
    refreshSeconds: numbers.refresh!,
    conversations: numbers.conversations!,
    staffEditEverySeconds: numbers.staff!,
  },
  console.log,
);
const minutes = numbers.minutes!;
console.log(
  `Sent ${result.sent} messages (${result.messagesPerMinute.toFixed(1)} a minute), ${result.failed} failed; ${result.staffEdits} staff edits meanwhile`,
);
console.log(
  `Send times (ms): p50 ${result.sendMs.p50.toFixed(0)}, p99 ${result.sendMs.p99.toFixed(0)}, max ${result.sendMs.max.toFixed(0)}`,
);
console.log(
  `First message of a conversation, the page's answer (ms): p50 ${result.firstMessageMs.p50.toFixed(0)}, p99 ${result.firstMessageMs.p99.toFixed(0)}`,
);
console.log(
  `Sheets calls: ${result.calls.reads} reads (${(result.calls.reads / minutes).toFixed(1)} a minute), ${result.calls.writes} writes (${(result.calls.writes / minutes).toFixed(1)} a minute); ` +
    `429 answers from the quota: ${result.quotaRefusals}`,
);
console.log(
  `By kind: ${Object.entries(result.calls.byKind)
    .map(([kind, count]) => `${kind} ${count}`)
    .join(", ")}`,
);
console.log(
  result.problems.length === 0
    ? "Workbook check: every acknowledged message stored once, every value under its own header"
    : `Workbook check FAILED:\n${result.problems.join("\n")}`,
);
if (result.failed > 0 || result.problems.length > 0) process.exitCode = 1;
