import type { Agent, AgentStatus } from "~/domain/workbook/tabs";
import { approvalMail, rejectionMail } from "../mail/account-mail.server";
import type { Mail } from "../mail/mailer.server";
import type { Config } from "../config.server";
import type { Notifier } from "../notifier/notifier.server";
import type { BackgroundJob, RowChange, Store } from "../store/store.server";
import { publicUrl } from "../accounts/urls.server";

type Deps = {
  store: Store;
  notifier: Pick<Notifier, "enqueue">;
  config: Pick<Config, "appUrl" | "port" | "supportEmail">;
  log?: Pick<Console, "info" | "error">;
};

/**
 * Mails an agent once when staff decide on their application: a status that goes
 * from pending to approved or rejected (never suspended) (in the sheet, the SQLite file or with the
 * staff command) is seen on the next replica refresh, whose event gives the old and new
 * status. A row re-read unchanged, or one that briefly disappears (a typo makes it
 * unreadable) and comes back, is not a change of status and is not mailed again.
 *
 * Every instance of the app sees the change; the mail is claimed as
 * `decision:<agent id>:<status>` (docs/decisions/0029), so one of them sends it, and an
 * agent gets at most one approval and one rejection mail: a decision taken back and made
 * again is not mailed twice. The winner also stamps the decision in the agent's
 * `decisionsMailed` cell before sending, and no instance sends a decision stamped there:
 * a claim row staff deleted cannot make a second mail. Decisions made while no instance
 * is running are not mailed: the replica's first read is its starting point.
 */
export function watchAgentDecisions({ store, notifier, config, log = console }: Deps): BackgroundJob {
  /** The agents whose application staff decided since the last run, as they stand now. */
  function decided(changes: readonly RowChange<"agents">[]): Agent[] {
    return changes.flatMap(({ id, before, after }) => {
      // Only a decision on an application is mailed: a suspension is staff's moderation, not an answer to one.
      if (before.status !== "pending" || !isDecision(after.status)) return [];
      const agent = store.agents.get(id);
      // Changed again since: that change is the next run's to judge.
      return agent && agent.status === after.status ? [agent] : [];
    });
  }

  function claimAndSend(agent: Agent): void {
    if (wasMailed(agent)) return;
    const about = `the ${agent.status} mail to ${agent.email} (agent ${agent.id}; if it is not sent, tell them by hand)`;
    const sent = notifier.enqueue(
      { mail: decisionMail(agent, config), about },
      { once: `decision:${agent.id}:${agent.status}`, confirm: () => stampRow(agent) },
    );
    void sent.outcome.then((outcome) => {
      if (outcome === "sent") log.info(`Accounts: ${agent.status} mail sent to agent ${agent.id}`);
    });
  }

  /**
   * Records the claim in the agent's own row, after reading the row as stored: false when
   * another instance stamped it already (its SendClaims row deleted by hand since), so
   * that deleted row never makes a second mail.
   */
  async function stampRow(agent: Agent): Promise<boolean> {
    const stored = (await store.agents.readStored()).find((row) => row.id === agent.id);
    if (!stored || wasMailed(stored)) {
      log.info(`Accounts: the ${agent.status} mail to agent ${agent.id} was sent before; not sent again.`);
      return false;
    }
    await store.agents.update(agent.id, { decisionsMailed: [...(stored.decisionsMailed ?? []), agent.status] });
    return true;
  }

  return store.addJob({
    name: "decision mails",
    watches: { agents: ["status"] },
    async run(event) {
      decided(event.agents.changed).forEach(claimAndSend);
    },
  });
}

function isDecision(status: AgentStatus | undefined): boolean {
  return status === "approved" || status === "rejected";
}

function wasMailed(agent: Agent): boolean {
  return (agent.decisionsMailed ?? []).includes(agent.status);
}

function decisionMail(agent: Agent, config: Deps["config"]): Mail {
  return agent.status === "approved"
    ? approvalMail(agent, publicUrl(config, "/member-login"))
    : rejectionMail(agent, config.supportEmail, publicUrl(config, "/contact"));
}
