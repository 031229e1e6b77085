import type { Page } from "@playwright/test";
import { RESPONSES_TAB, type Agent } from "../../app/domain/workbook/tabs";
import { pdfText } from "../support/pdf-text";
import { expect, test, type Fixtures } from "./fixtures";
import { seedRequests, testRequest, uniqueToken } from "./support/requests";
import { insertRows } from "./support/store-file";

type Cast = { poster: Agent; responder: Agent; requestId: string; token: string };

/** A poster with a referral request for her buyer and a responder, both with their broker's details. */
function cast(seedAgent: Fixtures["seedAgent"], respond: boolean): Cast & { responseId: string } {
  const token = uniqueToken();
  const poster = seedAgent({ fullName: "Maria Delgado", brokerage: "Sooner Homes", brokerLicenseNumber: "OK-155" });
  const responder = seedAgent({ fullName: "James Whitfield", brokerage: "Hill Country Homes", brokerLicenseNumber: "TX-9001" });
  const request = testRequest(poster, { title: `${token} relocation`, requestType: "referral", clientType: "buyer" });
  seedRequests([request]);
  const responseId = `response-${token}`;
  if (respond)
    insertRows(RESPONSES_TAB, [
      {
        id: responseId,
        requestId: request.id,
        fromEmail: responder.email,
        fromName: responder.fullName,
        toEmail: poster.email,
        message: `Glad to help ${token}`,
        createdAt: new Date().toISOString(),
      },
    ]);
  return { poster, responder, requestId: request.id, token, responseId };
}

/** Logs the test's browser in as `agent` (after logging out whoever was in) and opens `path`. */
async function as(page: Page, login: Fixtures["login"], agent: Agent, path: string) {
  await page.context().clearCookies();
  await login(agent, { then: path });
}

const status = (page: Page) => page.getByTestId("referral-status");

/** Screenshots at desktop and phone widths, for people to look at (js-on only: the pages are the same). */
async function shots(page: Page, name: string, projectName: string) {
  if (projectName !== "js-on") return;
  for (const width of [1280, 390]) {
    await page.setViewportSize({ width, height: 900 });
    await page.screenshot({ path: `test-results/screenshots/${name}-${width}.png`, fullPage: true });
  }
  await page.setViewportSize({ width: 1280, height: 720 });
}

async function propose(page: Page, clientName = "Ana") {
  await page.getByRole("link", { name: "Propose referral" }).click();
  await expect(page.getByRole("heading", { name: "Propose referral" })).toBeVisible();
  await expect(page.getByLabel("Who refers the client")).toHaveValue("me");
  await expect(page.getByLabel("Fee percentage (1 to 50)")).toHaveValue("25");
  await expect(page.getByLabel("Term in months")).toHaveValue("12");
  await expect(page.getByLabel("The fee is due")).toHaveValue("within 10 days after closing or funding");
  await page.getByLabel("Client's first name or initials").fill(clientName);
  await page.getByRole("button", { name: "Propose referral" }).click();
  await expect(page).toHaveURL(/\/referrals\/[0-9a-f-]+$/);
  await expect(status(page)).toHaveText("Proposed");
  return new URL(page.url()).pathname;
}

async function sign(page: Page, name: string) {
  await page.getByLabel("Your full name").fill(name);
  await page.getByLabel(/I have read the agreement above/).check();
  await page.getByLabel(/My broker authorizes me to sign referral agreements/).check();
  await page.getByRole("button", { name: "Sign agreement" }).click();
  await expect(page.getByText(`Signed by ${name} on`)).toBeVisible();
}

async function step(page: Page, button: string, fields: Record<string, string> = {}) {
  const form = page.locator("form").filter({ has: page.getByRole("button", { name: button }) });
  for (const [label, value] of Object.entries(fields)) await form.getByLabel(label).fill(value);
  await form.getByRole("button", { name: button }).click();
}

