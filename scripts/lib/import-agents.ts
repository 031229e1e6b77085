import { planAgentImport, type AgentToImport, type ImportPlan } from "./agent-import";
import { approvedAgent } from "./agent-record";
import type { Agent } from "~/domain/workbook/tabs";
import { describeError, newId, type Store } from "~/server/store/store.server";
import { insertInGroups } from "./store-cli";

export type ImportedAgent = { line: number; email: string; notes: string[] };

export type ImportOutcome = {
  plan: ImportPlan;
  imported: ImportedAgent[];
  /** The write that failed, when the store stopped answering part way: the rows after it were not tried. */
  failure: { line: number; email: string; reason: string } | undefined;
};

export type ImportOptions = {
  now: Date;
  hashPassword: (plain: string) => Promise<string>;
  /** Awaited before each group of rows is written (to keep to a quota). */
  beforeWrite?: () => Promise<void>;
  /** Called as each agent is stored. */
  onImported?: (agent: ImportedAgent) => void;
};

/** The row as an approved member; the plain password is hashed here and goes no further. */
async function agentRecord(row: AgentToImport, options: ImportOptions): Promise<Agent> {
  return approvedAgent({
    id: newId(),
    fullName: row.fullName,
    email: row.email,
    state: row.state,
    city: row.city,
    brokerage: row.brokerage,
    specialties: row.specialties,
    bio: row.bio,
    photoUrl: row.photoUrl,
    // No password in the file: a blank hash matches no password, so the agent sets one through the reset.
    passwordHash: row.password === "" ? "" : await options.hashPassword(row.password),
    createdAt: options.now.toISOString(),
  });
}

/**
 * Imports the old site's agent export: each valid row not already in the store (by
 * e-mail) becomes an approved agent, many rows per store call. Throws ImportFileError
 * when the file as a whole cannot be read; stops after the group in which the store
 * refused a row (the others of that group may be stored), so a re-run picks up the rest.
 */
export async function importAgents(store: Store, csv: string, options: ImportOptions): Promise<ImportOutcome> {
  await store.refresh();
  const existing = new Set(store.agents.all().map((agent) => agent.email));
  const plan = planAgentImport(csv, existing);
  const imported: ImportedAgent[] = [];
  // Hashed one at a time (bcrypt is slow on purpose), then stored many rows per call.
  const records: { row: AgentToImport; agent: Agent }[] = [];
  for (const row of plan.agents) records.push({ row, agent: await agentRecord(row, options) });
  const { stored, failure } = await insertInGroups(records, ({ agent }) => store.agents.insert(agent), options.beforeWrite);
  for (const { row } of stored) {
    const done = { line: row.line, email: row.email, notes: row.notes };
    imported.push(done);
    options.onImported?.(done);
  }
  if (!failure) return { plan, imported, failure: undefined };
  const { row } = failure.record;
  return { plan, imported, failure: { line: row.line, email: row.email, reason: describeError(failure.error) } };
}
