import { randomUUID } from "node:crypto";
import pg from "pg";
import { describeError } from "../types.server";

/**
 * Changes told at once, for a table: the rows, or null when they were too many to list in
 * one notification (a bulk copy): then the table is read again whole.
 */
export type TableChanges = {
  /** Null after the listener reconnected: any table may have changed while nobody listened. */
  readonly table: string | null;
  readonly rows: readonly ChangedRow[] | null;
  /** Written by this process, whose replica has the rows already. */
  readonly local: boolean;
};

type ChangedRow = { id: string; conversationId?: string };

/** The database at `DATABASE_URL`: a pool for queries and one connection listening for changes. */
export type Database = {
  readonly pool: pg.Pool;
  /** Names this process's writes in their notifications. */
  readonly instanceId: string;
  /** Starts listening for changes (and keeps reconnecting the listener while it runs); resolves once LISTEN is in place. */
  listen(): Promise<void>;
  /** Calls `listener` once per notification, with its table's changed rows (or null for many). */
  onTableChanges(listener: (changes: TableChanges) => void): () => void;
  /**
   * Counts the listener's (re)connections and the notifications it received: it changes when
   * anything may have changed, so a cache can compare it. Null while nobody listens, when
   * changes may be missed.
   */
  changeCount(): string | null;
  /** For /healthz: whether this instance hears the others' writes now (else it sees them at its timed refreshes). */
  health(): { listening: boolean };
  close(): Promise<void>;
};

/** The channel the tables' triggers notify (migration 0002) and every instance listens on. */
const CHANGES_CHANNEL = "store_changes";
const RECONNECT_DELAY_MS = 1_000;

type Payload = { instance: string; table: string; rows: ChangedRow[] | null };

function parsePayload(payload: string | undefined, instanceId: string): TableChanges | undefined {
  try {
    const value = JSON.parse(payload ?? "") as Partial<Payload>;
    if (typeof value.table !== "string" || (value.rows !== null && !Array.isArray(value.rows))) return undefined;
    return { table: value.table, rows: value.rows, local: value.instance === instanceId };
  } catch {
    return undefined;
  }
}

/** Node's words for a connection refused, cut or never made. */
const NETWORK_FAILURES = new Set([
  "ECONNREFUSED",
  "ECONNRESET",
  "EPIPE",
  "ETIMEDOUT",
  "EHOSTUNREACH",
  "ENETUNREACH",
  "ENOTFOUND",
  "EAI_AGAIN",
]);

/**
 * PostgreSQL's: a connection exception (class 08), the server shutting down or starting
 * (57P01 to 57P03, a restart or a terminated backend), too many connections (53300).
 */
const SERVER_UNAVAILABLE = /^(08...|57P0[123]|53300)$/;

/** node-postgres's own, for a connection that ended or a client it no longer queries. */
const CLIENT_UNAVAILABLE = /^(Connection terminated|Client has encountered a connection error|timeout exceeded when trying to connect)/;

/**
 * True when the database could not be reached or dropped the connection: a hiccup that
 * passes by itself (a restart, a failover), not a fault in the query.
 */
export function isDatabaseUnreachable(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  const { code } = error as { code?: unknown };
  if (typeof code === "string" && (NETWORK_FAILURES.has(code) || SERVER_UNAVAILABLE.test(code))) return true;
  if (CLIENT_UNAVAILABLE.test(error.message)) return true;
  // Node tries each address of a host name, and reports all of their failures together.
  if (error instanceof AggregateError && error.errors.some(isDatabaseUnreachable)) return true;
  return isDatabaseUnreachable(error.cause);
}

/**
 * Runs `work` on a connection checked out of the pool, then hands it back. A checked-out
 * client has no listener of the pool's, and node-postgres tells of its lost connection (a
 * restart, a failover, a terminated backend) by an `error` event, which unheard ends the
 * process: it is heard here for as long as the client is out. A client whose connection
 * failed is destroyed (`release(error)`), never handed to the next query.
 */
