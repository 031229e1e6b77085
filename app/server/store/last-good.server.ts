import { chmod, mkdir, readFile, rename, writeFile } from "node:fs/promises";
import path from "node:path";
import type { DriverRow } from "./driver.server";
import { describeError } from "./types.server";

/** One tab as it last read well, kept on disk: what a restart serves while staff fix the tab. */
type LastGoodCopy = { tab: string; savedAt: string; rows: DriverRow[] };

/**
 * The last good copy of each tab, one file per tab in a folder of the instance's own data
 * folder (docs/decisions/0034). The files hold what the tab holds, password hashes
 * included, so the folder is readable by the app's user only.
 */
export type LastGoodCopies = {
  save(copy: LastGoodCopy): Promise<void>;
  /** The copy saved for this tab, or undefined when there is none or it does not read. */
  load(tab: string): Promise<LastGoodCopy | undefined>;
};

export function lastGoodDirectory(dataDir: string): string {
  return path.join(dataDir, "last-good");
}

/** Tab names are staff-visible words; the file name keeps letters and digits only. */
function fileOf(directory: string, tab: string): string {
  return path.join(directory, `${tab.replace(/[^A-Za-z0-9]/g, "_")}.json`);
}

export function createLastGoodCopies(directory: string, log: Pick<Console, "error"> = console): LastGoodCopies {
  let ready: Promise<void> | undefined;
  const ensureDirectory = () => {
    ready ??= mkdir(directory, { recursive: true, mode: 0o700 }).then(() => chmod(directory, 0o700));
    return ready;
  };

  return {
    async save(copy) {
      const file = fileOf(directory, copy.tab);
      const temporary = `${file}.${process.pid}.tmp`;
      try {
        await ensureDirectory();
        // Written aside and renamed over the old copy, so a crash never leaves half a file.
        await writeFile(temporary, JSON.stringify(copy), { mode: 0o600 });
        await rename(temporary, file);
      } catch (error) {
        ready = undefined;
        log.error(`Store: could not save the last good copy of the ${copy.tab} tab in ${directory}: ${describeError(error)}`);
      }
    },
    async load(tab) {
      let text: string;
      try {
        text = await readFile(fileOf(directory, tab), "utf8");
      } catch {
        return undefined;
      }
      try {
        const copy = JSON.parse(text) as LastGoodCopy;
        return copy.tab === tab && Array.isArray(copy.rows) ? copy : undefined;
      } catch (error) {
        log.error(`Store: the last good copy of the ${tab} tab does not read: ${describeError(error)}`);
        return undefined;
      }
    },
  };
}
