import { mkdirSync } from "node:fs";
import path from "node:path";
import Database from "better-sqlite3";
import { licenseKey, type TrecLicense } from "~/domain/license-check";

/** What is loaded: shown by /healthz and the staff command. */
type LicenseDataInfo = {
  /** When the loaded data was read from TREC (ISO 8601). */
  loadedAt: string;
  /** The file or URL it came from. */
  source: string;
  rows: number;
};

export type LicenseTable = {
  /** The best record for a license number (an active one before an expired one), undefined when none. */
  lookup(licenseNumber: string): TrecLicense | undefined;
  /** Undefined until a first complete load. */
  info(): LicenseDataInfo | undefined;
  /**
   * Loads a whole new copy beside the one in use and swaps it in only when every record
   * read: a malformed source leaves the previous data in place. Returns the row count.
   */
  replace(records: AsyncIterable<TrecLicense>, source: string, now?: Date): Promise<number>;
  close(): void;
};

/** The license data's own SQLite file in DATA_DIR, apart from the workbook (it is TREC's, not staff's). */
export function licenseDatabaseFile(dataDir: string): string {
  return path.join(dataDir, "trec-licenses.sqlite");
}

type Row = {
  license_number: string;
  license_type: string;
  full_name: string;
  suffix: string;
  status: string;
  expiration: string;
  sponsor_name: string;
  sponsor_license_number: string;
  email: string;
};

const COLUMNS = "key, license_number, license_type, full_name, suffix, status, expiration, sponsor_name, sponsor_license_number, email";
/** Columns later versions added: a file loaded before them gets them blank until the next load. */
const ADDED_COLUMNS = ["sponsor_license_number", "email"] as const;
/** Rows inserted per transaction: large enough to be fast, small enough to yield to requests. */
const BATCH = 20_000;

function addMissingColumns(db: Database.Database) {
  const present = new Set(
    db
      .prepare<[], { name: string }>("SELECT name FROM pragma_table_info('licenses')")
      .all()
      .map((column) => column.name),
  );
  for (const column of ADDED_COLUMNS)
    if (!present.has(column)) db.exec(`ALTER TABLE licenses ADD COLUMN ${column} TEXT NOT NULL DEFAULT ''`);
}

export function openLicenseTable(file: string): LicenseTable {
  mkdirSync(path.dirname(file), { recursive: true });
  const db = new Database(file);
  db.pragma("journal_mode = WAL");
  // TREC's copy can always be loaded again: no wait on the disk at each batch (WAL stays consistent).
  db.pragma("synchronous = NORMAL");
  db.pragma("busy_timeout = 5000");
  db.exec(`
    CREATE TABLE IF NOT EXISTS licenses (${COLUMNS.split(", ")
      .map((column) => `${column} TEXT NOT NULL`)
      .join(", ")});
    CREATE INDEX IF NOT EXISTS licenses_key ON licenses (key);
    CREATE TABLE IF NOT EXISTS license_data (id INTEGER PRIMARY KEY CHECK (id = 1), loaded_at TEXT NOT NULL, source TEXT NOT NULL, rows INTEGER NOT NULL);
  `);
  addMissingColumns(db);

  function lookup(licenseNumber: string): TrecLicense | undefined {
    const key = licenseKey(licenseNumber);
    if (key === "") return undefined;
    // Prepared on each call: a load from another process swaps the table underneath.
    const row = db
      .prepare<[string], Row>(
        `SELECT * FROM licenses WHERE key = ?
         ORDER BY status IN ('Current and active', 'Probation and active') DESC, expiration DESC LIMIT 1`,
      )
      .get(key);
    if (row === undefined) return undefined;
    return {
      licenseNumber: row.license_number,
      licenseType: row.license_type,
      fullName: row.full_name,
      suffix: row.suffix,
      status: row.status,
      expiration: row.expiration,
      sponsorName: row.sponsor_name,
      sponsorLicenseNumber: row.sponsor_license_number,
      email: row.email,
    };
  }

  function info(): LicenseDataInfo | undefined {
    const row = db
      .prepare<[], { loaded_at: string; source: string; rows: number }>("SELECT loaded_at, source, rows FROM license_data WHERE id = 1")
      .get();
    return row && { loadedAt: row.loaded_at, source: row.source, rows: row.rows };
  }

  async function replace(records: AsyncIterable<TrecLicense>, source: string, now = new Date()): Promise<number> {
    db.exec(
      `DROP TABLE IF EXISTS licenses_loading; CREATE TABLE licenses_loading (${COLUMNS.split(", ")
        .map((column) => `${column} TEXT NOT NULL`)
        .join(", ")})`,
    );
    const insert = db.prepare(`INSERT INTO licenses_loading (${COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`);
    const insertBatch = db.transaction((batch: readonly TrecLicense[]) => {
      for (const r of batch)
        insert.run(
          licenseKey(r.licenseNumber),
          r.licenseNumber,
          r.licenseType,
          r.fullName,
          r.suffix,
          r.status,
          r.expiration,
          r.sponsorName,
          r.sponsorLicenseNumber,
          r.email,
        );
    });
    let rows = 0;
    try {
      let batch: TrecLicense[] = [];
      for await (const record of records) {
        batch.push(record);
        if (batch.length === BATCH) {
          insertBatch(batch);
          rows += batch.length;
          batch = [];
        }
      }
      insertBatch(batch);
      rows += batch.length;
      if (rows === 0) throw new Error(`${source} holds no license records; the previous data stays in use.`);
    } catch (error) {
      db.exec("DROP TABLE IF EXISTS licenses_loading");
      throw error;
    }
    db.transaction(() => {
      // One transaction: readers see the old table or the new one, never neither.
      db.exec("DROP TABLE licenses");
      db.exec("ALTER TABLE licenses_loading RENAME TO licenses");
      db.exec("CREATE INDEX licenses_key ON licenses (key)");
      db.prepare("INSERT OR REPLACE INTO license_data (id, loaded_at, source, rows) VALUES (1, ?, ?, ?)").run(
        now.toISOString(),
        source,
        rows,
      );
    })();
    // The load went through the write-ahead log: fold it into the file rather than keep a second copy.
    db.pragma("wal_checkpoint(TRUNCATE)");
    return rows;
  }

  return { lookup, info, replace, close: () => db.close() };
}
