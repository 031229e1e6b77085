/** The staff command (`npm run staff`, scripts/staff.ts): approves, rejects and lists agents by editing the store as staff would. */
import { parseArgs } from "node:util";
import { normaliseEmail } from "~/domain/auth";
import { checkTexasLicense, oklahomaVerdict } from "~/domain/license-check";
import { AGENT_STATUSES, type Agent, type AgentStatus } from "~/domain/workbook/tabs";
import type { LicenseTable } from "~/server/licenses/license-table.server";
import type { Store } from "~/server/store/store.server";
import { describeMailLog, type MailLogSources } from "./mail-log";

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

function onlyAgent(store: Store, email: string): Agent {
  const matches = store.agents.by("email", normaliseEmail(email));
  if (matches.length === 0) throw new StaffCommandError(`No agent has the email ${email}.`);
  if (matches.length > 1) {
    throw new StaffCommandError(
      `${matches.length} rows have the email ${email} (ids ${matches.map((agent) => agent.id).join(", ")}): fix the duplicates in the sheet first.`,
    );
  }
  return matches[0] as Agent;
}

/** The check in the agent's row, and the same check run now against the loaded data. */
function describeLicenseCheck(store: Store, licenses: Pick<LicenseTable, "lookup" | "info">, email: string, now = new Date()): string[] {
  const agent = onlyAgent(store, email);
  const lines = [
    `${agent.email}  ${agent.fullName}  license ${agent.licenseState || "?"} ${agent.licenseNumber || "?"}  brokerage ${agent.brokerage || "?"}`,
    `In the sheet: ${agent.licenseCheck ?? "(not checked)"}${agent.licenseCheckedAt ? ` (checked ${agent.licenseCheckedAt})` : ""}`,
  ];
  if (agent.licenseCheckNote) lines.push(`  ${agent.licenseCheckNote}`);
  if (agent.licenseState === "OK") {
    const verdict = oklahomaVerdict(agent.licenseNumber);
    return [...lines, `Now: ${verdict.check}`, `  ${verdict.note}`];
  }
  if (agent.licenseState !== "TX") return lines;
  const data = licenses.info();
  if (data === undefined) return [...lines, "Now: no TREC license data is loaded (npm run licenses:update)."];
  const verdict = checkTexasLicense(agent, licenses.lookup(agent.licenseNumber), now.toISOString().slice(0, 10));
  return [
    ...lines,
    `Now: ${verdict.check}`,
    `  ${verdict.note}`,
    `License data: ${data.rows} records loaded ${data.loadedAt} from ${data.source}`,
  ];
}

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
  const agent = onlyAgent(store, email);
  const statusNote = note?.trim() ?? agent.statusNote;
  if (agent.status === decision && agent.statusNote === statusNote) return { agent, previousStatus: agent.status, changed: false };
  const updated = await store.agents.update(agent.id, { status: decision, statusNote, updatedAt: now.toISOString() });
  return { agent: updated, previousStatus: agent.status, changed: true };
}

const STAFF_USAGE = `Usage:
  npm run staff -- list [--status pending|approved|rejected]
  npm run staff -- approve EMAIL
  npm run staff -- reject EMAIL --note "reason (mailed to the agent)"
  npm run staff -- license EMAIL
  npm run staff -- mail-log EMAIL`;

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

/** Runs one command on the store (and the license data, for `license`; the mail log and outbox, for `mail-log`); returns the lines to print. */
export async function runStaffCommand(
  store: Store,
  argv: readonly string[],
  refreshSeconds: number,
  licenses?: Pick<LicenseTable, "lookup" | "info">,
  mail?: MailLogSources,
): Promise<string[]> {
  const { positionals, values } = readArguments(argv);
  const [command, email, ...extra] = positionals;
  if (command === "mail-log") {
    if (email === undefined || extra.length > 0 || mail === undefined) throw new StaffCommandError(STAFF_USAGE);
    return describeMailLog(store, email, mail);
  }
  if (command === "license") {
    if (email === undefined || extra.length > 0 || licenses === undefined) throw new StaffCommandError(STAFF_USAGE);
    return describeLicenseCheck(store, licenses, email);
  }
  if (command === "list") {
    if (email !== undefined) throw new StaffCommandError(STAFF_USAGE);
    if (values.status !== undefined && !isStatus(values.status))
      throw new StaffCommandError(`--status must be one of ${AGENT_STATUSES.join(", ")}.`);
    const agents = listAgents(store, values.status);
    return agents.length === 0 ? ["No agents."] : agents.map(describeAgent);
  }
  if ((command !== "approve" && command !== "reject") || email === undefined || extra.length > 0) throw new StaffCommandError(STAFF_USAGE);
  if (command === "approve" && values.note !== undefined) throw new StaffCommandError("--note goes with reject only.");
  if (command === "reject" && !values.note?.trim())
    throw new StaffCommandError('reject needs --note "reason": the note is mailed to the agent.');

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
