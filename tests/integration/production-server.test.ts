import { spawn } from "node:child_process";
import { mkdtempSync, readFileSync } from "node:fs";
import { createServer, type AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { deflateSync } from "node:zlib";
import { afterEach, describe, expect, it } from "vitest";
import { SEND_FAILED } from "../../app/domain/messages";
import type { Agent } from "../../app/domain/workbook/tabs";
import { matchers, startFakeSheets, type FakeSheetsServer } from "../../scripts/lib/fake-sheets/server";
import { logIn, portIsFree, postForm, productionEnv, startBuiltServer, type BuiltServer } from "../../scripts/lib/built-server";
import { insertAgent, testContext } from "../support/services";

const PASSWORD = "correct horse battery";
/** What `docker stop` and systemd allow before SIGKILL. */
const STOP_LIMIT_MS = 10_000;

let running: BuiltServer | undefined;
let fake: FakeSheetsServer | undefined;

afterEach(async () => {
  if (running?.child.exitCode === null && running.child.signalCode === null) running.child.kill("SIGKILL");
  running = undefined;
  await fake?.close();
  fake = undefined;
});

/** The workbook on the fake Sheets server, which needs no credentials: only a non-production mode allows that. */
function fakeSheetsEnv(sheets: FakeSheetsServer, spreadsheetId: string): Record<string, string> {
  // Like Google, the fake serves only spreadsheets that exist.
  sheets.spreadsheet(spreadsheetId);
  return { NODE_ENV: "test", GOOGLE_SHEETS_ID: spreadsheetId, GOOGLE_SHEETS_API_URL: sheets.url };
}

/** Two approved agents stored in the workbook `env` names, before the server starts. */
async function seedTwoAgents(env: Record<string, string>): Promise<[Agent, Agent]> {
  const context = testContext({}, env);
  await context.services.store.refresh();
  const sender = await insertAgent(context, { fullName: "Dana Reyes", password: PASSWORD });
  const recipient = await insertAgent(context, { fullName: "Sam Ortiz", password: PASSWORD });
  await context.services.store.stop();
  return [sender, recipient];
}

async function storedMessageTexts(env: Record<string, string>): Promise<Set<string>> {
  const context = testContext({}, env);
  await context.services.store.refresh();
  const texts = new Set(context.services.store.messages.all().map((message) => message.text));
  await context.services.store.stop();
  return texts;
}

/** Child processes of `pid`, from /proc (Linux). */
function childrenOf(pid: number): number[] {
  const text = readFileSync(`/proc/${pid}/task/${pid}/children`, "utf8").trim();
  return text === "" ? [] : text.split(" ").map(Number);
}

const commandLine = (pid: number) => readFileSync(`/proc/${pid}/cmdline`, "utf8").split("\0").filter(Boolean).join(" ");

/** Sends SIGTERM and waits for the exit, failing when it takes longer than `docker stop` waits. */
async function stopLikeDocker(server: BuiltServer) {
  const sentAt = Date.now();
  server.child.kill("SIGTERM");
  const timeout = new Promise<never>((_, reject) =>
    setTimeout(() => reject(new Error(`Still running ${STOP_LIMIT_MS / 1000} s after SIGTERM:\n${server.output()}`)), STOP_LIMIT_MS),
  );
  const exit = await Promise.race([server.exited, timeout]);
  return { ...exit, tookMs: Date.now() - sentAt };
}

/**
 * A PNG whose header declares 30000 × 30000 pixels: a few hundred bytes that would
 * decode to 3.6 GB, the "decompression bomb" the photo check refuses.
 */
function hugePngHeader(): Buffer {
  const crcTable = Array.from({ length: 256 }, (_, n) => {
    let c = n;
    for (let k = 0; k < 8; k += 1) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    return c >>> 0;
  });
  const crc32 = (bytes: Buffer) => {
    let c = 0xffffffff;
    for (const byte of bytes) c = crcTable[(c ^ byte) & 0xff]! ^ (c >>> 8);
    return (c ^ 0xffffffff) >>> 0;
  };
  const chunk = (type: string, data: Buffer) => {
    const length = Buffer.alloc(4);
    length.writeUInt32BE(data.length);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(Buffer.concat([Buffer.from(type, "ascii"), data])));
    return Buffer.concat([length, Buffer.from(type, "ascii"), data, crc]);
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(30_000, 0);
  header.writeUInt32BE(30_000, 4);
  header.set([8, 2, 0, 0, 0], 8); // 8-bit RGB, no interlace
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk("IHDR", header),
    chunk("IDAT", deflateSync(Buffer.alloc(1024))),
    chunk("IEND", Buffer.alloc(0)),
  ]);
}

