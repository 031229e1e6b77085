import { spawn } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { e2eServerEnv } from "./env";

export type OwnServer = { baseUrl: string; dataDir: string; stop(): void };

/**
 * A second app server on a free port with an empty store of its own, for a test that
 * needs the whole workbook in one state (such as every founder spot taken) without
 * changing what the shared e2e server shows the tests running beside it, or with a setting
 * of its own (`env`, over the shared server's).
 */
export async function startOwnServer(env: Record<string, string> = {}): Promise<OwnServer> {
  const dataDir = mkdtempSync(path.join(tmpdir(), "referral-own-"));
  // The same production entry and settings as the shared server, on a free port.
  const child = spawn(process.execPath, ["scripts/start.mjs"], {
    env: { ...process.env, ...e2eServerEnv(dataDir, "0"), HOST: "127.0.0.1", ...env },
    stdio: ["ignore", "pipe", "pipe"],
    detached: true,
  });
  const stop = () => {
    if (child.pid !== undefined && child.exitCode === null) process.kill(-child.pid, "SIGTERM");
  };
  const port = await new Promise<string>((resolve, reject) => {
    let output = "";
    const timer = setTimeout(() => reject(new Error(`The server did not start:\n${output}`)), 30_000);
    const read = (chunk: Buffer) => {
      output += chunk.toString();
      const listening = /Listening on http:\/\/localhost:(\d+)/.exec(output);
      if (listening) {
        clearTimeout(timer);
        resolve(listening[1]!);
      }
    };
    child.stdout.on("data", read);
    child.stderr.on("data", read);
    child.on("exit", () => reject(new Error(`The server stopped:\n${output}`)));
  }).catch((error: unknown) => {
    stop();
    throw error;
  });
  return { baseUrl: `http://127.0.0.1:${port}`, dataDir, stop };
}
