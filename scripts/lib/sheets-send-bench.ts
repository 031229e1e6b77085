/**
 * Messages sent through the app's own send path (the function the messages route's
 * action calls, then the read position the page it redirects to stores) by several app
 * instances on one fake workbook behind Google's per-user quota, while staff sort,
 * insert rows and edit cells. Used by `npm run bench:sheets` and, shortened, by a test.
 */
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import type { Agent, Message } from "../../app/domain/workbook/tabs";
import { loadConfig } from "../../app/server/config.server";
import { sendMessage } from "../../app/server/messages/send.server";
import { createServices, startServices, stopServices } from "../../app/server/service-lifecycle.server";
import type { Services } from "../../app/server/services.server";
import { newId } from "../../app/server/store/store.server";
import { approvedAgent } from "./agent-record";
import { startFakeSheets } from "./fake-sheets/server";
import type { FakeSpreadsheet } from "./fake-sheets/spreadsheet";

export type SendBenchOptions = {
  instances: number;
  messagesPerMinute: number;
  /** How long messages are sent, in seconds. */
  seconds: number;
  /** Google's per-user quota: reads and writes a minute, shared by every instance (off when 0). */
  quotaPerMinute: number;
  refreshSeconds: number;
  conversations: number;
  /** Staff sort, insert rows and type into cells every this many seconds (off when 0). */
  staffEditEverySeconds: number;
};

export type SendBenchResult = {
  sent: number;
  failed: number;
  sendMs: { p50: number; p99: number; max: number };
  /** The answer to the first message of each conversation: the one whose notification mail is due (claimed and sent). */
  firstMessageMs: { p50: number; p99: number };
  messagesPerMinute: number;
  quotaRefusals: number;
  calls: { reads: number; writes: number; byKind: Record<string, number> };
  staffEdits: number;
  /** Every value found where it does not belong, or missing, or stored twice: empty when all is well. */
  problems: string[];
};

const AGENTS = 40;

export function agent(i: number): Agent {
  return approvedAgent({
    id: newId(),
    fullName: `Agent ${i}`,
    email: `agent${i}@example.com`,
    state: i % 2 === 0 ? "TX" : "OK",
    city: "Dallas",
    licenseNumber: String(100000 + i),
    licenseState: "TX",
    brokerage: "Bench Realty",
    specialties: ["Residential"],
    createdAt: new Date().toISOString(),
  });
}

const READ_KINDS = new Set([
  "spreadsheets.get",
  "developerMetadata.search",
  "values.get",
  "values.batchGet",
  "values.batchGetByDataFilter",
]);

/** What staff do while the app runs: sort a tab the app updates, add a blank row in it, retype a member's city. */
function staffEdit(book: FakeSpreadsheet, n: number): void {
  switch (n % 3) {
    case 0:
      book.sortRows("ConversationMembers", n % 2 === 0 ? "agentEmail" : "conversationId", n % 4 === 0 ? "descending" : "ascending");
      return;
    case 1:
      book.insertRow("ConversationMembers", 2 + (n % Math.max(1, book.rows("ConversationMembers").length - 1)));
      return;
    default: {
      const rows = book.rows("Agents");
      const idColumn = book.columnOf("Agents", "id") - 1;
      const id = rows[1 + (n % (rows.length - 1))]?.[idColumn];
      if (id) book.typeCell("Agents", { id, header: "city" }, n % 2 === 0 ? "Austin" : "Tulsa");
    }
  }
}

/** Each message acknowledged is in the Messages tab exactly once, every cell under its header; member rows hold their own ids and times. */
function checkWorkbook(book: FakeSpreadsheet, acknowledged: readonly Message[]): string[] {
  const problems: string[] = [];
  const rows = book.rows("Messages");
  const headers = rows[0] ?? [];
  const column = (header: string) => headers.findIndex((cell) => cell.trim().toLowerCase() === header.toLowerCase());
  const byId = new Map<string, string[][]>();
  for (const row of rows.slice(1)) {
    const id = row[column("id")] ?? "";
    if (id === "") continue;
    byId.set(id, [...(byId.get(id) ?? []), row]);
  }
  for (const message of acknowledged) {
    const found = byId.get(message.id) ?? [];
    if (found.length !== 1) problems.push(`message ${message.id} stored ${found.length} times`);
    for (const header of ["conversationId", "fromEmail", "toEmail", "text", "createdAt"] as const) {
      if (found[0] && found[0][column(header)] !== message[header])
        problems.push(`message ${message.id}: ${header} reads ${found[0][column(header)]}`);
    }
  }
  const members = book.rows("ConversationMembers");
  const memberHeaders = members[0] ?? [];
  const memberColumn = (header: string) => memberHeaders.indexOf(header);
  for (const row of members.slice(1)) {
    const id = row[memberColumn("id")] ?? "";
    if (row.every((cell) => cell === "")) continue;
    if (id !== `${row[memberColumn("conversationId")]}/${row[memberColumn("agentEmail")]}`)
      problems.push(`ConversationMembers row ${id} holds another row's cells`);
    for (const header of ["lastReadAt", "lastNotifiedAt"]) {
      const value = row[memberColumn(header)] ?? "";
      if (value !== "" && Number.isNaN(Date.parse(value))) problems.push(`ConversationMembers row ${id}: ${header} reads ${value}`);
    }
  }
  return problems;
}

