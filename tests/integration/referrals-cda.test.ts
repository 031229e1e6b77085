import type { AppLoadContext } from "@remix-run/node";
import { beforeEach, describe, expect, it } from "vitest";
import { CDA_REFUSALS } from "../../app/domain/referrals/cda";
import type { Agent, Referral } from "../../app/domain/workbook/tabs";
import { loader as cdaPdfLoader } from "../../app/routes/referrals.$id.cda[.]pdf";
import { action as referralAction, loader as referralLoader } from "../../app/routes/referrals.$id._index/route";
import { pdfText } from "../support/pdf-text";
import { referralRecord } from "../support/records";
import { insertAgent, sentMails, testContext } from "../support/services";
import { get, outcome, post, sessionCookie, type Rejection } from "./requests-support";

/**
 * The commission disbursement authorization on SQLite: the receiving agent names the
 * title company from under contract; the CDA PDF goes to both brokers and both agents.
 */

let context: AppLoadContext;
let dana: Agent;
let maria: Agent;
let cookies: Record<"dana" | "maria", string>;

const CDA = { intent: "cda", titleCompany: "Alamo Title", titleEmail: "closer@alamotitle.example", expectedCloseDate: "2027-02-15" };

beforeEach(async () => {
  context = testContext();
  dana = await insertAgent(context, { fullName: "Dana Reyes", email: "dana@example.com", brokerage: "Lone Star Realty LLC" });
  maria = await insertAgent(context, { fullName: "Maria Delgado", email: "maria@example.com", brokerage: "Sooner Homes" });
  cookies = { dana: await sessionCookie(context, dana), maria: await sessionCookie(context, maria) };
});

/** Dana refers Ana to Maria; the agreement is signed and in the status given. */
function insertReferral(fields: Partial<Referral> = {}): Promise<Referral> {
  return context.services.store.referrals.insert(
    referralRecord(dana, maria, {
      status: "under_contract",
      clientName: "Ana",
      referringBrokerLicense: "9001234",
      referringBrokerEmail: "office@lonestar.example",
      receivingBrokerLicense: "155",
      receivingBrokerEmail: "broker@soonerhomes.example",
      expectedCloseDate: "2027-02-01T12:00:00.000Z",
      ...fields,
    }),
  );
}

function act(who: keyof typeof cookies, id: string, fields: Record<string, string>) {
  return outcome(() => referralAction({ request: post(`/referrals/${id}`, cookies[who], fields), context, params: { id } }));
}

function stored(id: string): Referral {
  return context.services.store.referrals.get(id)!;
}

async function cdaMails() {
  return (await sentMails(context.services)).filter((mail) => mail.subject.startsWith("Commission disbursement authorization"));
}

describe("the receiving agent sends the CDA", () => {
  it("stores the title company and the closing, records it on the timeline, mails the PDF to both brokers and both agents, and lets the parties download it", async () => {
    const referral = await insertReferral();
    const page = (await referralLoader({
      request: get(`/referrals/${referral.id}`, cookies.maria),
      context,
      params: { id: referral.id },
    })) as {
      cda: { canSend: boolean; expectedCloseDate: string };
    };
    expect(page.cda).toMatchObject({ canSend: true, expectedCloseDate: "2027-02-01" });

    const answer = (await act("maria", referral.id, CDA)) as Response;
    expect(answer.status).toBe(302);
    const row = stored(referral.id);
    expect(row).toMatchObject({
      titleCompany: "Alamo Title",
      titleEmail: "closer@alamotitle.example",
      expectedCloseDate: "2027-02-15T12:00:00.000Z",
      status: "under_contract",
    });
    expect(row.cdaSentAt).toBeDefined();
    const events = context.services.store.referralEvents.by("referralId", referral.id);
    expect(events.map((event) => [event.step, event.byEmail])).toEqual([["cda", maria.email]]);
    expect(events[0]?.note).toContain("Alamo Title <closer@alamotitle.example>, expected closing 2027-02-15");

    const mails = await cdaMails();
    expect(mails.map((mail) => mail.to).sort()).toEqual(["broker@soonerhomes.example", dana.email, maria.email, "office@lonestar.example"]);
    expect(mails[0]?.text).toMatch(/Brokers see every referral of the agents they sponsor at http:\/\/[^/\s]+\/broker$/m);
    const attached = await pdfText(Buffer.from(mails[0]!.attachments![0]!.content, "base64"));
    expect(attached).toContain("Commission Disbursement Authorization");

    const download = (await cdaPdfLoader({
      request: get(`/referrals/${referral.id}/cda.pdf`, cookies.dana),
      context,
      params: { id: referral.id },
    })) as Response;
    expect(download.status).toBe(200);
    expect(download.headers.get("Content-Type")).toBe("application/pdf");
    const text = await pdfText(new Uint8Array(await download.arrayBuffer()));
    for (const expected of [
      "To the title company: Alamo Title <closer@alamotitle.example>",
      "client Ana. Expected closing: 2027-02-15.",
      "Pay to (referring broker): Lone Star Realty LLC, license 9001234",
      "Referring agent: Dana Reyes",
      "Paid from (receiving broker): Sooner Homes, license 155",
      "Receiving agent: Maria Delgado",
      "Referral fee: 25% of the receiving side's gross commission",
      "Receiving broker's signature:",
    ])
      expect(text).toContain(expected);
  });

  it("mails the same CDA once, and a changed one again", async () => {
    const referral = await insertReferral();
    expect(((await act("maria", referral.id, CDA)) as Response).status).toBe(302);
    expect(((await act("maria", referral.id, CDA)) as Response).status).toBe(302);
    expect(await cdaMails()).toHaveLength(4);
    expect(((await act("maria", referral.id, { ...CDA, titleCompany: "Lone Star Title" })) as Response).status).toBe(302);
    expect(await cdaMails()).toHaveLength(8);
    expect(stored(referral.id).titleCompany).toBe("Lone Star Title");
  });
});

