/**
 * Two app instances receive the same Inbound Parse post at the same moment (the provider's
 * retry racing its first post, or two webhook deliveries behind a load balancer): one message
 * is stored, on SQLite (one file), on Google Sheets (the fake server) and with the messages in
 * PostgreSQL (a real server), and a later resend to either stores nothing.
 */
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { conversationIdFor } from "../../app/domain/conversation";
import { action } from "../../app/routes/mail.inbound";
import { loadConfig } from "../../app/server/config.server";
import { replyAddressFor } from "../../app/server/mail/reply-address.server";
import { createServices, stopServices } from "../../app/server/service-lifecycle.server";
import type { Services } from "../../app/server/services.server";
import { newId } from "../../app/server/store/store.server";
import { basicAuth, parsedPost } from "../mocks/sendgrid-inbound";
import { useFakeSheets } from "../support/fake-sheets";
import { usePostgres } from "../support/postgres";
import { agentRecord } from "../support/records";

const { fake } = useFakeSheets();
const postgres = usePostgres();
const running: Services[] = [];
afterEach(async () => {
  await Promise.all(running.splice(0).map((services) => stopServices(services)));
});

const SECRET = "inbound-secret-0123456789abcdef";
const drivers = ["sqlite", "sheets", "postgres"] as const;

async function twoInstances(driver: (typeof drivers)[number]) {
  const dataDir = mkdtempSync(path.join(tmpdir(), "reply-across-"));
  const spreadsheetId = `reply-across-${newId()}`;
  if (driver !== "sqlite") fake.spreadsheet(spreadsheetId);
  const sheets =
    driver === "sqlite" ? {} : { GOOGLE_SHEETS_ID: spreadsheetId, GOOGLE_SHEETS_API_URL: fake.url, SHEETS_WRITE_CALLS_PER_MINUTE: "300" };
  const database = driver === "postgres" ? { DATABASE_URL: await postgres.server().createDatabase() } : {};
  const config = loadConfig({
    NODE_ENV: "test",
    DATA_DIR: dataDir,
    SUPPORT_EMAIL: "support@example.test",
    INBOUND_DOMAIN: "reply.example.test",
    INBOUND_SECRET: SECRET,
    ...sheets,
    ...database,
  });
  const all = [createServices(config), createServices(config)] as const;
  running.push(...all);
  await all[0].store.refresh();
  await all[1].store.refresh();
  return all;
}

function postTo(services: Services, inbound: ReturnType<typeof parsedPost>): Promise<Response> {
  const request = new Request("http://localhost/mail/inbound", {
    method: "POST",
    body: new Uint8Array(inbound.body),
    headers: { "Content-Type": inbound.contentType, Authorization: basicAuth(SECRET) },
  });
  return action({ request, context: { services, nonce: "" }, params: {} }) as Promise<Response>;
}

describe.each(drivers)("two instances on %s", { timeout: 60_000 }, (driver) => {
  it("store one message when both receive the same reply at once, and nothing when it comes again", async () => {
    const all = await twoInstances(driver);
    const maria = await all[0].store.agents.insert(agentRecord({ fullName: "Maria Delgado", email: "maria@example.com" }));
    const james = await all[0].store.agents.insert(agentRecord({ fullName: "James Whitfield", email: "james@example.com" }));
    await all[1].store.refresh();
    const mail = parsedPost({
      from: james.email,
      to: replyAddressFor(all[0].config, james, maria)!,
      text: "Yes, Thursday works.",
      messageId: "<both-at-once@mail.example.test>",
    });
    const answers = await Promise.all(all.map((services) => postTo(services, mail)));
    expect(answers.map((answer) => answer.status)).toEqual([200, 200]);
    expect((await Promise.all(answers.map((answer) => answer.text()))).sort()).toEqual(["Not stored: duplicate.", "Stored."]);

    await Promise.all(all.map((services) => services.store.refresh()));
    expect(await (await postTo(all[1], mail)).text()).toBe("Not stored: duplicate.");
    const stored = (await all[0].store.messages.readStored()).filter(
      (message) => message.conversationId === conversationIdFor(maria.id, james.id),
    );
    expect(stored.map((message) => [message.fromEmail, message.text, message.via])).toEqual([
      [james.email, "Yes, Thursday works.", "email"],
    ]);
  });
});
