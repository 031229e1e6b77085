import type { Page } from "@playwright/test";
import { RESPONSES_TAB, type Agent } from "../../app/domain/workbook/tabs";
import { pdfText } from "../support/pdf-text";
import { expect, test, type Fixtures } from "./fixtures";
import { seedRequests, testRequest, uniqueToken } from "./support/requests";
import { insertRows } from "./support/store-file";

/** A poster with a referral request and a responder, both with their broker's details. */
function cast(seedAgent: Fixtures["seedAgent"]) {
  const token = uniqueToken();
  const poster = seedAgent({ fullName: "Maria Delgado", brokerage: "Sooner Homes", brokerLicenseNumber: "OK-155" });
  const responder = seedAgent({ fullName: "James Whitfield", brokerage: "Hill Country Homes", brokerLicenseNumber: "TX-9001" });
  const request = testRequest(poster, { title: `Relocating family ${token}`, requestType: "referral", clientType: "buyer" });
  seedRequests([request]);
  const responseId = `response-${token}`;
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
  return { poster, responder, request, token };
}

async function as(page: Page, login: Fixtures["login"], agent: Agent, path: string) {
  await page.context().clearCookies();
  await login(agent, { then: path });
}

async function propose(page: Page): Promise<string> {
  await page.getByRole("link", { name: "Propose referral" }).click();
  await page.getByLabel("Client's first name or initials").fill("Ana");
  await page.getByRole("button", { name: "Propose referral" }).click();
  await expect(page).toHaveURL(/\/referrals\/[0-9a-f-]+$/);
  return new URL(page.url()).pathname;
}

/** The short reference an agreement goes by: the first eight characters of its id, in capitals. */
const shortReference = (path: string) => path.split("/")[2]!.slice(0, 8).toUpperCase();

test.describe("the referral agreement as a document", () => {
  test.describe.configure({ timeout: 120_000 });

  test("the printable page and the PDF name the agreement by a short reference and the request by its title, and print alone", async ({
    page,
    seedAgent,
    waitForReplica,
    login,
  }) => {
    const { poster, request } = cast(seedAgent);
    await waitForReplica();
    await as(page, login, poster, `/referral-requests/${request.id}`);
    const path = await propose(page);
    const reference = shortReference(path);
    const id = path.split("/")[2]!;

    await page.goto(`${path}/agreement`);
    const heading = page.getByRole("heading", { level: 1 });
    await expect(heading).toHaveText(`Referral Agreement No. ${reference}`);
    await expect(page.getByText(`From the request “${request.title}”`)).toBeVisible();
    await expect(page.locator("pre")).toContainText(`Agreement No. ${reference}`);
    await expect(page.locator("main")).not.toContainText(id);
    await expect(page.locator("main")).not.toContainText(request.id);

    await page.emulateMedia({ media: "print" });
    await expect(page.getByRole("banner")).toBeHidden();
    await expect(page.getByRole("contentinfo")).toBeHidden();
    await expect(page.getByRole("link", { name: "Download the PDF" })).toBeHidden();
    await expect(heading).toBeVisible();
    expect(await page.locator("pre").evaluate((pre) => getComputedStyle(pre).fontFamily)).toMatch(/serif/i);

    const pdf = await pdfText(await (await page.request.get(`${path}/agreement.pdf`)).body());
    expect(pdf).toContain(`Referral Agreement No. ${reference}`);
    expect(pdf).toContain(`From the request “${request.title}”`);
    expect(pdf).not.toContain(id);
    expect(pdf).not.toContain(request.id);
  });

  test("Change the terms shows its label and an affordance while closed, at 390 px", async ({ page, seedAgent, waitForReplica, login }) => {
    const { poster, request } = cast(seedAgent);
    await waitForReplica();
    await as(page, login, poster, `/referral-requests/${request.id}`);
    await propose(page);
    await page.setViewportSize({ width: 390, height: 844 });
    const summary = page.locator("summary").filter({ hasText: "Change the terms" });
    await expect(summary).toBeVisible();
    await expect(summary.getByText("Open the form to propose new terms")).toBeVisible();
    await expect(summary.locator("svg")).toBeVisible();
    await summary.click();
    await expect(page.getByRole("button", { name: "Save new terms" })).toBeVisible();
  });
});
