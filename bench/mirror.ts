/**
 * `npm run bench:mirror`: what the mirror tabs (docs/decisions/0081) cost at scale. The staff
 * tabs on a fake Sheets workbook (10,000 agents, 2,000 requests, 600 reports in the last 30
 * days), the messages in PostgreSQL (10 M by default, loaded as `npm run bench:postgres`
 * loads them), two app instances on both. The clock is compressed: each step is one refresh
 * interval, both instances refresh and then run the mirror job, staff type a look-up every few
 * minutes (the instances read the sheet only when staff typed, and once after: the job's calls
 * depend on the Lookup cell and the clock alone). Prints the Sheets calls the mirror job made a minute (claims and rewrites; the
 * Lookup cell is read in the refresh's own call), the cells each mirror holds, the workbook's
 * cells, and how long the rewrites took to build (the first one counts every message per day).
 *
 *   npm run bench:mirror                               # 10,000 agents, 10,000,000 messages
 *   npm run bench:mirror -- --messages 1000000 --minutes 30
 *
 * Options: --agents (10,000), --messages (10,000,000), --minutes of simulated time (60),
 * --refresh seconds (STORE_REFRESH_SECONDS, 10), --lookup-every minutes (5).
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import pg from "pg";
import { LOOKUP_CELL, MIRRORS, mirrorCells, type MirrorName } from "../app/domain/mirrors";
import { serialiseRecord } from "../app/domain/workbook/rows";
import { WORKBOOK, type Report } from "../app/domain/workbook/tabs";
import { loadConfig } from "../app/server/config.server";
import { createServices, stopServices } from "../app/server/service-lifecycle.server";
import type { Services } from "../app/server/services.server";
import { migrate, readMigrations } from "../app/server/store/postgres/migrations.server";
import { HIGH_VOLUME_TAB_NAMES } from "../app/server/store/postgres/driver.server";
import { createSheetsDriver } from "../app/server/store/sheets-driver.server";
import { matchers, startFakeSheets } from "../scripts/lib/fake-sheets/server";
import { startPostgres } from "../scripts/lib/postgres-server";
import { benchAgents, BENCH_MEMBER_EMAIL } from "./large-network";
import { loadMessages } from "./postgres-network";
import { f1, table } from "./report";

const { values: args } = parseArgs({
  options: {
    agents: { type: "string", default: "10000" },
    messages: { type: "string", default: "10000000" },
    minutes: { type: "string", default: "60" },
    refresh: { type: "string", default: "10" },
    "lookup-every": { type: "string", default: "5" },
  },
});
function positive(name: keyof typeof args): number {
  const value = Number(args[name]);
  if (!Number.isFinite(value) || value <= 0) throw new Error(`Bad option --${name}: ${args[name]}`);
  return value;
}
const agentCount = positive("agents");
const messages = positive("messages");
const minutes = positive("minutes");
const refresh = positive("refresh");
const lookupEvery = positive("lookup-every");
const REPORTS = 600;

async function main(): Promise<void> {
  const postgres = await startPostgres();
  const fake = await startFakeSheets();
  const folders: string[] = [];
  const running: Services[] = [];
  try {
    const databaseUrl = await postgres.createDatabase();
    const pool = new pg.Pool({ connectionString: databaseUrl, max: 2 });
    const now = new Date();
    const agents = benchAgents(agentCount);
    await migrate(pool, await readMigrations());
    console.log(`Loading ${messages.toLocaleString("en-US")} messages into PostgreSQL...`);
    const loadStarted = performance.now();
    await loadMessages(
      pool,
      { agents, size: { agents: agentCount, requests: 2_000, liveRequests: 640, messages, memberMessages: 1_000 }, now },
      { from: 0, to: messages },
      (line) => console.log(line),
    );
    console.log(`  loaded in ${f1((performance.now() - loadStarted) / 1000)} s`);
    const reported = await pool.query<{ id: string; fromEmail: string; toEmail: string }>(
      `SELECT "id", "fromEmail", "toEmail" FROM "Messages" ORDER BY "rowNumber" DESC LIMIT ${REPORTS}`,
    );
    await pool.end();

    const spreadsheetId = "bench-mirror";
    const book = fake.spreadsheet(spreadsheetId);
    const staff = createSheetsDriver({ spreadsheetId, credentials: { kind: "fixedToken" }, apiUrl: fake.url });
    const staffTabs = Object.values(WORKBOOK).filter((tab) => !HIGH_VOLUME_TAB_NAMES.has(tab.name));
    await staff.ensureTabs(staffTabs);
    for (let i = 0; i < agents.length; i += 2_000)
      await staff.appendRows(
        WORKBOOK.agents,
        agents.slice(i, i + 2_000).map((agent) => serialiseRecord(WORKBOOK.agents, agent)),
      );
    const reports: Report[] = reported.rows.map((row, i) => ({
      id: `bench-report-${i}`,
      kind: "message",
      itemId: row.id,
      link: "",
      reporterEmail: row.toEmail,
      reportedEmail: row.fromEmail,
      reason: "spam",
      note: "",
      createdAt: new Date(now.getTime() - (i / REPORTS) * 29 * 86_400_000).toISOString(),
      status: "open",
      staffNote: "",
      itemStatus: i % 3 === 0 ? "hidden" : "visible",
    }));
    await staff.appendRows(
      WORKBOOK.reports,
      reports.map((report) => serialiseRecord(WORKBOOK.reports, report)),
    );
    await staff.close();

    const instance = () => {
      const dataDir = mkdtempSync(path.join(tmpdir(), "bench-mirror-"));
      folders.push(dataDir);
      const config = loadConfig({
        NODE_ENV: "test",
        DATA_DIR: dataDir,
        SUPPORT_EMAIL: "support@example.test",
        GOOGLE_SHEETS_ID: spreadsheetId,
        GOOGLE_SHEETS_API_URL: fake.url,
        DATABASE_URL: databaseUrl,
        STORE_REFRESH_SECONDS: String(refresh),
      });
      const services = createServices(config);
      running.push(services);
      return services;
    };
    const all = [instance(), instance()];
    for (const services of all) await services.store.refresh();

    console.log(`Running ${minutes} simulated minutes, a refresh every ${refresh} s, a look-up every ${lookupEvery} minutes...`);
    const start = Date.now();
    const steps = Math.round((minutes * 60) / refresh);
    const mirrorCalls = { reads: 0, writes: 0, byKind: new Map<string, number>() };
    const buildMs: number[] = [];
    const lookups = [BENCH_MEMBER_EMAIL, agents[Math.floor(agents.length / 2)]!.email, reported.rows[0]!.id];
    let typed = 0;
    let answering = true;
    for (let step = 0; step < steps; step += 1) {
      const at = new Date(start + step * refresh * 1000);
      const typing = step > 0 && step % Math.round((lookupEvery * 60) / refresh) === 0;
      if (typing) book.typeCell(MIRRORS.lookup.tab, LOOKUP_CELL.a1, lookups[typed++ % lookups.length]!);
      // The job decides from the Lookup cells the refresh read and the clock: refreshing only when
      // staff typed (and once after, to read the answer) changes no call it makes, and saves
      // reading 10,000 agents from the fake at every step.
      if (typing || answering) for (const services of all) await services.store.refresh();
      answering = typing;
      for (const services of all) {
        const before = fake.calls.length;
        const started = performance.now();
        await services.mirrors.rewriteDue(at);
        const calls = fake.calls.slice(before);
        if (calls.some((call) => call.kind === "spreadsheets.batchUpdate")) buildMs.push(performance.now() - started);
        for (const call of calls) {
          mirrorCalls.byKind.set(call.kind, (mirrorCalls.byKind.get(call.kind) ?? 0) + 1);
          if (matchers.reads(call)) mirrorCalls.reads += 1;
          else mirrorCalls.writes += 1;
        }
      }
    }

    const names = Object.keys(MIRRORS) as MirrorName[];
    const grids = names.map((name) => {
      const sheet = book.sheet(MIRRORS[name].tab);
      return [MIRRORS[name].tab, String(sheet?.rowCount ?? 0), String(sheet?.columnCount ?? 0), String(mirrorCells(name))];
    });
    const workbookCells = book.sheets.reduce((sum, sheet) => sum + sheet.rowCount * sheet.columnCount, 0);
    const mirrorTotal = names.reduce((sum, name) => sum + mirrorCells(name), 0);
    console.log(
      [
        "",
        `${agentCount.toLocaleString("en-US")} agents and ${REPORTS} reports in the sheet, ${messages.toLocaleString("en-US")} messages in PostgreSQL; 2 instances; ${minutes} simulated minutes, ${typed} look-ups typed.`,
        `Mirror job's Sheets calls: ${mirrorCalls.reads} reads (${f1(mirrorCalls.reads / minutes)} a minute), ${mirrorCalls.writes} writes (${f1(mirrorCalls.writes / minutes)} a minute); by kind: ${[
          ...mirrorCalls.byKind,
        ]
          .map(([kind, count]) => `${kind} ${count}`)
          .join(", ")}. The Lookup cell is read inside each refresh's own call: 0 calls.`,
        `Rewrites: ${buildMs.length}, built and written in ${f1(buildMs[0] ?? NaN)} ms the first time (every message counted per day), median ${f1(
          [...buildMs.slice(1)].sort((a, b) => a - b)[Math.floor((buildMs.length - 1) / 2)] ?? NaN,
        )} ms after.`,
        table(["mirror", "rows", "columns", "cells (bound)"], grids),
        `Mirrors: ${mirrorTotal.toLocaleString("en-US")} cells; the whole workbook: ${workbookCells.toLocaleString("en-US")} of 10,000,000 cells.`,
        `Lookup for ${lookups[(typed - 1) % lookups.length]}: ${book.rows(MIRRORS.lookup.tab)[2]?.slice(1, 3).join(" — ")}`,
      ].join("\n"),
    );
  } finally {
    await Promise.all(running.map((services) => stopServices(services)));
    await fake.close();
    await postgres.stop();
    for (const folder of folders) rmSync(folder, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.stack : error);
  process.exit(1);
});
