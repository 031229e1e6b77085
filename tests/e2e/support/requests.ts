import { randomUUID } from "node:crypto";
import { REQUESTS_TAB, type Agent, type ReferralRequest } from "../../../app/domain/workbook/tabs";
import { requestRecord } from "../../support/records";
import { insertRows, withStoreFile } from "./store-file";

/** A word no other test uses: tests share one server, so each finds its own rows by it. */
export function uniqueToken(): string {
  return `zq${randomUUID().replace(/-/g, "").slice(0, 10)}`;
}

const HOUR_MS = 60 * 60 * 1000;

/** A request row as the app writes it; `hoursAgo` sets its creation and expiry. */
export function testRequest(owner: Agent, fields: Partial<ReferralRequest> & { hoursAgo?: number } = {}): ReferralRequest {
  const { hoursAgo = 2, ...rest } = fields;
  return requestRecord(owner, { createdAt: new Date(Date.now() - hoursAgo * HOUR_MS).toISOString(), ...rest });
}

/** Writes request rows straight into the e2e server's store; it sees them on its next refresh (every quarter second). */
export function seedRequests(requests: readonly ReferralRequest[]): void {
  insertRows(REQUESTS_TAB, requests);
}

/** A request row as stored now, read from the file, not the app. */
export function storedRequest(id: string): Record<string, string> | undefined {
  return withStoreFile(
    (db) => db.prepare(`SELECT * FROM "${REQUESTS_TAB.name}" WHERE id = ?`).get(id) as Record<string, string> | undefined,
  );
}

/**
 * Live requests by type and approved agents, counted in the file the way the dashboard's
 * tiles count them: requests of agents staff suspended are not live for anyone.
 */
export function storedTileCounts(now = Date.now()): { referral: number; listing: number; buyer: number; agents: number } {
  return withStoreFile((db) => {
    const rows = db.prepare(`SELECT requestType, status, expiresAt, agentEmail FROM "${REQUESTS_TAB.name}"`).all() as Record<
      string,
      string
    >[];
    const suspended = new Set(
      (
        db.prepare(`SELECT lower(trim(email)) AS email FROM "Agents" WHERE lower(trim(status)) = 'suspended'`).all() as { email: string }[]
      ).map((agent) => agent.email),
    );
    const counts = { referral: 0, listing: 0, buyer: 0 };
    for (const row of rows) {
      const type = (row.requestType ?? "").trim().toLowerCase() as keyof typeof counts;
      const active = (row.status ?? "").trim().toLowerCase() === "active";
      const bySuspended = suspended.has((row.agentEmail ?? "").trim().toLowerCase());
      if (active && !bySuspended && type in counts && Date.parse(row.expiresAt ?? "") > now) counts[type] += 1;
    }
    const agents = (db.prepare(`SELECT COUNT(*) AS n FROM "Agents" WHERE lower(trim(status)) = 'approved'`).get() as { n: number }).n;
    return { ...counts, agents };
  });
}
