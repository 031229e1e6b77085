import type { TabKey } from "~/domain/workbook/tabs";
import { TAB_KEYS } from "./tab-state.server";

/** Recent changes remembered per tab, for caches that catch up by record rather than rebuild. */
const CHANGE_LOG_LENGTH = 1_000;

/** Per tab, a number bumped whenever its records change, and which record each recent change touched. */
export type TabVersions = {
  of(name: TabKey): number;
  /** A change of one record (a write of this process), or of any (`null`: a refresh). */
  bump(name: TabKey, id: string | null): void;
  /** The ids changed since `version`, when every change since was a write of this process that the log still holds. */
  changedSince(name: TabKey, version: number): string[] | null;
};

export function createTabVersions(): TabVersions {
  const versions = new Map<TabKey, number>(TAB_KEYS.map((name) => [name, 0]));
  const changeLogs = new Map<TabKey, { version: number; id: string | null }[]>(TAB_KEYS.map((name) => [name, []]));
  const of = (name: TabKey) => versions.get(name) ?? 0;
  return {
    of,
    bump(name, id) {
      const version = of(name) + 1;
      versions.set(name, version);
      const changes = changeLogs.get(name)!;
      changes.push({ version, id });
      if (changes.length > CHANGE_LOG_LENGTH) changes.splice(0, changes.length - CHANGE_LOG_LENGTH);
    },
    changedSince(name, version) {
      const changes = changeLogs.get(name)!;
      const current = of(name);
      if (version === current) return [];
      const newer = changes.filter((change) => change.version > version);
      if (newer.length !== current - version || newer.some((change) => change.id === null)) return null;
      return [...new Set(newer.map((change) => change.id!))];
    },
  };
}
