/**
 * A throwaway PostgreSQL server: Debian's server programs run on a free port with their
 * data in a temporary folder. The tests start one for the whole run and give each test a
 * database of its own (tests/support/postgres.ts), the scale bench one for its run
 * (bench/postgres-scale.ts).
 */
import { execFile } from "node:child_process";
import { randomBytes } from "node:crypto";
import { chownSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import pg from "pg";

const run = promisify(execFile);

const NOT_FOUND = "PostgreSQL not found: install Debian's postgresql package (apt-get install postgresql)";

/** A throwaway PostgreSQL server in a temporary folder, reached at `url` (its `postgres` database). */
export type PostgresServer = {
  readonly url: string;
  /** A new, empty database on the server, for one test: its connection URL. */
  createDatabase(): Promise<string>;
  /**
   * Stops the server as an operator's restart or a failover does (`pg_ctl stop -m fast`: every
   * session is ended), keeping its data; `startAgain` brings it back on the same port.
   */
  shutDown(): Promise<void>;
  startAgain(): Promise<void>;
  /** Stops the server and removes its folder. */
  stop(): Promise<void>;
};

/** Debian installs the server's programs under /usr/lib/postgresql/<major>/bin, off the PATH: the newest there, else the PATH's. */
function binDirectory(): string {
  const root = "/usr/lib/postgresql";
  const majors = existsSync(root) ? readdirSync(root).filter((name) => /^\d+$/.test(name)) : [];
  const newest = majors.sort((a, b) => Number(b) - Number(a)).find((major) => existsSync(path.join(root, major, "bin", "initdb")));
  if (newest !== undefined) return path.join(root, newest, "bin");
  const onPath = (process.env.PATH ?? "").split(path.delimiter).find((folder) => folder && existsSync(path.join(folder, "initdb")));
  if (onPath === undefined) throw new Error(NOT_FOUND);
  return onPath;
}

/** initdb refuses to run as root: there the server runs as Debian's `postgres` user, which owns the folder. */
function serverUser(): { uid: number; gid: number } | undefined {
  if (process.getuid?.() !== 0) return undefined;
  const passwd = readFileSync("/etc/passwd", "utf8")
    .split("\n")
    .map((line) => line.split(":"))
    .find((fields) => fields[0] === "postgres");
  if (passwd === undefined) throw new Error(`${NOT_FOUND} (no postgres user to run it as root)`);
  return { uid: Number(passwd[2]), gid: Number(passwd[3]) };
}

async function freePort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, "127.0.0.1", resolve));
  const address = probe.address();
  await new Promise((resolve) => probe.close(resolve));
  if (address === null || typeof address === "string") throw new Error("No free port found for PostgreSQL");
  return address.port;
}

/**
 * Starts the server on a port that was free a moment ago; another process may take it in
 * between (test files start servers side by side), so a port found taken is replaced.
 */
async function startOnFreePort(ctl: Ctl, folder: string): Promise<number> {
  for (let attempt = 1; ; attempt += 1) {
    const port = await freePort();
    try {
      await startOn(ctl, folder, port);
      return port;
    } catch (error) {
      if (attempt < 3 && /Address already in use/.test((error as Error).message)) continue;
      throw error;
    }
  }
}

type Ctl = (args: string[]) => Promise<unknown>;

async function startOn(ctl: Ctl, folder: string, port: number): Promise<void> {
  const log = path.join(folder, "server.log");
  rmSync(log, { force: true });
  try {
    await ctl(["-l", log, "-o", `-F -p ${port} -k ${folder} -c listen_addresses=127.0.0.1 -c max_connections=400`, "-w", "start"]);
  } catch (error) {
    const said = existsSync(log) ? readFileSync(log, "utf8").trim() : String(error);
    throw new Error(`PostgreSQL did not start: ${said.split("\n").slice(-3).join(" ")}`, { cause: error });
  }
}

/**
 * A new, empty database on the server at `serverUrl` (its `postgres` database): its URL.
 * Named at random, so test files running side by side on one server never pick the same.
 */
export async function createDatabaseOn(serverUrl: string): Promise<string> {
  const name = `test_${randomBytes(6).toString("hex")}`;
  const client = new pg.Client({ connectionString: serverUrl });
  await client.connect();
  try {
    await client.query(`CREATE DATABASE ${name}`);
  } finally {
    await client.end();
  }
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

/**
 * Starts a server on a free port with its data and unix socket in a new temporary folder,
 * trusting local connections, fsync off (nothing in it needs to survive a crash).
 */
export async function startPostgres(): Promise<PostgresServer> {
  const bin = binDirectory();
  const user = serverUser();
  const folder = mkdtempSync(path.join(tmpdir(), "pg-"));
  if (user) chownSync(folder, user.uid, user.gid);
  const data = path.join(folder, "data");
  const options = user ? { uid: user.uid, gid: user.gid, cwd: folder, env: { ...process.env, HOME: folder } } : { cwd: folder };
  const ctl: Ctl = (args) => run(path.join(bin, "pg_ctl"), ["-D", data, ...args], options);
  let port: number;
  try {
    await run(
      path.join(bin, "initdb"),
      ["-D", data, "--username=postgres", "--auth=trust", "--encoding=UTF8", "--locale=C", "--no-sync", "--no-instructions"],
      options,
    );
    port = await startOnFreePort(ctl, folder);
  } catch (error) {
    rmSync(folder, { recursive: true, force: true });
    throw error;
  }
  const url = `postgresql://postgres@127.0.0.1:${port}/postgres`;
  return {
    url,
    createDatabase: () => createDatabaseOn(url),
    shutDown: async () => void (await ctl(["-m", "fast", "-w", "stop"])),
    startAgain: () => startOn(ctl, folder, port),
    async stop() {
      try {
        await ctl(["-m", "immediate", "-w", "stop"]);
      } finally {
        rmSync(folder, { recursive: true, force: true });
      }
    },
  };
}
