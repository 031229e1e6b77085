import { randomUUID } from "node:crypto";
import path from "node:path";
import { expect, type APIRequestContext, type Page } from "@playwright/test";
import Database from "better-sqlite3";
import { REQUESTS_TAB, serialiseRecord, type Agent, type ReferralRequest } from "../../../app/domain/workbook";
import { quickPasswordHash, seedAgents } from "./agents";
import { agentRecord, requestRecord } from "../../support/records";
import { e2eDataDir, e2eHealthHeaders } from "./env";

export const MEMBER_PASSWORD = "referral-e2e-password";

/** A word no other test uses: tests share one server, so each finds its own rows by it. */
export function uniqueToken(): string {
  return `zq${randomUUID().replace(/-/g, "").slice(0, 10)}`;
}

function storeFile(): Database.Database {
  const db = new Database(path.join(e2eDataDir, "store.sqlite"));
  db.pragma("busy_timeout = 10000");
  return db;
}

/** Seeds approved agents with fresh e-mails and the shared test password. */
export function seedMembers(...people: Array<Partial<Agent> & Pick<Agent, "fullName">>): Agent[] {
  const passwordHash = quickPasswordHash(MEMBER_PASSWORD);
  const agents = people.map((person) => {
    const suffix = randomUUID().slice(0, 8);
    return agentRecord({ id: randomUUID(), email: `${person.fullName.split(" ")[0]!.toLowerCase()}-${suffix}@example.com`, passwordHash, ...person });
  });
  seedAgents(agents);
  return agents;
}

const HOUR_MS = 60 * 60 * 1000;

/** A request row as the app writes it; `hoursAgo` sets its creation and expiry. */
export function testRequest(owner: Agent, fields: Partial<ReferralRequest> & { hoursAgo?: number } = {}): ReferralRequest {
  const { hoursAgo = 2, ...rest } = fields;
  return requestRecord(owner, { createdAt: new Date(Date.now() - hoursAgo * HOUR_MS).toISOString(), ...rest });
}

/** Writes request rows straight into the e2e server's store; it sees them on its next refresh (every second). */
export function seedRequests(requests: readonly ReferralRequest[]): void {
  const db = storeFile();
  try {
    const columns = REQUESTS_TAB.headers.map((header) => `"${header}"`).join(", ");
    const insert = db.prepare(`INSERT INTO "${REQUESTS_TAB.name}" (${columns}) VALUES (${REQUESTS_TAB.headers.map(() => "?").join(", ")})`);
    db.transaction(() => {
      for (const request of requests) {
        const cells = serialiseRecord(REQUESTS_TAB, request);
        insert.run(...REQUESTS_TAB.headers.map((header) => cells[header] ?? ""));
      }
    }).immediate();
  } finally {
    db.close();
  }
}

/** A request row as stored now, read from the file, not the app. */
export function storedRequest(id: string): Record<string, string> | undefined {
  const db = storeFile();
  try {
    return db.prepare(`SELECT * FROM "${REQUESTS_TAB.name}" WHERE id = ?`).get(id) as Record<string, string> | undefined;
  } finally {
    db.close();
  }
}

/** Live requests by type and approved agents, counted in the file the way the dashboard's tiles count them. */
export function storedTileCounts(now = Date.now()): { referral: number; listing: number; buyer: number; agents: number } {
  const db = storeFile();
  try {
    const rows = db.prepare(`SELECT requestType, status, expiresAt FROM "${REQUESTS_TAB.name}"`).all() as Record<string, string>[];
    const counts = { referral: 0, listing: 0, buyer: 0 };
    for (const row of rows) {
      const type = (row.requestType ?? "").trim().toLowerCase() as keyof typeof counts;
      const active = (row.status ?? "").trim().toLowerCase() === "active";
      if (active && type in counts && Date.parse(row.expiresAt ?? "") > now) counts[type] += 1;
    }
    const agents = (db.prepare(`SELECT COUNT(*) AS n FROM "Agents" WHERE lower(trim(status)) = 'approved'`).get() as { n: number }).n;
    return { ...counts, agents };
  } finally {
    db.close();
  }
}

/** Waits until the app's replica has re-read the store after `since` (ms), so seeded rows are visible. */
export async function waitForReplica(request: APIRequestContext, since = Date.now()): Promise<void> {
  await expect
    .poll(async () => {
      const health = (await (await request.get("/healthz", { headers: e2eHealthHeaders })).json()) as { store: { lastRefreshAt: string | null } };
      return Date.parse(health.store.lastRefreshAt ?? "") > since;
    })
    .toBe(true);
}

export async function logIn(page: Page, agent: Agent, then = "/member-dashboard"): Promise<void> {
  await page.goto(`/member-login?redirectTo=${encodeURIComponent(then)}`);
  await page.getByLabel("Email").fill(agent.email);
  await page.getByLabel("Password").fill(MEMBER_PASSWORD);
  await page.getByRole("button", { name: "Login" }).click();
  await page.waitForURL((url) => url.pathname === new URL(then, "http://x").pathname);
}
