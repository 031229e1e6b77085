/**
 * Approves and rejects agent applications without opening the spreadsheet: it edits
 * the agent's row in the configured store (Google Sheets or the SQLite file in
 * DATA_DIR) exactly as staff would, and the running app mails the agent when its
 * next refresh sees the change.
 *
 *   npm run staff -- list [--status pending|approved|rejected]
 *   npm run staff -- approve EMAIL
 *   npm run staff -- reject EMAIL --note "Reason, mailed to the agent"
 *   npm run staff -- license EMAIL     (the agent's license check, and the same check now)
 *   npm run staff -- mail-log EMAIL    (the mails to that address: sent, held back and why, not sent)
 */
import { runStaffCommand, StaffCommandError } from "./lib/staff-command";
import { ConfigError, loadConfig } from "~/server/config.server";
import { licenseDatabaseFile, openLicenseTable } from "~/server/licenses/license-table.server";
import { readOutbox } from "~/server/mail/mailer.server";
import { mailLogFile, readMailLog } from "~/server/notifier/mail-log.server";
import { outboxDirectory } from "~/server/service-lifecycle.server";
import { createStoreFromConfig } from "~/server/store/store.server";

async function main(): Promise<void> {
  const config = loadConfig();
  const store = createStoreFromConfig(config);
  const licenses = openLicenseTable(licenseDatabaseFile(config.dataDir));
  try {
    await store.refresh();
    const mail = {
      mailLogFile: mailLogFile(config),
      outboxDirectory: outboxDirectory(config),
      entries: () => readMailLog(mailLogFile(config)),
      outbox: () => readOutbox(outboxDirectory(config)),
    };
    for (const line of await runStaffCommand(store, process.argv.slice(2), config.storeRefreshSeconds, licenses, mail)) console.log(line);
  } finally {
    licenses.close();
    await store.stop();
  }
}

main().catch((error: unknown) => {
  console.error(error instanceof StaffCommandError || error instanceof ConfigError ? error.message : error);
  process.exitCode = 1;
});
