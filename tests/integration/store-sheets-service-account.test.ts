/** The service account sign-in path: a key with `token_uri` on the fake, JWT assertion checked, bearer token required. */
import { generateKeyPairSync, sign, type KeyObject } from "node:crypto";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadConfig } from "../../app/server/config.server";
import { createStoreFromConfig, newId, type Store } from "../../app/server/store/store.server";
import { startFakeSheets, type FakeSheetsServer } from "../../scripts/lib/fake-sheets/server";
import { agentRecord } from "../support/records";

const clientEmail = "referrals@red-river.iam.gserviceaccount.com";
const keys = generateKeyPairSync("rsa", { modulusLength: 2048 });
const stranger = generateKeyPairSync("rsa", { modulusLength: 2048 });

let fake: FakeSheetsServer;

beforeAll(async () => {
  fake = await startFakeSheets({ port: 0, serviceAccount: { clientEmail, publicKey: keys.publicKey } });
});
afterAll(async () => {
  await fake.close();
});

/** A service account key file's JSON, as Google's console gives it, with the token URI pointing at the fake. */
function keyJson(privateKey: KeyObject): string {
  return JSON.stringify({
    type: "service_account",
    project_id: "red-river",
    private_key_id: "0123456789abcdef",
    private_key: privateKey.export({ type: "pkcs8", format: "pem" }),
    client_email: clientEmail,
    token_uri: new URL("token", fake.url).href,
  });
}

/** The store exactly as the app builds it from its environment. */
function storeFromEnvironment(privateKey: KeyObject, spreadsheetId: string): Store {
  const config = loadConfig({
    DATA_DIR: mkdtempSync(path.join(tmpdir(), "service-account-")),
    GOOGLE_SHEETS_ID: spreadsheetId,
    GOOGLE_SHEETS_API_URL: fake.url,
    GOOGLE_SERVICE_ACCOUNT_JSON: keyJson(privateKey),
  });
  return createStoreFromConfig(config);
}

describe("Sheets store signed in as a service account", () => {
  it("gets a token from the key's token_uri, then reads and writes the workbook with it", async () => {
    const spreadsheetId = `sa-${newId()}`;
    const book = fake.spreadsheet(spreadsheetId);
    const store = storeFromEnvironment(keys.privateKey, spreadsheetId);
    try {
      await store.refresh();
      expect(store.health().lastError).toBeNull();
      const dana = await store.agents.insert(agentRecord({ city: "Dallas" }));
      await store.agents.update(dana.id, { city: "Austin" });
      expect(book.cell("Agents", dana.id, "city")).toBe("Austin");
      expect(fake.tokensIssued()).toBeGreaterThanOrEqual(1);
    } finally {
      await store.stop();
    }
  });

  it("refuses an assertion signed by another key, and a request without a token it gave", async () => {
    const spreadsheetId = `sa-${newId()}`;
    fake.spreadsheet(spreadsheetId);
    const before = fake.tokensIssued();
    const store = storeFromEnvironment(stranger.privateKey, spreadsheetId);
    try {
      await expect(store.refresh()).rejects.toThrow();
      expect(fake.tokensIssued()).toBe(before);
    } finally {
      await store.stop();
    }

    const unsigned = await fetch(new URL(`v4/spreadsheets/${spreadsheetId}`, fake.url), { headers: { authorization: "Bearer made-up" } });
    expect(unsigned.status).toBe(401);
    expect(await unsigned.json()).toMatchObject({ error: { code: 401, status: "UNAUTHENTICATED" } });
  });

  it("checks the assertion's grant type, audience, scope and expiry as Google does", async () => {
    const token = (form: Record<string, string>) => fetch(new URL("token", fake.url), { method: "POST", body: new URLSearchParams(form) });
    const now = Math.floor(Date.now() / 1000);
    const assertion = (claims: Record<string, unknown>) => {
      const part = (value: unknown) => Buffer.from(JSON.stringify(value)).toString("base64url");
      const signed = `${part({ alg: "RS256", typ: "JWT" })}.${part(claims)}`;
      return `${signed}.${sign("RSA-SHA256", Buffer.from(signed), keys.privateKey).toString("base64url")}`;
    };
    const good = {
      iss: clientEmail,
      aud: "https://oauth2.googleapis.com/token",
      scope: "https://www.googleapis.com/auth/spreadsheets",
      iat: now,
      exp: now + 3600,
    };
    const grant = "urn:ietf:params:oauth:grant-type:jwt-bearer";

    const ok = await token({ grant_type: grant, assertion: assertion(good) });
    expect(ok.status).toBe(200);
    expect(await ok.json()).toMatchObject({ access_token: expect.any(String), expires_in: 3599, token_type: "Bearer" });

    for (const [form, error] of [
      [{ grant_type: "client_credentials", assertion: assertion(good) }, "unsupported_grant_type"],
      [{ grant_type: grant, assertion: assertion({ ...good, aud: "https://elsewhere.example/token" }) }, "invalid_grant"],
      [{ grant_type: grant, assertion: assertion({ ...good, iss: "someone@else.iam.gserviceaccount.com" }) }, "invalid_grant"],
      [{ grant_type: grant, assertion: assertion({ ...good, scope: "https://www.googleapis.com/auth/drive" }) }, "invalid_scope"],
      [{ grant_type: grant, assertion: assertion({ ...good, iat: now - 7200, exp: now - 3600 }) }, "invalid_grant"],
    ] as const) {
      const refused = await token(form);
      expect(refused.status).toBe(400);
      expect(await refused.json()).toMatchObject({ error });
    }
  });
});
