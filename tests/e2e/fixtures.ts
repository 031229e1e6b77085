import { randomUUID } from "node:crypto";
import type { BrowserContext, Cookie, Page, ViewportSize } from "@playwright/test";
import type { Agent } from "../../app/domain/workbook/tabs";
import type { StoredMail } from "../../app/server/mail/mailer.server";
import { agentRecord } from "../support/records";
import { quickPasswordHash, seedAgents, waitForReplica } from "./support/agents";
import { e2eBaseUrl } from "./support/env";
import { outboxMails, waitForMail } from "./support/outbox";

import { expect, test as axeCheckedTest } from "./support/test";

export { expect };

/** The password of every agent `seedAgent` stores, unless the test gives another. */
export const MEMBER_PASSWORD = "referral-e2e-password";

type AgentSeed = Partial<Agent> & { password?: string };

type LoginOptions = {
  /** The password typed; the seeded agents' shared one unless given. */
  password?: string;
  /**
   * Where the login page is asked to send the member. Without it the login page the test's
   * page shows is used as it is (with the address a member page gave it), or else a plain
   * one, which leads to the dashboard.
   */
  then?: string;
  /** A page of another browser context (a second member's own browser); the test's page otherwise. */
  page?: Page;
};

export type Fixtures = {
  /**
   * Writes an approved agent (a fresh id and e-mail unless given) with a known password
   * into the store the server reads. The server sees it after `waitForReplica()`.
   */
  seedAgent(fields?: AgentSeed): Agent;
  /** Resolves once the server's replica (or the replica of the server at `baseUrl`) has re-read the store from scratch after the call. */
  waitForReplica(baseUrl?: string): Promise<void>;
  /**
   * Logs the member in and checks where it leads. A page already on the login page (sent
   * there by a member page) is filled in and sent, as a member would; otherwise the login
   * form's post goes from the page's browser (its cookies are the page's) and the page then
   * opens where the answer leads, which spares a test about something else the login page.
   */
  login(agent: Pick<Agent, "email">, options?: LoginOptions): Promise<void>;
  /**
   * A page in a browser of the agent's own (its own cookies), logged in (`login`) with the
   * seeded agents' password: for tests where two members act at once.
   */
  memberPage(agent: Pick<Agent, "email">, viewport?: ViewportSize): Promise<Page>;
  /** The mails the server has sent: all of them, or the first that matches (tests run in parallel: match on something unique). */
  outbox: { mails(): Promise<StoredMail[]>; waitFor(match: (mail: StoredMail) => boolean, timeoutMs?: number): Promise<StoredMail> };
  /**
   * Logs the test's page in as the worker's member (`workerMember`) by giving it the member's
   * session cookie: no seeding, no waiting for the replica, no login of its own.
   */
  asWorkerMember(): Promise<Agent>;
};

export type WorkerFixtures = {
  /**
   * An approved member seeded and logged in once per worker, with its session cookies: for
   * tests that only look at member pages as some member. A test that changes the member, its
   * profile or settings, depends on who it is, or logs out seeds a member of its own.
   */
  workerMember: { agent: Agent; cookies: Cookie[] };
};

/**
 * The e2e tests' `test`: the accessibility-checked one of support/test.ts, with the
 * fixtures every spec shares (the Epic Stack's tests/playwright-utils.ts is the model).
 */
export const test = axeCheckedTest.extend<Fixtures, WorkerFixtures>({
  seedAgent: async ({}, use) => {
    await use(({ password = MEMBER_PASSWORD, ...fields } = {}) => {
      const firstName = (fields.fullName ?? "Dana")
        .split(" ")[0]!
        .toLowerCase()
        .replace(/[^a-z0-9]/g, "");
      const agent = agentRecord({
        email: `${firstName}-${randomUUID().slice(0, 8)}@example.com`,
        passwordHash: quickPasswordHash(password),
        ...fields,
      });
      seedAgents([agent]);
      return agent;
    });
  },
  waitForReplica: async ({}, use) => {
    await use((baseUrl) => waitForReplica(baseUrl));
  },
  login: async ({ page: testPage }, use) => {
    await use(async (agent, { password = MEMBER_PASSWORD, then, page = testPage } = {}) => {
      // A page a member page sent to the login page stays there, keeping where it was asked to go back to.
      const onLoginPage = page.url().startsWith("http") && new URL(page.url()).pathname === "/member-login";
      if (then === undefined && onLoginPage) {
        await page.getByLabel("Email Address").fill(agent.email);
        await page.getByLabel("Password").fill(password);
        await page.getByRole("button", { name: "Login" }).click();
        // It leads back to that member page, which may send on to a canonical address: the test checks where it ends.
        await page.waitForURL((url) => url.pathname !== "/member-login");
        return;
      }
      const destination = then ?? "/member-dashboard";
      const answer = await page.request.post("/member-login", {
        form: { email: agent.email, password, ...(then === undefined ? {} : { redirectTo: then }) },
        headers: { Origin: e2eBaseUrl },
        maxRedirects: 0,
      });
      expect(answer.status(), `logging in as ${agent.email}`).toBe(302);
      const leadsTo = new URL(answer.headers()["location"] ?? "", e2eBaseUrl);
      expect(leadsTo.pathname, "where logging in leads").toBe(new URL(destination, "http://any").pathname);
      await page.goto(leadsTo.href);
      expect(new URL(page.url()).pathname, "where logging in leads").toBe(leadsTo.pathname);
    });
  },
  memberPage: async ({ browser, login, javaScriptEnabled }, use) => {
    const contexts: BrowserContext[] = [];
    await use(async (agent, viewport = { width: 1280, height: 900 }) => {
      const context = await browser.newContext({ baseURL: e2eBaseUrl, viewport, javaScriptEnabled });
      contexts.push(context);
      const page = await context.newPage();
      await login(agent, { page });
      return page;
    });
    for (const context of contexts) await context.close();
  },
  outbox: async ({}, use) => {
    await use({ mails: outboxMails, waitFor: waitForMail });
  },
  workerMember: [
    async ({ playwright }, use, workerInfo) => {
      const agent = agentRecord({
        fullName: "Wren Worker",
        email: `worker-${workerInfo.project.name}-${randomUUID().slice(0, 8)}@example.com`,
        passwordHash: quickPasswordHash(MEMBER_PASSWORD),
      });
      seedAgents([agent]);
      await waitForReplica();
      const request = await playwright.request.newContext({ baseURL: e2eBaseUrl });
      const answer = await request.post("/member-login", {
        form: { email: agent.email, password: MEMBER_PASSWORD },
        headers: { Origin: e2eBaseUrl },
        maxRedirects: 0,
      });
      if (answer.status() !== 302) throw new Error(`Logging the worker's member in answered ${answer.status()}`);
      const { cookies } = await request.storageState();
      await request.dispose();
      await use({ agent, cookies });
    },
    { scope: "worker" },
  ],
  asWorkerMember: async ({ context, workerMember }, use) => {
    await use(async () => {
      await context.addCookies(workerMember.cookies);
      return workerMember.agent;
    });
  },
});
