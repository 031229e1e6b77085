/**
 * GOOGLE_APPLICATION_CREDENTIALS: the key file's `token_uri` is honoured as the inline key's
 * is (google-auth-library itself always posts to Google's token URL), so the key-file
 * sign-in path runs against the fake's token endpoint.
 */
import { generateKeyPairSync } from "node:crypto";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import { loadConfig } from "../../app/server/config.server";
import { createStoreFromConfig, newId } from "../../app/server/store/store.server";
import { startFakeSheets, type FakeSheetsServer } from "../../scripts/lib/fake-sheets/server";

const clientEmail = "referrals@red-river.iam.gserviceaccount.com";
const keys = generateKeyPairSync("rsa", { modulusLength: 2048 });

let fake: FakeSheetsServer;

beforeAll(async () => {
  fake = await startFakeSheets({ port: 0, serviceAccount: { clientEmail, publicKey: keys.publicKey } });
});
afterAll(async () => {
  await fake.close();
});

it("signs in with the key file's token_uri, then reads and writes the workbook", async () => {
  const directory = mkdtempSync(path.join(tmpdir(), "key-file-"));
  const keyFile = path.join(directory, "service-account.json");
  writeFileSync(
    keyFile,
    JSON.stringify({
      type: "service_account",
      project_id: "red-river",
      private_key_id: "0123456789abcdef",
      private_key: keys.privateKey.export({ type: "pkcs8", format: "pem" }),
      client_email: clientEmail,
      token_uri: new URL("token", fake.url).href,
    }),
  );
  const spreadsheetId = `key-file-${newId()}`;
  const book = fake.spreadsheet(spreadsheetId);
  const store = createStoreFromConfig(
    loadConfig({
      DATA_DIR: directory,
      GOOGLE_SHEETS_ID: spreadsheetId,
      GOOGLE_SHEETS_API_URL: fake.url,
      GOOGLE_APPLICATION_CREDENTIALS: keyFile,
    }),
  );
  const issued = fake.tokensIssued();
  try {
    await store.refresh();
    expect(store.health().lastError).toBeNull();
    await store.conversationMembers.insert({
      id: "c1/dana@example.com",
      conversationId: "c1",
      agentEmail: "dana@example.com",
      lastReadAt: "2026-11-23T00:00:00.000Z",
    });
    expect(book.rows("ConversationMembers")[1]?.[0]).toBe("c1/dana@example.com");
    expect(fake.tokensIssued()).toBeGreaterThan(issued);
  } finally {
    await store.stop();
  }
});
