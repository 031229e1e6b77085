import type { Agent, AgentStatus } from "~/domain/workbook/tabs";
import { approvalMail, rejectionMail } from "../mail/account-mail.server";
import type { Mail } from "../mail/mailer.server";
import type { Config } from "../config.server";
import type { Notifier } from "../notifier/notifier.server";
import type { BackgroundJob } from "../services.server";
import type { RefreshEvent, Store } from "../store/store.server";
import { publicUrl } from "./urls.server";

type Deps = {
  store: Store;
  notifier: Pick<Notifier, "enqueue">;
  config: Pick<Config, "appUrl" | "port" | "supportEmail">;
  log?: Pick<Console, "info" | "error">;
};

/**
 * Mails an agent once when staff decide on their application: a status that goes
 * from pending to approved or rejected (never suspended) (in the sheet, the SQLite file or with the
 * staff command) is seen on the next replica refresh. The last status seen for each
 * agent is remembered, so a row that briefly disappears or is re-read unchanged is
 * never mailed again.
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
  const lastStatus = new Map<string, AgentStatus>();

  function onRefresh(event: RefreshEvent): void {
    if (event.collection !== "agents") return;
    for (const [id, agent] of event.current) {
      const before = lastStatus.get(id) ?? event.previous.get(id)?.status;
      lastStatus.set(id, agent.status);
      // Only a decision on an application is mailed: a suspension is staff's moderation, not an answer to one.
      if (before !== "pending" || (agent.status !== "approved" && agent.status !== "rejected")) continue;
      claimAndSend(agent);
    }
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

  return { stop: store.onRefresh(onRefresh) };
}

function wasMailed(agent: Agent): boolean {
  return (agent.decisionsMailed ?? []).includes(agent.status);
}

function decisionMail(agent: Agent, config: Deps["config"]): Mail {
  return agent.status === "approved"
    ? approvalMail(agent, publicUrl(config, "/member-login"))
    : rejectionMail(agent, config.supportEmail, publicUrl(config, "/contact"));
}
