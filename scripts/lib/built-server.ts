import { spawn, type ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import { connect } from "node:net";

/**
 * The production server as operators run it, in a child process: `npm start`, the
 * Docker image's command, or `node scripts/start.mjs`. It listens on a free port
 * (PORT=0) and the address is read from its start-up line. Needs a current build
 * (scripts/test.sh builds before the tests; a stale build is rebuilt first).
 */
export type BuiltServer = {
  child: ChildProcess;
  baseUrl: string;
  port: number;
  /** Everything the server printed so far. */
  output(): string;
  /** Resolves once the process has exited. */
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
};

const START_TIMEOUT_MS = 120_000;

export function productionEnv(dataDir: string): Record<string, string> {
  return {
    NODE_ENV: "production",
    SESSION_SECRET: randomBytes(32).toString("hex"),
    APP_URL: "http://127.0.0.1",
    DATA_DIR: dataDir,
    LOG_REQUESTS: "off",
    HOST: "127.0.0.1",
    PORT: "0",
    AUTH_ATTEMPTS_PER_IP: "100000",
  };
}

export function startBuiltServer(command: string[], env: Record<string, string>): Promise<BuiltServer> {
  const [file, ...args] = command;
  const child = spawn(file!, args, { env: { ...process.env, ...env }, stdio: ["ignore", "pipe", "pipe"] });
  let output = "";
  child.stdout!.on("data", (chunk: Buffer) => (output += chunk.toString()));
  child.stderr!.on("data", (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once("exit", (code, signal) => resolve({ code, signal })),
  );
  return new Promise((resolve, reject) => {
    const timer = setTimeout(
      () => fail(new Error(`The server did not start within ${START_TIMEOUT_MS / 1000} s:\n${output}`)),
      START_TIMEOUT_MS,
    );
    const fail = (error: Error) => {
      clearTimeout(timer);
      child.kill("SIGKILL");
      reject(error);
    };
    const onData = () => {
      const match = /Listening on http:\/\/localhost:(\d+)/.exec(output);
      if (!match) return;
      clearTimeout(timer);
      child.stdout!.off("data", onData);
      const port = Number(match[1]);
      resolve({ child, port, baseUrl: `http://127.0.0.1:${port}`, output: () => output, exited });
    };
    child.stdout!.on("data", onData);
    void exited.then(({ code }) => fail(new Error(`The server exited with code ${code} before listening:\n${output}`)));
  });
}

/** True when nothing accepts connections on the port any more. */
export function portIsFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ port, host: "127.0.0.1" });
    socket.once("connect", () => {
      socket.destroy();
      resolve(false);
    });
    socket.once("error", () => resolve(true));
  });
}

/** Logs in through the login form and returns the session cookie to send back. */
export async function logIn(baseUrl: string, email: string, password: string): Promise<string> {
  const response = await fetch(`${baseUrl}/member-login`, {
    method: "POST",
    headers: { Origin: baseUrl, "Content-Type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({ email, password }),
    redirect: "manual",
  });
  const cookie = response.headers
    .getSetCookie()
    .map((header) => header.split(";")[0])
    .join("; ");
  if (response.status >= 400 || cookie === "") throw new Error(`Login failed for ${email}: ${response.status}`);
  return cookie;
}

/** A same-site form post, as the browser sends it. */
export function postForm(
  baseUrl: string,
  path: string,
  cookie: string,
  body: URLSearchParams | FormData,
  signal?: AbortSignal,
): Promise<Response> {
  return fetch(`${baseUrl}${path}`, { method: "POST", headers: { Origin: baseUrl, Cookie: cookie }, body, redirect: "manual", signal });
}
