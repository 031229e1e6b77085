/** The staff command (`npm run staff`, scripts/staff.ts): approves, rejects and lists agents by editing the store as staff would. */
import { parseArgs } from "node:util";
import { normaliseEmail } from "~/domain/auth";
import { AGENT_STATUSES, type Agent, type AgentStatus } from "~/domain/workbook/tabs";
import type { Store } from "~/server/store/store.server";

/** A request the operator can correct: printed as one line by the staff command. */
export class StaffCommandError extends Error {
  override name = "StaffCommandError";
}

type Decision = "approved" | "rejected";

type DecisionOutcome = {
  agent: Agent;
  previousStatus: AgentStatus;
  /** False when the agent already had this status and note: nothing was written. */
  changed: boolean;
};

/** Agents in row order, optionally only those with one status. */
function listAgents(store: Store, status?: AgentStatus): readonly Agent[] {
  return status ? store.agents.by("status", status) : store.agents.all();
}

/**
 * Sets an agent's status the way staff would in the sheet: only the status, the
 * note (for a rejection) and updatedAt cells change. The running app notices the
 * edit on its next refresh and mails the agent.
 */
async function decideAgent(store: Store, email: string, decision: Decision, note?: string, now = new Date()): Promise<DecisionOutcome> {
  const matches = store.agents.by("email", normaliseEmail(email));
  if (matches.length === 0) throw new StaffCommandError(`No agent has the email ${email}.`);
  if (matches.length > 1) {
    throw new StaffCommandError(`${matches.length} rows have the email ${email} (ids ${matches.map((agent) => agent.id).join(", ")}): fix the duplicates in the sheet first.`);
  }
  const agent = matches[0] as Agent;
  const statusNote = note?.trim() ?? agent.statusNote;
  if (agent.status === decision && agent.statusNote === statusNote) return { agent, previousStatus: agent.status, changed: false };
  const updated = await store.agents.update(agent.id, { status: decision, statusNote, updatedAt: now.toISOString() });
  return { agent: updated, previousStatus: agent.status, changed: true };
}

const STAFF_USAGE = `Usage:
  npm run staff -- list [--status pending|approved|rejected]
  npm run staff -- approve EMAIL
  npm run staff -- reject EMAIL --note "reason (mailed to the agent)"`;

function readArguments(argv: readonly string[]) {
  try {
    return parseArgs({
      args: [...argv],
      allowPositionals: true,
      options: { status: { type: "string" }, note: { type: "string" } },
    });
  } catch (error) {
    throw new StaffCommandError(`${(error as Error).message}\n${STAFF_USAGE}`);
  }
}

function isStatus(value: string): value is AgentStatus {
  return (AGENT_STATUSES as readonly string[]).includes(value);
}

function describeAgent(agent: Agent): string {
  const place = [agent.city, agent.state].filter(Boolean).join(", ");
  const note = agent.statusNote ? `  note: ${agent.statusNote}` : "";
  return `${agent.status.padEnd(8)}  ${agent.email}  ${agent.fullName}${place ? ` (${place})` : ""}  license ${agent.licenseState || "?"} ${agent.licenseNumber || "?"}  registered ${agent.createdAt.slice(0, 10)}${note}`;
}

/** Runs one command on the store; returns the lines to print. */
export async function runStaffCommand(store: Store, argv: readonly string[], refreshSeconds: number): Promise<string[]> {
  const { positionals, values } = readArguments(argv);
  const [command, email, ...extra] = positionals;
  if (command === "list") {
    if (email !== undefined) throw new StaffCommandError(STAFF_USAGE);
    if (values.status !== undefined && !isStatus(values.status)) throw new StaffCommandError(`--status must be one of ${AGENT_STATUSES.join(", ")}.`);
    const agents = listAgents(store, values.status);
    return agents.length === 0 ? ["No agents."] : agents.map(describeAgent);
  }
  if ((command !== "approve" && command !== "reject") || email === undefined || extra.length > 0) throw new StaffCommandError(STAFF_USAGE);
  if (command === "approve" && values.note !== undefined) throw new StaffCommandError("--note goes with reject only.");
  if (command === "reject" && !values.note?.trim()) throw new StaffCommandError('reject needs --note "reason": the note is mailed to the agent.');

  const decision: Decision = command === "approve" ? "approved" : "rejected";
  const outcome = await decideAgent(store, email, decision, values.note);
  if (!outcome.changed) return [`${outcome.agent.email} is already ${decision}; nothing changed.`];
  const lines = [`${outcome.agent.email}: ${outcome.previousStatus} → ${decision}.`];
  lines.push(
    outcome.previousStatus === "pending"
      ? `The running app mails the agent on its next store refresh (every ${refreshSeconds} s).`
      : "The app mails only decisions on pending applications: tell the agent yourself.",
  );
  return lines;
}
