/**
 * The suppression list: an address on it is final, a second request adds no row, and the
 * "don't invite me again" link names the address only when genuine.
 */
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it, vi } from "vitest";
import { loadConfig } from "../../app/server/config.server";
import {
  createStopInvitingToken,
  invitationsAvailable,
  readStopInvitingToken,
  withStopInviting,
} from "../../app/server/outreach/stop-inviting.server";
import { isAddressSuppressed, suppressAddress } from "../../app/server/outreach/suppression.server";
import { createServices, stopServices } from "../../app/server/service-lifecycle.server";
import type { Services } from "../../app/server/services.server";
import { newId, StoreWriteError, type Store } from "../../app/server/store/store.server";
import { useFakeSheets } from "../support/fake-sheets";
import { usePostgres } from "../support/postgres";
import { testContext } from "../support/services";

const { fake } = useFakeSheets();
const postgres = usePostgres();
const opened: Store[] = [];
const running: Services[] = [];
afterEach(async () => {
  vi.restoreAllMocks();
  await Promise.all(opened.splice(0).map((store) => store.stop()));
  await Promise.all(running.splice(0).map((services) => stopServices(services)));
});

async function services() {
  const context = testContext();
  opened.push(context.services.store);
  await context.services.store.refresh();
  return context.services;
}

describe("the suppression list", () => {
  it("lists an address once however often it is suppressed, whatever its case", async () => {
    const svc = await services();
    const now = new Date("2026-11-29T10:00:00Z");
    expect(isAddressSuppressed(svc, "Dana@Example.com")).toBe(false);
    await Promise.all([
      suppressAddress(svc, { email: "Dana@Example.com", reason: "asked", note: "", now }),
      suppressAddress(svc, { email: "dana@example.com", reason: "bounce", note: "provider", now }),
    ]);
    expect(isAddressSuppressed(svc, "dana@example.COM")).toBe(true);
    const rows = await svc.store.suppressions.readStored();
    expect(rows.map((row) => [row.email, row.reason])).toEqual([["dana@example.com", "asked"]]);
  });
});

const drivers = ["sqlite", "sheets", "postgres"] as const;

/** Two instances on one new workbook of the driver (SendClaims in PostgreSQL for `postgres`). */
async function twoInstances(driver: (typeof drivers)[number]) {
  const dataDir = mkdtempSync(path.join(tmpdir(), "suppression-"));
  const spreadsheetId = `suppression-${newId()}`;
  if (driver === "sheets") fake.spreadsheet(spreadsheetId);
  const sheets =
    driver === "sheets" ? { GOOGLE_SHEETS_ID: spreadsheetId, GOOGLE_SHEETS_API_URL: fake.url, SHEETS_WRITE_CALLS_PER_MINUTE: "300" } : {};
  const database = driver === "postgres" ? { DATABASE_URL: await postgres.server().createDatabase() } : {};
  const config = loadConfig({ NODE_ENV: "test", DATA_DIR: dataDir, ...sheets, ...database });
  const all = [createServices(config), createServices(config)] as const;
  running.push(...all);
  await all[0].store.refresh();
  await all[1].store.refresh();
  return all;
}

const stored = async (services: Services) => (await services.store.suppressions.readStored()).map((row) => `${row.email}:${row.reason}`);

describe.each(drivers)("two instances on %s", { timeout: 60_000 }, (driver) => {
  it("list an address asked of both at the same moment once", async () => {
    const all = await twoInstances(driver);
    const now = new Date();
    const outcomes = await Promise.all([
      suppressAddress(all[0], { email: "dana@example.com", reason: "asked", note: "", now }),
      suppressAddress(all[1], { email: "Dana@example.com", reason: "bounce", note: "", now }),
    ]);
    expect(await stored(all[0])).toHaveLength(1);
    expect(outcomes.sort()).toEqual(["added", "listed"]);
  });

  it("list it once when the second instance has not yet read the first one's row", async () => {
    const all = await twoInstances(driver);
    const now = new Date();
    const first = await suppressAddress(all[0], { email: "dana@example.com", reason: "asked", note: "", now });
    expect(isAddressSuppressed(all[1], "dana@example.com")).toBe(false);
    const second = await suppressAddress(all[1], { email: "dana@example.com", reason: "complaint", note: "", now });
    expect(await stored(all[1])).toEqual(["dana@example.com:asked"]);
    expect([first, second]).toEqual(["added", "listed"]);
  });

  it("list it on the other instance when the one that claimed it could not store the row", async () => {
    const all = await twoInstances(driver);
    vi.spyOn(all[0].store.suppressions, "insertOnce").mockRejectedValue(
      new StoreWriteError("Suppressions", { cause: new Error("quota exceeded") }),
    );
    const now = new Date();
    await expect(suppressAddress(all[0], { email: "dana@example.com", reason: "asked", note: "", now })).rejects.toThrow(StoreWriteError);
    expect(await stored(all[0])).toEqual([]);
    expect(await suppressAddress(all[1], { email: "dana@example.com", reason: "bounce", note: "", now })).toBe("added");
    expect(await stored(all[1])).toEqual(["dana@example.com:bounce"]);
  });
});

describe("the don't-invite-me-again link", () => {
  const secrets = ["first-secret-long-enough-for-tests"];

  it("names the address it was made for, and nothing when altered or signed with another secret", () => {
    const token = createStopInvitingToken(secrets, "Dana@Example.com");
    expect(readStopInvitingToken(secrets, token)).toBe("dana@example.com");
    expect(readStopInvitingToken(["another-secret-entirely"], token)).toBeUndefined();
    const [, signature] = token.split(".");
    const forged = `${Buffer.from("eve@example.com").toString("base64url")}.${signature}`;
    expect(readStopInvitingToken(secrets, forged)).toBeUndefined();
    expect(readStopInvitingToken(secrets, 42)).toBeUndefined();
  });

  it("goes into the mail's footer and its RFC 8058 headers, with the operator's postal address", () => {
    const mail = withStopInviting(
      { to: "dana@example.com", subject: "Hello", text: "Body", html: "<p>Body</p>" },
      {
        config: {
          sessionSecrets: secrets,
          appUrl: "https://example.org",
          port: 3000,
          postalAddress: "100 Main St <Suite 4>, Dallas, TX 75201",
        },
        email: "dana@example.com",
        reason: "Ann <Archer> invited you",
      },
    );
    const link = /Don't invite me again: (\S+)/.exec(mail.text)?.[1];
    expect(link).toMatch(/^https:\/\/example\.org\/stop-invitations\?token=/);
    expect(readStopInvitingToken(secrets, new URL(link!).searchParams.get("token"))).toBe("dana@example.com");
    expect(mail.headers).toMatchObject({ "List-Unsubscribe": `<${link}>`, "List-Unsubscribe-Post": "List-Unsubscribe=One-Click" });
    expect(mail.html).toContain("Ann &lt;Archer&gt; invited you");
    expect(mail.text).toContain("\nRed River Referrals, 100 Main St <Suite 4>, Dallas, TX 75201");
    expect(mail.html).toContain("Red River Referrals, 100 Main St &lt;Suite 4&gt;, Dallas, TX 75201");
  });

  it("is offered only where the postal address is set, or outside production", () => {
    expect(invitationsAvailable({ isProduction: true, postalAddress: undefined })).toBe(false);
    expect(invitationsAvailable({ isProduction: true, postalAddress: "PO Box 12, Dallas, TX 75201" })).toBe(true);
    expect(invitationsAvailable({ isProduction: false, postalAddress: undefined })).toBe(true);
  });
});
