import { CLAIM_KEYS } from "~/domain/claim-keys";
import { createHash } from "node:crypto";
import { PRODUCT_NAME } from "~/domain/product";
import type { Config } from "../config.server";
import type { Notifier } from "../notifier/notifier.server";
import type { SendClaims } from "../send-claims.server";
import type { BackgroundJob, Store, StoreHealth } from "../store/store.server";
import { renderMailBody } from "../mail/html.server";
import type { Mail } from "../mail/mailer.server";
import { unmatchedDecisionProblem, type DecisionAudit } from "../moderation/decision-audit.server";
import { refreshJob } from "./registry.server";

/** One thing in the workbook staff must look at, as the mail and /healthz name it. */
type SheetProblem = { where: string; what: string };

export type SheetProblemMails = BackgroundJob & {
  /** Mails staff the problems the replica shows now that were not mailed before; once across instances. */
  mailNew(now: Date): Promise<void>;
};

function problemsOf(health: Pick<StoreHealth, "degradedTabs" | "invalidRows" | "doubtfulValues">): SheetProblem[] {
  return [
    ...health.degradedTabs.map((problem) => ({
      where: `${problem.tab} tab`,
      what: `cannot be read: ${problem.problem}. Fix: ${problem.fix}`,
    })),
    ...health.invalidRows.map((row) => ({ where: `${row.tab} row ${row.row}`, what: `skipped (the site cannot read it): ${row.reason}` })),
    ...health.doubtfulValues.map((value) => ({ where: `${value.tab} row ${value.row}`, what: `probably mistyped: ${value.reason}` })),
  ];
}

const describe = (problem: SheetProblem) => `${problem.where}: ${problem.what}`;

function sheetProblemsMail(problems: readonly SheetProblem[], supportEmail: string): Mail {
  const body = renderMailBody(
    `${PRODUCT_NAME} found ${problems.length === 1 ? "this" : "these"} in the workbook at its last re-read. Each stays listed on /healthz until it is fixed; the staff guide says what each means.`,
    problems.map((problem) => [problem.where, problem.what]),
    "An agent whose Agents row is skipped cannot log in: they are told their account cannot be read right now.",
  );
  const count = problems.length === 1 ? "1 thing needs" : `${problems.length} things need`;
  return { to: supportEmail, subject: `[Spreadsheet] ${count} a look`, ...body };
}

/**
 * After each timed refresh, mails staff at SUPPORT_EMAIL the degraded tabs, skipped rows,
 * mistyped-looking values and Moderation rows matching no item that appeared since the last look: a row staff mistyped is told
 * to them, not only logged. Each problem is claimed by a key made of its words
 * (`sheet-problem:<hash>`), so several instances, or one after a restart, mail each once.
 */
export function mailSheetProblemsAfterRefreshes({
  store,
  notifier,
  claims,
  config,
  decisionAudit,
  log = console,
}: {
  store: Pick<Store, "health" | "addJob">;
  /** The Moderation rows that match no item: staff mistyped them as surely as a skipped row. */
  decisionAudit: Pick<DecisionAudit, "unmatched">;
  notifier: Pick<Notifier, "enqueue">;
  claims: Pick<SendClaims, "claim">;
  config: Pick<Config, "supportEmail">;
  log?: Pick<Console, "error">;
}): SheetProblemMails {
  let known = new Set<string>();

  async function mailNew(now: Date): Promise<void> {
    const problems = [...problemsOf(store.health()), ...decisionAudit.unmatched().map(unmatchedDecisionProblem)];
    const fresh = problems.filter((problem) => !known.has(describe(problem)));
    known = new Set(problems.map(describe));
    if (fresh.length === 0) return;
    const keyOf = (problem: SheetProblem) =>
      CLAIM_KEYS["sheet-problem"].key(createHash("sha256").update(describe(problem)).digest("hex").slice(0, 16));
    let won: Set<string>;
    try {
      won = await claims.claim(fresh.map(keyOf), now);
    } catch (error) {
      log.error("Store: could not mail staff the workbook's problems (they are on /healthz and in this log).", error);
      return;
    }
    const mine = fresh.filter((problem) => won.has(keyOf(problem)));
    if (mine.length === 0) return;
    const about = "the staff mail of the workbook's problems (they are on /healthz and in this log)";
    notifier.enqueue({ mail: sheetProblemsMail(mine, config.supportEmail), about }, { claimed: mine.map(keyOf), now });
  }

  const job = store.addJob({ ...refreshJob("sheetProblemMails"), run: () => mailNew(new Date()) });
  return { stop: job.stop, mailNew };
}
