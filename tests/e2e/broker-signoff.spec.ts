import type { Page } from "@playwright/test";
import { RESPONSES_TAB } from "../../app/domain/workbook/tabs";
import { expect, test, type Fixtures } from "./fixtures";
import { screenshotForPeople } from "./support/screenshots";
import { seedRequests, testRequest, uniqueToken } from "./support/requests";
import { insertRows } from "./support/store-file";

/** A poster with a referral request and a responder, both with their sponsoring broker. */
function cast(seedAgent: Fixtures["seedAgent"]) {
  const token = uniqueToken();
  const brokerEmail = `broker-${token}@soonerhomes.example`;
  const poster = seedAgent({ fullName: "Maria Delgado", brokerage: "Sooner Homes", brokerLicenseNumber: "OK-155", brokerEmail });
  const responder = seedAgent({ fullName: "James Whitfield", brokerage: "Hill Country Homes", brokerLicenseNumber: "TX-9001" });
  const request = testRequest(poster, { title: `Relocating family ${token}`, requestType: "referral", clientType: "buyer" });
  seedRequests([request]);
  insertRows(RESPONSES_TAB, [
    {
      id: `response-${token}`,
      requestId: request.id,
      fromEmail: responder.email,
      fromName: responder.fullName,
      toEmail: poster.email,
      message: `Glad to help ${token}`,
      createdAt: new Date().toISOString(),
    },
  ]);
  return { poster, responder, request, brokerEmail };
}

async function propose(page: Page) {
  await page.getByRole("link", { name: "Propose referral" }).click();
  await page.getByLabel("Client's first name or initials").fill("Ana");
  await page.getByRole("button", { name: "Propose referral" }).click();
}

async function sign(page: Page, name: string, broker: RegExp) {
  await page.getByLabel("Your full name").fill(name);
  await page.getByLabel(/I have read the agreement above/).check();
  await page.getByLabel(broker).check();
  await page.getByRole("button", { name: "Sign agreement" }).click();
  await expect(page.getByText(`Signed by ${name} on`)).toBeVisible();
}

const brokerStates = (page: Page) => page.getByTestId("broker-state");

test.describe("broker sign-off", () => {
  test.describe.configure({ timeout: 60_000 });

  test("both agents sign once, a broker approves through the mailed link, and the agreement is in force", async ({
    page,
    seedAgent,
    waitForReplica,
    memberPage,
    outbox,
  }, testInfo) => {
    const { poster, responder, request, brokerEmail } = cast(seedAgent);
    await waitForReplica();

    // The agreement names both brokers from the start, from both profiles.
    const maria = await memberPage(poster, { width: 390, height: 844 });
    await maria.goto(`/referral-requests/${request.id}`);
    await propose(maria);
    await expect(maria).toHaveURL(/\/referrals\/[0-9a-f-]+$/);
    const path = new URL(maria.url()).pathname;
    await expect(maria.locator("pre")).toContainText("REFERRAL AGREEMENT BETWEEN BROKERS");
    await expect(maria.locator("pre")).toContainText("Receiving broker: Hill Country Homes, broker license TX-9001");

    // Maria signs once and asks her broker; a sign form without a choice is refused beside it.
    await maria.getByLabel("Your full name").fill("Maria Delgado");
    await maria.getByLabel(/I have read the agreement above/).check();
    await maria.getByRole("button", { name: "Sign agreement" }).click();
    await expect(maria.getByText("Please choose how your broker signs off")).toBeVisible();
    await sign(maria, "Maria Delgado", /Ask my broker to approve/);
    await expect(brokerStates(maria).first()).toContainText(
      /Waiting for Sooner Homes's approval, link expires [A-Z][a-z]{2} \d{1,2}, \d{4}, \d{1,2}:\d{2} [AP]M C[SD]T/,
    );

    // James signs once with his broker's authority; Maria's signature still stands.
    const james = await memberPage(responder, { width: 1280, height: 900 });
    await james.goto(path);
    await sign(james, "James Whitfield", /My broker authorizes me/);
    await expect(james.getByText("Signed by Maria Delgado on")).toBeVisible();
    await expect(brokerStates(james).nth(1)).toContainText("Attested by James Whitfield");
    await expect(james.getByTestId("referral-status")).toHaveText("Proposed");
    await expect(james.getByTestId("next-action")).toContainText("wait for the brokers' sign-off");
    await expect(james.getByRole("button", { name: "Sign agreement" })).toHaveCount(0);

    // Maria's broker opens the mailed link, with no account: the token leaves the address.
    const mail = await outbox.waitFor((sent) => sent.to === brokerEmail && sent.subject.startsWith("Please approve"));
    const link = new URL(/https?:\/\/\S+\/broker-approval\?token=\S+/.exec(mail.text)![0]);
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto(`${link.pathname}${link.search}`);
    await expect(page).toHaveURL(/\/broker-approval$/);
    await expect(page.getByRole("heading", { name: "Approve for Sooner Homes" })).toBeVisible();
    await expect(page.locator("pre")).toContainText("Referring broker: Sooner Homes, broker license OK-155");
    // The link's end names its year, time and zone, in Central time like every date on the site.
    const until = /works until [A-Z][a-z]{2} \d{1,2}, \d{4}, \d{1,2}:\d{2} [AP]M C[SD]T/;
    expect(mail.text).toMatch(until);
    await expect(page.getByText(until)).toBeVisible();
    await screenshotForPeople(page, testInfo, "broker-approval-390");
    await page.setViewportSize({ width: 1280, height: 900 });
    await screenshotForPeople(page, testInfo, "broker-approval-1280");
    await page.setViewportSize({ width: 390, height: 844 });
    await page.getByLabel("Your full name").fill("Rosa Perez");
    await page.getByLabel("Your broker license number").fill("TX-9001");
    await page.getByRole("button", { name: "Approve the agreement" }).click();
    await expect(page.getByText("This approval is for another broker")).toBeVisible();
    await expect(page.getByLabel("Your full name")).toHaveValue("Rosa Perez");
    await page.getByLabel("Your broker license number").fill("OK-155");
    await page.getByRole("button", { name: "Approve the agreement" }).click();
    await expect(page.getByTestId("broker-link-refusal")).toHaveText(
      "This agreement is already approved for your side: nothing more is needed.",
    );

    // In force: signed, both brokers signed off, and the agents are told.
    await maria.setViewportSize({ width: 1280, height: 900 });
    await maria.reload();
    await expect(maria.getByTestId("referral-status")).toHaveText("Signed");
    await expect(brokerStates(maria).first()).toContainText(/Approved by Rosa Perez, [A-Z][a-z]{2} \d{1,2}/);
    await expect(maria.getByRole("region", { name: "Timeline" }).getByText("Broker approved")).toBeVisible();
    await outbox.waitFor((sent) => sent.to === poster.email && sent.subject.includes("Rosa Perez approved the referral agreement"));
  });
});