export async function withClient<T>(pool: Pick<pg.Pool, "connect">, work: (client: pg.PoolClient) => Promise<T>): Promise<T> {
  let lost: Error | undefined;
  const hear = (error: Error) => {
    lost ??= error;
  };
  // Heard from the moment the pool hands it over: a connection's last bytes can end it before an `await` resumes.
  const client = await new Promise<pg.PoolClient>((resolve, reject) =>
    pool.connect((error, given) => {
      if (error) return reject(error);
      given!.on("error", hear);
      resolve(given!);
    }),
  );
  try {
    return await work(client);
  } finally {
    client.release(lost);
    // A broken client keeps the listener for what it still says while it closes; a sound one is the pool's to hear again.
    if (!lost) client.off("error", hear);
  }
}

export function connectDatabase(url: string, log: Pick<Console, "info" | "error"> = console): Database {
  const pool = new pg.Pool({ connectionString: url, max: 10 });
  const instanceId = randomUUID();
  // An idle client's lost connection is reported here; the next query takes a new one.
  pool.on("error", (error) => log.error(`Database: an idle connection failed: ${describeError(error)}`));
  const tableListeners = new Set<(changes: TableChanges) => void>();
  let listener: pg.Client | undefined;
  let connections = 0;
  let received = 0;
  let listening = false;
  let closed = false;
  let retry: NodeJS.Timeout | undefined;
  let failedTries = 0;

  function deliver(changes: TableChanges): void {
    received += 1;
    for (const listen of tableListeners) listen(changes);
  }

  async function connectListener(): Promise<void> {
    const client = new pg.Client({ connectionString: url });
    client.on("notification", (message) => {
      const changes = parsePayload(message.payload, instanceId);
      if (changes) deliver(changes);
    });
    client.on("error", (error) => {
      if (closed) return;
      log.error(`Database: the change listener lost its connection (${describeError(error)}); reconnecting`);
      dropListener(client);
    });
    client.on("end", () => dropListener(client));
    try {
      await client.connect();
      await client.query(`LISTEN ${CHANGES_CHANNEL}`);
    } catch (error) {
      // Not yet the listener, so no drop ends it: a connection that failed half-way is closed here.
      await client.end().catch(() => undefined);
      throw error;
    }
    if (closed) return void (await client.end().catch(() => undefined));
    listener = client;
    connections += 1;
    listening = true;
    if (connections > 1) deliver({ table: null, rows: null, local: false });
  }

  /** Changes made while no one listened are not told: the count goes null until a new listener is in place. */
  function dropListener(client: pg.Client): void {
    if (listener !== client) return;
    listener = undefined;
    listening = false;
    client.end().catch(() => undefined);
    scheduleReconnect();
  }

  /** Reconnects every second until it listens; an outage is logged once, at its first failed try, and when it ends. */
  function scheduleReconnect(): void {
    if (closed || retry) return;
    retry = setTimeout(() => {
      retry = undefined;
      connectListener().then(
        () => {
          if (failedTries > 0) log.info(`Database: listening for changes again, after ${failedTries} failed tries`);
          failedTries = 0;
        },
        (error: unknown) => {
          if (failedTries === 0) log.error(`Database: could not listen for changes: ${describeError(error)}; trying again every second`);
          failedTries += 1;
          scheduleReconnect();
        },
      );
    }, RECONNECT_DELAY_MS);
    retry.unref();
  }

  return {
    pool,
    instanceId,
    async listen() {
      if (!listener) await connectListener();
    },
    onTableChanges(listen) {
      tableListeners.add(listen);
      return () => void tableListeners.delete(listen);
    },
    changeCount: () => (listening ? `${connections}:${received}` : null),
    health: () => ({ listening }),
    async close() {
      closed = true;
      clearTimeout(retry);
      const client = listener;
      listener = undefined;
      listening = false;
      await client?.end().catch(() => undefined);
      await pool.end();
    },
  };
}