test.describe("referral agreements", () => {
  test.describe.configure({ timeout: 120_000 });

  test("respond, propose, both sign, every step by its party to the fee received, with the mails and the PDF", async ({
    page,
    seedAgent,
    waitForReplica,
    login,
    outbox,
  }, testInfo) => {
    const { poster, responder, requestId, token } = cast(seedAgent, false);
    await waitForReplica();

    await as(page, login, responder, `/referral-requests/${requestId}/respond`);
    await page.getByLabel("Your Message").fill(`I know Austin ${token}`);
    await page.getByRole("button", { name: "Send Response" }).click();
    await expect(page.getByText("Response sent successfully!")).toBeVisible();

    await as(page, login, poster, `/referral-requests/${requestId}`);
    await page.getByRole("link", { name: "Propose referral" }).click();
    await page.getByLabel("Client's first name or initials").fill("Ana Lopez 555");
    await page.getByLabel("Fee percentage (1 to 50)").fill("75");
    await page.getByRole("button", { name: "Propose referral" }).click();
    await expect(page.getByText("First name or initials only, as one word (no surname, phone or e-mail)")).toBeVisible();
    await expect(page.getByText("Please enter a percentage from 1 to 50")).toBeVisible();
    await expect(page.getByLabel("Client's first name or initials")).toHaveValue("Ana Lopez 555");
    await shots(page, "referral-propose-refused", testInfo.project.name);
    await page.getByLabel("Client's first name or initials").fill("Ana");
    await page.getByLabel("Fee percentage (1 to 50)").fill("25");
    await page.getByLabel("Further terms").fill(`=SUM(A1) <b>not bold</b> ${token}`);
    await page.getByRole("button", { name: "Propose referral" }).click();
    await expect(page).toHaveURL(/\/referrals\/[0-9a-f-]+$/);
    await expect(status(page)).toHaveText("Proposed");
    const path = new URL(page.url()).pathname;
    await expect(page.locator("pre")).toContainText(`Further terms:\n=SUM(A1) <b>not bold</b> ${token}`);
    await outbox.waitFor((mail) => mail.to === responder.email && mail.subject.includes("proposed a referral agreement"));

    await sign(page, "Maria Delgado");
    await expect(page.getByTestId("next-action")).toHaveText("Next: wait for James Whitfield to sign.");
    await outbox.waitFor((mail) => mail.to === responder.email && mail.subject.includes("your signature is next"));

    await as(page, login, responder, path);
    await sign(page, "James R. Whitfield");
    await expect(status(page)).toHaveText("Signed");
    await shots(page, "referral-signed", testInfo.project.name);

    const signedMails = await Promise.all(
      [poster, responder].map((agent) =>
        outbox.waitFor((mail) => mail.to === agent.email && mail.subject.startsWith("Signed referral agreement")),
      ),
    );
    for (const mail of signedMails) {
      const attachment = mail.attachments?.[0];
      expect(attachment?.type).toBe("application/pdf");
      const text = await pdfText(Buffer.from(attachment!.content, "base64"));
      expect(text).toContain("REFERRAL AGREEMENT");
      expect(text).toContain("signed by Maria Delgado");
      expect(text).toContain("signed by James R. Whitfield");
      expect(text).toContain(`=SUM(A1) <b>not bold</b> ${token}`);
    }
    const pdf = await page.request.get(`${path}/agreement.pdf`);
    expect(pdf.headers()["content-type"]).toBe("application/pdf");
    expect(await pdfText(await pdf.body())).toContain("Receiving broker: Hill Country Homes, broker license TX-9001");

    await page.getByRole("link", { name: "Printable page" }).click();
    await expect(page.locator("pre")).toContainText("REFERRAL AGREEMENT");
    await expect(page.getByText("signed by James R. Whitfield on")).toBeVisible();

    await as(page, login, poster, path);
    await step(page, "Mark client introduced", { "Note for the other agent": "Ana expects your call" });
    await expect(status(page)).toHaveText("Client introduced");
    await outbox.waitFor((mail) => mail.to === responder.email && mail.text.includes("Ana expects your call"));

    await as(page, login, responder, path);
    await step(page, "Mark under contract", { "Expected close date": "2027-02-15" });
    await expect(status(page)).toHaveText("Under contract");
    await step(page, "Mark closed", {
      "Close date": "2027-02-20",
      "Price in dollars": "412,000",
      "Receiving side's gross commission in dollars": "12,360.00",
    });
    await expect(status(page)).toHaveText("Closed");
    await expect(page.getByText("$3,090.00")).toBeVisible();
    await step(page, "Mark fee paid", { "Note for the other agent": "Wired broker to broker" });
    await expect(status(page)).toHaveText("Fee paid");

    await as(page, login, poster, path);
    await outbox.waitFor((mail) => mail.to === poster.email && mail.subject.includes("Fee paid"));
    await step(page, "Confirm fee received");
    await expect(status(page)).toHaveText("Fee received");
    const timeline = page.getByRole("region", { name: "Timeline" });
    for (const label of [
      "Proposed",
      "In force: signed by both, brokers signed off",
      "Client introduced",
      "Under contract",
      "Closed",
      "Fee paid",
      "Fee received",
    ])
      await expect(timeline.getByText(label, { exact: true })).toBeVisible();
    await outbox.waitFor((mail) => mail.to === responder.email && mail.subject.includes("Fee received"));
  });

  test("the other agent declines; a proposer withdraws", async ({ page, seedAgent, waitForReplica, login }) => {
    const { poster, responder, requestId } = cast(seedAgent, true);
    await waitForReplica();
    await as(page, login, poster, `/referral-requests/${requestId}`);
    const path = await propose(page);
    await expect(page.getByRole("button", { name: "Decline the agreement" })).toHaveCount(0);
    await page.getByRole("button", { name: "Withdraw the agreement" }).click();
    await expect(status(page)).toHaveText("Withdrawn");

    await page.goto(`/referral-requests/${requestId}`);
    const second = await propose(page, "J.R.");
    expect(second).not.toBe(path);
    await as(page, login, responder, second);
    await expect(page.getByRole("button", { name: "Withdraw the agreement" })).toHaveCount(0);
    await page.getByLabel(/Decline: a note/).fill("Not my market after all");
    await page.getByRole("button", { name: "Decline the agreement" }).click();
    await expect(status(page)).toHaveText("Declined");
    await expect(page.getByText("Not my market after all")).toBeVisible();
  });

  test("changing a term clears both acceptances", async ({ page, seedAgent, waitForReplica, login }) => {
    const { poster, responder, requestId } = cast(seedAgent, true);
    await waitForReplica();
    await as(page, login, poster, `/referral-requests/${requestId}`);
    const path = await propose(page);
    await sign(page, "Maria Delgado");

    await as(page, login, responder, path);
    const oldHash = await page.getByText(/^SHA-256 of this text:/).textContent();
    await page.getByText("Change the terms", { exact: true }).click();
    await page.getByLabel("Fee percentage (1 to 50)").fill("30");
    await page.getByRole("button", { name: "Save new terms" }).click();
    await expect(page.getByText("30% of the receiving side's gross commission").first()).toBeVisible();
    await expect(page.getByText("Not signed yet")).toHaveCount(2);
    expect(await page.getByText(/^SHA-256 of this text:/).textContent()).not.toBe(oldHash);
    await expect(page.getByRole("region", { name: "Timeline" }).getByText("Terms changed")).toBeVisible();
  });

  test("a signed referral is lost, with its reason", async ({ page, seedAgent, waitForReplica, login }) => {
    const { poster, responder, requestId } = cast(seedAgent, true);
    await waitForReplica();
    await as(page, login, poster, `/referral-requests/${requestId}`);
    const path = await propose(page);
    await sign(page, "Maria Delgado");
    await as(page, login, responder, path);
    await sign(page, "James Whitfield");
    await step(page, "Mark lost");
    await expect(page.getByText("Please say why the referral was lost")).toBeVisible();
    await step(page, "Mark lost", { "Why was it lost?": "Client chose to rent" });
    await expect(status(page)).toHaveText("Lost");
    await expect(page.getByText("Client chose to rent").first()).toBeVisible();
  });

  test("a third member gets 404 on every referral address; a wrong-party step is refused with 403", async ({
    page,
    seedAgent,
    waitForReplica,
    login,
  }) => {
    const { poster, responder, requestId } = cast(seedAgent, true);
    const stranger = seedAgent({ fullName: "Olivia Stone" });
    await waitForReplica();
    await as(page, login, poster, `/referral-requests/${requestId}`);
    const path = await propose(page);
    await sign(page, "Maria Delgado");
    await as(page, login, responder, path);
    await sign(page, "James Whitfield");

    // The receiving agent posts the referring agent's step by hand: refused, nothing changes.
    const refused = await page.request.post(path, { form: { intent: "introduced", note: "" } });
    expect(refused.status()).toBe(403);
    await page.reload();
    await expect(status(page)).toHaveText("Signed");
    await expect(page.getByRole("button", { name: "Mark client introduced" })).toHaveCount(0);

    await as(page, login, stranger, "/member-dashboard");
    for (const address of [path, `${path}/agreement`, `${path}/agreement.pdf`]) {
      const answer = await page.request.get(address);
      expect(answer.status(), address).toBe(404);
    }
    const post = await page.request.post(path, { form: { intent: "decline", note: "" } });
    expect(post.status()).toBe(404);
    await page.goto(path);
    await expect(page.getByText("Maria Delgado")).toHaveCount(0);
  });
});
