import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { connectDatabase } from "../../app/server/store/postgres/database.server";
import type { ReplicaOptions } from "../../app/server/store/replica.server";
import { createSqliteDriver } from "../../app/server/store/sqlite-driver.server";
import { createStoreOver, type Store } from "../../app/server/store/store.server";

const quietLog = { info: () => undefined, warn: () => undefined, error: () => undefined };

/**
 * A deployment with `DATABASE_URL`: the staff tabs in a SQLite file, the high-volume tabs in
 * the database at `url`. Each `instance()` is another app instance on both, with its own
 * replica and its own connections, stopped by `stopAll`. The replica holds every tab unless
 * `options.queried` says otherwise: the store contract is the same on every driver.
 */
export function postgresDeployment(url: string, options: Partial<ReplicaOptions> = {}) {
  const file = path.join(mkdtempSync(path.join(tmpdir(), "pg-store-")), "store.sqlite");
  const stores: Store[] = [];
  return {
    file,
    instance(): Store {
      const store = createStoreOver(createSqliteDriver(file), connectDatabase(url, quietLog), {
        refreshSeconds: 0.05,
        log: quietLog,
        queried: new Set(),
        ...options,
      });
      stores.push(store);
      return store;
    },
    async stopAll(): Promise<void> {
      await Promise.all(stores.splice(0).map((store) => store.stop()));
    },
  };
}