describe("the production process", { timeout: 180_000 }, () => {
  it("npm start runs one node process in the mode it names, and SIGTERM to npm stops it with every acknowledged write kept", async () => {
    fake = await startFakeSheets();
    const env = { ...productionEnv(mkdtempSync(path.join(tmpdir(), "referral-stop-"))), ...fakeSheetsEnv(fake, "stop-test") };
    const [sender, recipient] = await seedTwoAgents(env);
    running = await startBuiltServer(["npm", "start"], env);
    const server = running;
    expect(server.output()).toContain("(test, built app,");

    // npm's only child is start.mjs, plain node (no tsx, no second npm), and its only child the
    // server with the heap limits it chose (decision 0077).
    const children = childrenOf(server.child.pid!);
    expect(children).toHaveLength(1);
    expect(commandLine(children[0]!)).toMatch(/^node scripts\/start\.mjs$/);
    const servers = childrenOf(children[0]!);
    expect(servers).toHaveLength(1);
    expect(commandLine(servers[0]!)).toMatch(/node --max-old-space-size=\d+ --max-semi-space-size=\d+ \S*scripts\/start\.mjs$/);
    expect(childrenOf(servers[0]!)).toEqual([]);

    const cookie = await logIn(server.baseUrl, sender.email, PASSWORD);
    // An open live-updates stream must not keep the server from stopping.
    const stream = await fetch(`${server.baseUrl}/messages/events`, { headers: { Cookie: cookie } });
    expect(stream.headers.get("content-type")).toContain("text/event-stream");

    // A slow spreadsheet keeps the sends in flight when the signal arrives.
    fake.setLatency(1_000);
    const sends = Array.from({ length: 8 }, (_, i) =>
      postForm(server.baseUrl, `/messages?to=${recipient.id}`, cookie, new URLSearchParams({ intent: "send", text: `Message ${i}` })).then(
        (response) => ({ text: `Message ${i}`, status: response.status, answeredAt: Date.now() }),
        () => ({ text: `Message ${i}`, status: 0, answeredAt: Date.now() }),
      ),
    );
    await new Promise((resolve) => setTimeout(resolve, 300));
    const signalledAt = Date.now();
    const stopped = await stopLikeDocker(server);
    const results = await Promise.all(sends);

    expect(stopped.code).toBe(0);
    expect(await portIsFree(server.port)).toBe(true);
    expect(results.filter((result) => result.status >= 500)).toEqual([]);
    const acknowledged = results.filter((result) => result.status === 302 || result.status === 303);
    // Requests in flight when the signal came were answered, not cut off.
    expect(acknowledged.filter((result) => result.answeredAt > signalledAt).length).toBeGreaterThan(0);
    fake.setLatency(0);
    const stored = await storedMessageTexts(env);
    expect(acknowledged.map((result) => result.text).filter((text) => !stored.has(text))).toEqual([]);
  });

  it("a database that refuses at start-up stops it with the one line the operator guide promises, and no stack", async () => {
    const closedPort = await new Promise<number>((resolve) => {
      const probe = createServer().listen(0, "127.0.0.1", () => {
        const { port } = probe.address() as AddressInfo;
        probe.close(() => resolve(port));
      });
    });
    const env = {
      ...productionEnv(mkdtempSync(path.join(tmpdir(), "referral-no-database-"))),
      DATABASE_URL: `postgres://app@127.0.0.1:${closedPort}/referrals`,
    };
    const child = spawn("node", ["scripts/start.mjs"], { env: { ...process.env, ...env }, stdio: ["ignore", "pipe", "pipe"] });
    let output = "";
    child.stdout.on("data", (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on("data", (chunk: Buffer) => (output += chunk.toString()));
    const code = await new Promise<number | null>((resolve) => child.once("exit", resolve));

    expect(code).toBe(1);
    const lines = output.split("\n").filter((line) => line.trim() !== "");
    expect(lines.filter((line) => line.includes("the database (DATABASE_URL) refused"))).toEqual([
      `the database (DATABASE_URL) refused: connect ECONNREFUSED 127.0.0.1:${closedPort}. Check DATABASE_URL, and that PostgreSQL is running and reachable.`,
    ]);
    expect(output).not.toMatch(/^\s+at /m);
    expect(lines.filter((line) => !line.startsWith("Memory: "))).toHaveLength(1);
  });

  it("npm start gives the server V8 heap limits from MEMORY_LIMIT_MB, says so, and the server stops when start.mjs is killed", async () => {
    const token = "health-token-for-tests-0123456789";
    const env = { ...productionEnv(mkdtempSync(path.join(tmpdir(), "referral-memory-"))), MEMORY_LIMIT_MB: "400", HEALTH_TOKEN: token };
    running = await startBuiltServer(["node", "scripts/start.mjs"], env);
    const server = running;
    // On a machine whose container has a memory limit, that limit is the one chosen.
    expect(server.output()).toMatch(
      /^Memory: \d+ MB \((MEMORY_LIMIT_MB|the container's memory limit)\), so V8 runs with --max-old-space-size=\d+ --max-semi-space-size=\d+\.$/m,
    );
    const chosenOldSpaceMb = Number(/--max-old-space-size=(\d+)/.exec(server.output())![1]);
    const details = (await fetch(`${server.baseUrl}/healthz`, { headers: { Authorization: `Bearer ${token}` } }).then((response) =>
      response.json(),
    )) as { memory: { heapLimitMb: number; replicaTabs: { tab: string }[] } };
    // V8's ceiling is the old generation's plus the young generation's.
    expect(details.memory.heapLimitMb).toBeGreaterThanOrEqual(chosenOldSpaceMb);
    expect(details.memory.heapLimitMb).toBeLessThan(chosenOldSpaceMb + 50);
    expect(details.memory.replicaTabs.map((tab) => tab.tab)).toContain("Agents");

    const [serverPid] = childrenOf(server.child.pid!);
    const serverExited = new Promise<void>((resolve) => {
      const poll = setInterval(() => {
        try {
          process.kill(serverPid!, 0);
        } catch {
          clearInterval(poll);
          resolve();
        }
      }, 50);
    });
    server.child.kill("SIGKILL");
    await serverExited;
    expect(await portIsFree(server.port)).toBe(true);
  });

  it("the Docker image's command stops cleanly when docker stop sends it SIGTERM", async () => {
    const dockerfile = readFileSync("Dockerfile", "utf8");
    const command = JSON.parse(/^CMD\s+(\[.*\])\s*$/m.exec(dockerfile)![1]!) as string[];
    const packageJson = JSON.parse(readFileSync("package.json", "utf8")) as { scripts: { start: string } };
    // The same entry as `npm start`.
    expect(packageJson.scripts.start).toBe(`exec ${command.join(" ")}`);

    running = await startBuiltServer(command, productionEnv(mkdtempSync(path.join(tmpdir(), "referral-docker-"))));
    const server = running;
    expect(server.output()).toContain("(production, built app,");
    expect(await fetch(`${server.baseUrl}/healthz`).then((response) => response.status)).toBe(200);

    const stopped = await stopLikeDocker(server);
    expect(stopped).toMatchObject({ code: 0, signal: null });
    expect(await portIsFree(server.port)).toBe(true);
  });

  it("a request stuck on a spreadsheet that stopped answering does not hold the stop past 10 s", async () => {
    fake = await startFakeSheets();
    const env = { ...productionEnv(mkdtempSync(path.join(tmpdir(), "referral-stuck-"))), ...fakeSheetsEnv(fake, "stuck-test") };
    const [sender, recipient] = await seedTwoAgents(env);
    running = await startBuiltServer(["node", "scripts/start.mjs"], env);
    const server = running;
    const cookie = await logIn(server.baseUrl, sender.email, PASSWORD);

    fake.setLatency(60_000);
    const send = postForm(
      server.baseUrl,
      `/messages?to=${recipient.id}`,
      cookie,
      new URLSearchParams({ intent: "send", text: "Stuck" }),
    ).then(
      (response) => response.status,
      () => "cut off",
    );
    await new Promise((resolve) => setTimeout(resolve, 300));
    await stopLikeDocker(server);
    expect(await send).toBe("cut off");
    expect(await portIsFree(server.port)).toBe(true);
  });

  it("routes recognise the services' errors: a store outage gives the send-failed message and a 30000 × 30000 PNG 'Invalid image file'", async () => {
    fake = await startFakeSheets();
    const env = { ...productionEnv(mkdtempSync(path.join(tmpdir(), "referral-outage-"))), ...fakeSheetsEnv(fake, "outage-test") };
    const [sender, recipient] = await seedTwoAgents(env);
    running = await startBuiltServer(["node", "scripts/start.mjs"], env);
    const server = running;
    const cookie = await logIn(server.baseUrl, sender.email, PASSWORD);

    const form = new FormData();
    for (const [name, value] of Object.entries({
      fullName: sender.fullName,
      phone: sender.phone,
      city: sender.city,
      state: sender.state,
      brokerage: sender.brokerage,
    })) {
      form.append(name, value);
    }
    form.append("specialties", "Residential");
    form.append("password", PASSWORD);
    form.append("photo", new File([new Uint8Array(hugePngHeader())], "huge.png", { type: "image/png" }));
    const photo = await postForm(server.baseUrl, "/edit-profile", cookie, form);
    expect(photo.status).toBe(400);
    expect(await photo.text()).toContain("Invalid image file");

    // Staff took the app's write access away: every write is refused, at once and for good.
    fake.failNext(1000, 403, matchers.writes);
    const send = await postForm(
      server.baseUrl,
      `/messages?to=${recipient.id}`,
      cookie,
      new URLSearchParams({ intent: "send", text: "Hello during the outage" }),
    );
    expect(send.status).toBe(503);
    expect(await send.text()).toContain(SEND_FAILED);
  });
});
