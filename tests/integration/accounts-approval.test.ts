import Database from "better-sqlite3";
import type { AppLoadContext } from "@remix-run/node";
import { describe, expect, it } from "vitest";
import { runStaffCommand } from "../../scripts/lib/staff-command";
import { loadConfig } from "../../app/server/config.server";
import { createStoreFromConfig, sqliteStorePath, type Store } from "../../app/server/store/store.server";
import { insertAgent, testContext, sentMails } from "../support/services";
import { editAgentRow } from "./accounts-support";

function outbox(context: AppLoadContext) {
  return sentMails(context.services);
}

/** Mails are sent in the background of a refresh: wait until the outbox holds `count`. */
async function mailsWhen(context: AppLoadContext, count: number) {
  for (let i = 0; i < 50; i += 1) {
    const mails = await outbox(context);
    if (mails.length >= count) return mails;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return outbox(context);
}

/** What the staff command sees: its own store on the same SQLite file, as a separate process would have. */
async function staffStore(context: AppLoadContext): Promise<Store> {
  const store = createStoreFromConfig(loadConfig({ NODE_ENV: "test", DATA_DIR: context.services.config.dataDir }));
  await store.refresh();
  return store;
}

async function appWithPendingAgent(fields: Parameters<typeof insertAgent>[1] = {}) {
  const context = testContext({}, { APP_URL: "https://referrals.example" });
  await context.services.store.refresh();
  const agent = await insertAgent(context, { status: "pending", fullName: "Dana Reyes", password: "a secret password", ...fields });
  return { context, agent };
}

describe("staff decisions", () => {
  it("mail the agent once when a row goes from pending to approved", async () => {
    const { context, agent } = await appWithPendingAgent();
    await editAgentRow(context, agent.id, { status: "approved" });
    const mails = await mailsWhen(context, 1);
    expect(mails).toHaveLength(1);
    expect(mails[0]).toMatchObject({ to: agent.email, subject: "Your Red River Referrals account is approved" });
    expect(mails[0]?.text).toContain("https://referrals.example/member-login");
    expect(mails[0]?.text).not.toContain("a secret password");

    // Later refreshes, another edit of the row, and the row briefly unreadable (a typo in the status) do not mail again.
    await editAgentRow(context, agent.id, { city: "Fort Worth" });
    await editAgentRow(context, agent.id, { status: "approved?" });
    await editAgentRow(context, agent.id, { status: "approved" });
    await context.services.store.refresh();
    expect(await mailsWhen(context, 2)).toHaveLength(1);
  });

  it("mail once though staff delete the claim rows, across two instances and a decision made again", async () => {
    const { context, agent } = await appWithPendingAgent();
    const other = testContext({}, { APP_URL: "https://referrals.example", DATA_DIR: context.services.config.dataDir });
    await other.services.store.refresh();
    const deleteClaims = () => {
      const db = new Database(sqliteStorePath(context.services.config));
      try {
        db.prepare(`DELETE FROM "SendClaims"`).run();
      } finally {
        db.close();
      }
    };

    await editAgentRow(context, agent.id, { status: "approved" });
    expect(await mailsWhen(context, 1)).toHaveLength(1);
    await expect.poll(() => context.services.store.agents.get(agent.id)?.decisionsMailed).toEqual(["approved"]);
    deleteClaims();
    // The other instance sees the approval only now, after the claim rows are gone.
    await other.services.store.refresh();
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(await outbox(context)).toHaveLength(1);

    deleteClaims();
    await editAgentRow(context, agent.id, { status: "pending" });
    await editAgentRow(context, agent.id, { status: "approved" });
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(await outbox(context)).toHaveLength(1);
    await other.services.store.stop();
  });

  it("mail the staff note when a row is rejected", async () => {
    const { context, agent } = await appWithPendingAgent();
    await editAgentRow(context, agent.id, { status: "Rejected", statusNote: "License number not found in TREC" });
    const [mail] = await mailsWhen(context, 1);
    expect(mail?.to).toBe(agent.email);
    expect(mail?.text).toContain("License number not found in TREC");
    expect(mail?.text).toContain("support@example.test");
  });

  it("do not mail for agents registered already approved or changes among other statuses", async () => {
    const { context } = await appWithPendingAgent();
    const approved = await insertAgent(context, { status: "approved" });
    await editAgentRow(context, approved.id, { status: "rejected" });
    await editAgentRow(context, approved.id, { status: "approved" });
    expect(await mailsWhen(context, 1)).toHaveLength(0);
  });

  it("made with the staff command reach the running app, which mails once", async () => {
    const { context, agent } = await appWithPendingAgent();
    const staff = await staffStore(context);
    try {
      expect(await runStaffCommand(staff, ["list", "--status", "pending"], 10)).toEqual([expect.stringContaining(agent.email)]);
      expect(await runStaffCommand(staff, ["reject", agent.email.toUpperCase(), "--note", "Expired license"], 10)).toEqual([
        `${agent.email}: pending → rejected.`,
        "The running app mails the agent on its next store refresh (every 10 s).",
      ]);
      expect(await runStaffCommand(staff, ["reject", agent.email, "--note", "Expired license"], 10)).toEqual([
        `${agent.email} is already rejected; nothing changed.`,
      ]);
    } finally {
      await staff.stop();
    }
    await context.services.store.refresh();
    const mails = await mailsWhen(context, 1);
    expect(mails).toHaveLength(1);
    expect(mails[0]?.text).toContain("Expired license");
    expect(context.services.store.agents.get(agent.id)).toMatchObject({ status: "rejected", statusNote: "Expired license" });
  });

  it("refuse unclear staff commands with a usage line", async () => {
    const { context, agent } = await appWithPendingAgent();
    const staff = await staffStore(context);
    try {
      await expect(runStaffCommand(staff, ["approve"], 10)).rejects.toThrow(/Usage/);
      await expect(runStaffCommand(staff, ["reject", agent.email], 10)).rejects.toThrow(/needs --note/);
      await expect(runStaffCommand(staff, ["approve", "nobody@example.com"], 10)).rejects.toThrow(/No agent has the email/);
      await expect(runStaffCommand(staff, ["list", "--status", "maybe"], 10)).rejects.toThrow(/--status must be one of/);
      expect(await runStaffCommand(staff, ["approve", agent.email], 10)).toContain(`${agent.email}: pending → approved.`);
    } finally {
      await staff.stop();
    }
  });
});
