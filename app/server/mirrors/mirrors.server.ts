/**
 * The mirror tabs' job (docs/decisions/0081). After each timed store refresh it rewrites, on
 * one instance only, what is due: every mirror once per period (`mirror:<period start>`
 * claimed first), and the Lookup tab as soon as the refresh read a look-up in B2 that B3 does
 * not answer yet (`mirror-lookup:<minute>:<hash>`). The app reads nothing staff type in a
 * mirror but B2, and B3 is its own answer's marker.
 */
import { createHash } from "node:crypto";
import { CLAIM_KEYS } from "~/domain/claim-keys";
import {
  cutNote,
  listCells,
  LOOKUP_CELL,
  LOOKUP_WATCHED_RANGE,
  lookupCells,
  MIRROR_PERIOD_MINUTES,
  MIRROR_TOP_ROWS,
  mirrorCells,
  MIRRORS,
  RECENT_REPORT_DAYS,
  type MirrorName,
} from "~/domain/mirrors";
import { refreshJob } from "../jobs/registry.server";
import type { MessageQueries } from "../messages/message-queries.server";
import type { SendClaims } from "../send-claims.server";
import { describeError, type BackgroundJob, type MirrorGrid, type Store } from "../store/store.server";
import {
  DAILY_COUNT_HEADERS,
  dailyCountRows,
  INVITATIONS_TO_JOIN_HEADERS,
  invitationToJoinRows,
  lookupSections,
  RECENT_REPORT_HEADERS,
  recentReportRows,
} from "./mirror-contents.server";

/** One mirror as /healthz's details show it. */
type MirrorHealth = {
  tab: string;
  /** The grid's fixed size in cells: what it costs against Google's limit. */
  cells: number;
  /** When it was last rewritten, by this instance or (its period claimed there) another; null before. */
  lastRewriteAt: string | null;
  by: "this instance" | "another instance" | null;
};

export type Mirrors = BackgroundJob & {
  /** Rewrites what is due now (see the module); resolves when done, never rejects (a failure is logged and in `health`). */
  rewriteDue(now: Date): Promise<void>;
  health(): { enabled: boolean; lastError: string | null; tabs: MirrorHealth[] };
};

type Deps = {
  store: Store;
  messageQueries: Pick<MessageQueries, "forStaff" | "perDay">;
  claims: Pick<SendClaims, "claim">;
  log?: Pick<Console, "error">;
};

const NAMES = Object.keys(MIRRORS) as MirrorName[];

/** The start of the mirrors' period `now` falls in, which names its claim. */
function periodOf(now: Date): string {
  const period = MIRROR_PERIOD_MINUTES * 60_000;
  return new Date(Math.floor(now.getTime() / period) * period).toISOString();
}

function grid(name: MirrorName, cells: string[][]): MirrorGrid {
  const shape = MIRRORS[name];
  return {
    tab: shape.tab,
    rows: MIRROR_TOP_ROWS + shape.dataRows,
    columns: shape.columns,
    // The bound holds whatever a builder returned: a row past it is never written.
    cells: cells.slice(0, MIRROR_TOP_ROWS + shape.dataRows).map((row) => row.slice(0, shape.columns)),
    ...(name === "lookup" ? { keep: { row: LOOKUP_CELL.row, column: LOOKUP_CELL.column } } : {}),
  };
}

export function rewriteMirrorsAfterRefreshes({ store, messageQueries, claims, log = console }: Deps): Mirrors {
  const tabs = store.mirrors;
  tabs?.watch(MIRRORS.lookup.tab, LOOKUP_WATCHED_RANGE);
  const sources = { store, messageQueries };
  const last = new Map<MirrorName, Omit<MirrorHealth, "tab" | "cells">>();
  let claimedPeriod: string | undefined;
  let lastError: string | null = null;

  async function build(name: MirrorName, now: Date, typed: string): Promise<MirrorGrid> {
    switch (name) {
      case "lookup":
        return grid(name, lookupCells(typed, await lookupSections(sources, typed), now));
      case "recentReports": {
        const { rows, total } = await recentReportRows(sources, now);
        const status = cutNote(rows.length, total, `reported or hidden items in the last ${RECENT_REPORT_DAYS} days`);
        return grid(name, listCells(name, RECENT_REPORT_HEADERS, rows, status, now));
      }
      case "dailyCounts": {
        const status = `The last ${MIRRORS.dailyCounts.dataRows} days, newest first; older days are cut. Mails: the claims still in SendClaims.`;
        return grid(name, listCells(name, DAILY_COUNT_HEADERS, await dailyCountRows(sources, now), status, now));
      }
      case "invitationsToJoin": {
        const { rows, total } = invitationToJoinRows(sources, now);
        return grid(name, listCells(name, INVITATIONS_TO_JOIN_HEADERS, rows, cutNote(rows.length, total, "invitations to join"), now));
      }
    }
  }

  async function rewrite(names: readonly MirrorName[], now: Date, typed: string): Promise<void> {
    const grids = await Promise.all(names.map((name) => build(name, now, typed)));
    await tabs!.rewrite(grids);
    for (const name of names) last.set(name, { lastRewriteAt: now.toISOString(), by: "this instance" });
  }

  /** The look-up staff typed and the one the tab answers, from the refresh's read of B2:B3. */
  function lookupState(): { typed: string; answered: string } | undefined {
    const watched = tabs?.watched();
    if (!watched) return undefined;
    return { typed: (watched[0]?.[0] ?? "").trim(), answered: (watched[1]?.[0] ?? "").trim() };
  }

  async function claimed(key: string, now: Date): Promise<boolean> {
    return (await claims.claim([key], now)).has(key);
  }

  async function rewriteDueOnce(now: Date): Promise<void> {
    if (!tabs) return;
    const lookup = lookupState();
    const period = periodOf(now);
    if (period !== claimedPeriod) {
      claimedPeriod = period;
      if (await claimed(CLAIM_KEYS.mirror.key(period), now)) return rewrite(NAMES, now, lookup?.typed ?? "");
      for (const name of NAMES) last.set(name, { lastRewriteAt: period, by: "another instance" });
    }
    if (!lookup || lookup.typed === lookup.answered) return;
    const minute = now.toISOString().slice(0, 16);
    const asked = createHash("sha256").update(`${lookup.typed}\n${lookup.answered}`).digest("hex").slice(0, 16);
    if (await claimed(CLAIM_KEYS["mirror-lookup"].key(minute, asked), now)) await rewrite(["lookup"], now, lookup.typed);
  }

  let running: Promise<void> | undefined;
  function rewriteDue(now: Date): Promise<void> {
    running ??= rewriteDueOnce(now)
      .then(() => void (lastError = null))
      .catch((error: unknown) => {
        // The period is tried again at the next refresh.
        claimedPeriod = undefined;
        lastError = describeError(error);
        log.error("Mirrors: could not rewrite the mirror tabs; tried again after the next refresh.", error);
      })
      .finally(() => {
        running = undefined;
      });
    return running;
  }

  const job = store.addJob({ ...refreshJob("mirrors"), run: () => rewriteDue(new Date()) });
  return {
    rewriteDue,
    health: () => ({
      enabled: tabs !== null,
      lastError,
      tabs: NAMES.map((name) => ({
        tab: MIRRORS[name].tab,
        cells: mirrorCells(name),
        lastRewriteAt: last.get(name)?.lastRewriteAt ?? null,
        by: last.get(name)?.by ?? null,
      })),
    }),
    async stop() {
      await job.stop();
      await running;
    },
  };
}