test("an approval link that took five wrong license numbers is ended: the page says so, and the agent who asked is mailed", async ({
  page,
  seedAgent,
  waitForReplica,
  memberPage,
  outbox,
}) => {
  test.setTimeout(60_000);
  const { poster, responder, request, brokerEmail } = cast(seedAgent);
  await waitForReplica();
  const maria = await memberPage(poster, { width: 1280, height: 900 });
  await maria.goto(`/referral-requests/${request.id}`);
  await propose(maria);
  await expect(maria).toHaveURL(/\/referrals\/[0-9a-f-]+$/);
  await sign(maria, "Maria Delgado", /Ask my broker to approve/);
  const james = await memberPage(responder, { width: 1280, height: 900 });
  await james.goto(new URL(maria.url()).pathname);
  await sign(james, "James Whitfield", /My broker authorizes me/);

  const mail = await outbox.waitFor((sent) => sent.to === brokerEmail && sent.subject.startsWith("Please approve"));
  const link = new URL(/https?:\/\/\S+\/broker-approval\?token=\S+/.exec(mail.text)![0]);
  await page.goto(`${link.pathname}${link.search}`);
  for (let i = 1; i <= 4; i += 1) {
    await page.getByLabel("Your full name").fill("Guess Er");
    await page.getByLabel("Your broker license number").fill(`99${i}`);
    await page.getByRole("button", { name: "Approve the agreement" }).click();
    await expect(page.getByText("This approval is for another broker")).toBeVisible();
  }
  await page.getByLabel("Your broker license number").fill("995");
  await page.getByRole("button", { name: "Approve the agreement" }).click();
  const ended =
    "This approval link can no longer be used: a wrong license number was typed too many times. We have told the agent who sent it; ask them to send you a new link from the referral's page.";
  // With JavaScript the refusal shows on the form; without, the page comes back as the link's refusal.
  await expect(page.getByText(ended)).toBeVisible();

  await page.goto("/broker-approval");
  await expect(page.getByTestId("broker-link-refusal")).toHaveText(ended);
  await expect(page.getByRole("button", { name: "Approve the agreement" })).toHaveCount(0);
  await outbox.waitFor((sent) => sent.to === poster.email && sent.subject.includes("no longer works"));
  await maria.reload();
  await expect(maria.getByRole("region", { name: "Timeline" }).getByText("Broker's approval link ended")).toBeVisible();
});