/** The `p`th percentile of times sorted in ascending order (0 when there are none). */
function percentile(sorted: readonly number[], p: number): number {
  return sorted.length === 0 ? 0 : sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

export async function runSendBench(options: SendBenchOptions, report: (line: string) => void = () => undefined): Promise<SendBenchResult> {
  const fake = await startFakeSheets();
  const spreadsheetId = `send-bench-${newId()}`;
  const book = fake.spreadsheet(spreadsheetId);
  const config = loadConfig({
    NODE_ENV: "test",
    DATA_DIR: mkdtempSync(path.join(tmpdir(), "send-bench-")),
    GOOGLE_SHEETS_ID: spreadsheetId,
    GOOGLE_SHEETS_API_URL: fake.url,
    STORE_REFRESH_SECONDS: String(options.refreshSeconds),
  });
  const instances: Services[] = Array.from({ length: options.instances }, () => createServices(config));
  for (const { store } of instances) await store.refresh();
  const [first] = instances as [Services, ...Services[]];
  const agents = await Promise.all(Array.from({ length: AGENTS }, (_, i) => first.store.agents.insert(agent(i))));
  for (const services of instances) {
    await services.store.refresh();
    startServices(services);
  }
  if (options.quotaPerMinute > 0)
    fake.setQuota({ readsPerWindow: options.quotaPerMinute, writesPerWindow: options.quotaPerMinute, windowMs: 60_000 });
  const firstCall = fake.calls.length;
  report(
    `${options.instances} instance(s) on one workbook` +
      (options.quotaPerMinute > 0 ? `, quota ${options.quotaPerMinute} reads + ${options.quotaPerMinute} writes a minute` : ", no quota") +
      `; ${options.messagesPerMinute} messages a minute for ${options.seconds} s in ${options.conversations} conversations` +
      (options.staffEditEverySeconds > 0 ? `; staff edit every ${options.staffEditEverySeconds} s` : ""),
  );

  const acknowledged: Message[] = [];
  const sendTimes: number[] = [];
  const firstMessageTimes: number[] = [];
  let failed = 0;
  /** One message: the send action, then the sender's page after the redirect (which stores how far they read). */
  const send = async (n: number) => {
    const services = instances[n % instances.length]!;
    const pair = n % options.conversations;
    const [a, b] = [agents[pair % AGENTS]!, agents[(pair * 7 + 1) % AGENTS]!];
    const [sender, recipient] = Math.floor(n / options.conversations) % 2 === 0 ? [a, b] : [b, a];
    const conversationId = `bench-conversation-${pair}`;
    const started = performance.now();
    try {
      const { message } = await sendMessage(services, {
        sender,
        recipient,
        conversationId,
        text: `Message ${n}`,
        request: new Request("http://localhost/messages"),
      });
      const answeredIn = performance.now() - started;
      sendTimes.push(answeredIn);
      if (n < options.conversations) firstMessageTimes.push(answeredIn);
      acknowledged.push(message);
    } catch {
      failed += 1;
      return;
    }
    // The sender's page lists the partner's messages: reading it moves the read position.
    const partnerLast = services.store.messages
      .by("conversationId", conversationId)
      .filter((message) => message.toEmail === sender.email)
      .at(-1);
    if (partnerLast) await services.readPositions.markRead(conversationId, sender.email, partnerLast.createdAt).catch(() => undefined);
  };

  const totalMessages = Math.round((options.messagesPerMinute * options.seconds) / 60);
  const pending: Promise<void>[] = [];
  let staffEdits = 0;
  const started = performance.now();
  let nextEditAt = options.staffEditEverySeconds * 1000;
  for (let n = 0; n < totalMessages;) {
    const elapsed = performance.now() - started;
    for (; n < Math.min(totalMessages, Math.floor((elapsed / (options.seconds * 1000)) * totalMessages)); n += 1) pending.push(send(n));
    if (options.staffEditEverySeconds > 0 && elapsed >= nextEditAt) {
      staffEdit(book, staffEdits++);
      nextEditAt += options.staffEditEverySeconds * 1000;
    }
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  await Promise.all(pending);
  const elapsedMs = performance.now() - started;
  const calls = fake.calls.slice(firstCall);
  const quotaRefusals = fake.quotaRefusals();
  for (const services of instances) await stopServices(services);
  await fake.close();

  sendTimes.sort((x, y) => x - y);
  firstMessageTimes.sort((x, y) => x - y);
  return {
    sent: acknowledged.length,
    failed,
    sendMs: { p50: percentile(sendTimes, 50), p99: percentile(sendTimes, 99), max: sendTimes.at(-1) ?? 0 },
    firstMessageMs: { p50: percentile(firstMessageTimes, 50), p99: percentile(firstMessageTimes, 99) },
    messagesPerMinute: (acknowledged.length / elapsedMs) * 60_000,
    quotaRefusals,
    calls: {
      reads: calls.filter((call) => READ_KINDS.has(call.kind)).length,
      writes: calls.filter((call) => !READ_KINDS.has(call.kind)).length,
      byKind: Object.fromEntries(
        [...new Set(calls.map((call) => call.kind))].map((kind) => [kind, calls.filter((call) => call.kind === kind).length]),
      ),
    },
    staffEdits,
    problems: checkWorkbook(book, acknowledged),
  };
}
