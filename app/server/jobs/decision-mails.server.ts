import { CLAIM_KEYS } from "~/domain/claim-keys";
import type { Agent, AgentStatus } from "~/domain/workbook/tabs";
import { approvalMail, rejectionMail } from "../mail/account-mail.server";
import type { Mail } from "../mail/mailer.server";
import type { Config } from "../config.server";
import type { Notifier } from "../notifier/notifier.server";
import type { BackgroundJob, RowChange, Store } from "../store/store.server";
import { publicUrl } from "../accounts/urls.server";
import { refreshJob } from "./registry.server";
import { inviteApprovedToTheirRequest } from "../outreach/outreach-approvals.server";

type Deps = {
  store: Store;
  notifier: Pick<Notifier, "enqueue">;
  config: Pick<Config, "appUrl" | "port" | "supportEmail">;
  /** What inviting an approved agent who joined through a request's invitation to that request takes (docs/decisions/0083); without it, nobody is. */
  outreach?: Parameters<typeof inviteApprovedToTheirRequest>[0];
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
 * a claim row staff deleted cannot make a second mail. A decision this instance did not
 * mail stays in hand until the stamp shows it mailed (by whichever instance): its claim is
 * tried again after each refresh, so a claim row staff deleted before it was read back does
 * not lose the mail, while a key another instance holds costs no call. Decisions made while
 * no instance is running are not mailed: the replica's first read is its starting point.
 */
export function watchAgentDecisions({ store, notifier, config, outreach, log = console }: Deps): BackgroundJob {
  /** Decisions seen and not yet stamped as mailed, by agent id: tried again at each run. */
  const unmailed = new Map<string, AgentStatus>();
  /** Agents whose mail is queued now: not queued twice. */
  const queued = new Set<string>();

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

  /** The decisions still to mail: those mailed since (here or elsewhere), taken back, or whose agent is gone are dropped. */
  function stillUnmailed(): Agent[] {
    return [...unmailed].flatMap(([id, status]) => {
      const agent = store.agents.get(id);
      if (agent && agent.status === status && !wasMailed(agent)) return [agent];
      unmailed.delete(id);
      return [];
    });
  }

  function claimAndSend(agent: Agent): void {
    if (queued.has(agent.id)) return;
    queued.add(agent.id);
    const about = `the ${agent.status} mail to ${agent.email} (agent ${agent.id}; if it is not sent, tell them by hand)`;
    const sent = notifier.enqueue(
      { mail: decisionMail(agent, config), about },
      { once: CLAIM_KEYS.decision.key(agent.id, agent.status), confirm: () => stampRow(agent) },
    );
    void sent.outcome.then((outcome) => {
      queued.delete(agent.id);
      if (outcome === "sent") log.info(`Accounts: ${agent.status} mail sent to agent ${agent.id}`);
      // Taken: another instance holds the claim (its stamp drops the decision), or the claim row was deleted (tried again).
      // Failed or stopped: recorded under the claim, and not tried again (docs/decisions/0029).
      if (outcome !== "taken") unmailed.delete(agent.id);
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

  async function inviteThoseWhoJoinedForARequest(services: NonNullable<Deps["outreach"]>, decisions: readonly Agent[]): Promise<void> {
    for (const agent of decisions.filter((each) => each.status === "approved" && each.invitedBy))
      await inviteApprovedToTheirRequest(services, agent, new Date()).catch((error: unknown) =>
        log.error(`Outreach: agent ${agent.id} not invited to the request they joined for`, error),
      );
  }

  return store.addJob({
    ...refreshJob("decisionMails"),
    async run(event) {
      const decisions = decided(event.agents.changed);
      for (const agent of decisions) if (!wasMailed(agent)) unmailed.set(agent.id, agent.status);
      stillUnmailed().forEach(claimAndSend);
      if (outreach) await inviteThoseWhoJoinedForARequest(outreach, decisions);
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