describe("a CDA refused", () => {
  async function expectNothingChanged(referral: Referral) {
    expect(stored(referral.id)).toEqual(referral);
    expect(context.services.store.referralEvents.by("referralId", referral.id)).toEqual([]);
    expect(await cdaMails()).toEqual([]);
  }

  it("from the referring agent, with 403 and the input kept", async () => {
    const referral = await insertReferral();
    const refused = (await act("dana", referral.id, CDA)) as Rejection;
    expect(refused.init?.status).toBe(403);
    expect(refused.data.error?.[""]).toEqual([CDA_REFUSALS.wrongParty]);
    expect(refused.data.initialValue).toMatchObject({ titleCompany: "Alamo Title", titleEmail: "closer@alamotitle.example" });
    await expectNothingChanged(referral);
  });

  it("before under contract and once the fee is paid, with 400", async () => {
    for (const status of ["signed", "fee_paid"] as const) {
      const referral = await insertReferral({ status });
      const refused = (await act("maria", referral.id, CDA)) as Rejection;
      expect(refused.init?.status).toBe(400);
      expect(refused.data.error?.[""]).toEqual([CDA_REFUSALS.wrongStatus]);
      await expectNothingChanged(referral);
    }
  });

  it("while the fee rests on an amount that looks mistyped, with 409, until staff correct it", async () => {
    // A date typed into the gross commission: the sheet keeps 12/1/2026 as 46357.
    const referral = await insertReferral({ status: "closed", salePrice: 45_000_000, grossCommission: 4_635_700 });
    const refused = (await act("maria", referral.id, CDA)) as Rejection;
    expect(refused.init?.status).toBe(409);
    expect(refused.data.error?.[""]).toEqual([CDA_REFUSALS.feeDoubted]);
    expect(refused.data.initialValue).toMatchObject({ titleCompany: "Alamo Title" });
    await expectNothingChanged(referral);

    await context.services.store.referrals.update(referral.id, { grossCommission: 1_350_000 });
    expect(((await act("maria", referral.id, CDA)) as Response).status).toBe(302);
  });

  it("with a bad e-mail, with 400 and the message beside the field", async () => {
    const referral = await insertReferral();
    const refused = (await act("maria", referral.id, { ...CDA, titleEmail: "closer at alamo" })) as Rejection;
    expect(refused.init?.status).toBe(400);
    expect(refused.data.error?.titleEmail).toEqual(["Please enter a valid email address"]);
    expect(refused.data.initialValue).toMatchObject({ titleEmail: "closer at alamo", titleCompany: "Alamo Title" });
    await expectNothingChanged(referral);
  });

  it("has no PDF to download before it is sent, and none for anyone but the parties", async () => {
    const referral = await insertReferral();
    const before = (await outcome(() =>
      cdaPdfLoader({ request: get(`/referrals/${referral.id}/cda.pdf`, cookies.maria), context, params: { id: referral.id } }),
    )) as Response;
    expect(before.status).toBe(404);
    await act("maria", referral.id, CDA);
    const stranger = await sessionCookie(context, await insertAgent(context, { email: "stranger@example.com" }));
    const refused = (await outcome(() =>
      cdaPdfLoader({
        request: get(`/referrals/${referral.id}/cda.pdf`, stranger),
        context,
        params: { id: referral.id },
      }),
    )) as Response;
    expect(refused.status).toBe(404);
  });
});
