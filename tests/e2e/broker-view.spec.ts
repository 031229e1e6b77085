import { readFile } from "node:fs/promises";
import type { Agent } from "../../app/domain/workbook/tabs";
import { BROKERS_TAB } from "../../app/domain/workbook/broker-tabs";
import { expect, test, type Fixtures } from "./fixtures";
import { seedReferral } from "./support/referrals";
import { uniqueToken } from "./support/requests";
import { screenshotForPeople } from "./support/screenshots";
import { insertRows } from "./support/store-file";

type Office = { token: string; license: string; email: string; maria: Agent; dana: Agent };

/** An Oklahoma broker staff confirmed, the agent they sponsor (Maria, who receives) and a Texas agent who refers to her. */
function seedOffice(seedAgent: Fixtures["seedAgent"]): Office {
  const token = uniqueToken();
  const license = String(100000 + Math.floor(Math.random() * 800000));
  const email = `broker-${token}@soonerhomes.example`;
  const now = new Date().toISOString();
  insertRows(BROKERS_TAB, [
    {
      id: `broker-${token}`,
      licenseNumber: license,
      state: "OK",
      name: "Sooner Homes",
      email,
      status: "confirmed",
      staffNote: undefined,
      createdAt: now,
      updatedAt: undefined,
    },
  ]);
  const maria = seedAgent({ fullName: "Maria Delgado", licenseState: "OK", state: "OK", brokerage: "Sooner Homes" });
  const dana = seedAgent({ fullName: "Dana Reyes", brokerage: "Lone Star Realty LLC" });
  return { token, license, email, maria, dana };
}

test.describe("the broker's side of a referral", () => {
  test("the receiving agent sends the commission disbursement authorization, refused first for a bad e-mail", async ({
    page,
    seedAgent,
    waitForReplica,
    login,
    outbox,
  }) => {
    const { license, email, maria, dana } = seedOffice(seedAgent);
    const referral = seedReferral(dana, maria, {
      clientName: "Bea",
      receivingBrokerLicense: license,
      receivingBrokerEmail: email,
      status: "under_contract",
      expectedCloseDate: "2027-02-01T12:00:00.000Z",
    });
    await waitForReplica();

    await page.setViewportSize({ width: 390, height: 844 });
    await login(maria, { then: `/referrals/${referral.id}` });
    const cda = page.getByRole("region", { name: "Commission disbursement authorization" });
    await expect(cda.getByLabel("Expected closing date")).toHaveValue("2027-02-01");
    await cda.getByLabel("Title company", { exact: true }).fill("Alamo Title");
    await cda.getByLabel("Title company's e-mail").fill("closer at alamo");
    await cda.getByRole("button", { name: "Send the CDA to both brokers" }).click();
    await expect(cda.getByText("Please enter a valid email address")).toBeVisible();
    await expect(cda.getByLabel("Title company", { exact: true })).toHaveValue("Alamo Title");

    await page.setViewportSize({ width: 1280, height: 900 });
    await cda.getByLabel("Title company's e-mail").fill("closer@alamotitle.example");
    await cda.getByRole("button", { name: "Send the CDA to both brokers" }).click();
    await expect(cda.getByTestId("cda-state")).toContainText("for Alamo Title");
    await expect(cda.getByRole("link", { name: "CDA PDF" })).toHaveAttribute("href", `/referrals/${referral.id}/cda.pdf`);
    await expect(page.getByRole("region", { name: "Timeline" })).toContainText("Commission disbursement authorization sent");
    const mail = await outbox.waitFor((sent) => sent.to === email);
    expect(mail.subject).toBe("Commission disbursement authorization: referral of Bea");
  });

  test("a broker staff confirmed asks for a link, opens it, sees their agent's referral and downloads the year's fees", async ({
    page,
    seedAgent,
    waitForReplica,
    outbox,
  }) => {
    const { token, license, email, maria, dana } = seedOffice(seedAgent);
    const paidAt = new Date().toISOString();
    const paid = seedReferral(
      dana,
      maria,
      {
        clientName: token,
        receivingBrokerLicense: license,
        status: "fee_received",
        feeAmount: 309_000,
        cdaSentAt: paidAt,
        titleCompany: "Alamo Title",
        titleEmail: "closer@alamotitle.example",
      },
      [
        { step: "fee_paid", createdAt: paidAt },
        { step: "fee_received", createdAt: paidAt },
      ],
    );
    seedReferral(dana, seedAgent({ fullName: "Olivia Other" }), { clientName: `${token}X`, receivingBrokerLicense: "999999" });
    await waitForReplica();

    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto("/broker");
    await page.getByLabel("License issued by").selectOption("OK");
    await page.getByLabel("Broker license number").fill(license);
    await page.getByLabel("Email Address").fill(email);
    await page.getByRole("button", { name: "Send Me a Link" }).click();
    await expect(page.getByRole("heading", { name: "Check Your Email" })).toBeVisible();
    await expect(page.getByRole("status")).toContainText("a link to your view is on its way");

    const mail = await outbox.waitFor((sent) => sent.to === email);
    const link = new URL(/Open your view: (\S+)/.exec(mail.text)?.[1] ?? "");
    await page.goto(link.pathname + link.search);
    // The token left the address for a cookie.
    await expect(page).toHaveURL(/\/broker\/view$/);
    await expect(page.getByRole("heading", { level: 1, name: "Broker's View" })).toBeVisible();
    await expect(page.getByText("sponsored by Sooner Homes, broker license")).toBeVisible();
    const referrals = page.getByRole("list", { name: "Referrals" }).getByTestId("broker-referral");
    await expect(referrals).toHaveCount(1);
    await expect(referrals).toContainText(token);
    await expect(referrals).toContainText("Maria Delgado, Sooner Homes");
    await expect(referrals).toContainText("$3,090.00");

    await page.setViewportSize({ width: 1280, height: 900 });
    await expect(referrals.getByRole("link", { name: "CDA PDF" })).toHaveAttribute("href", `/broker/referrals/${paid.id}/cda.pdf`);
    await expect(referrals.getByRole("link", { name: "Agreement PDF" })).toBeVisible();
    const year = String(new Date().getFullYear());
    await page.getByLabel("Year").selectOption(year);
    const [download] = await Promise.all([page.waitForEvent("download"), page.getByRole("button", { name: "Download CSV" }).click()]);
    expect(download.suggestedFilename()).toBe(`referral-fees-${year}.csv`);
    const rows = (await readFile((await download.path())!, "utf8")).trim().split("\r\n");
    expect(rows).toHaveLength(2);
    expect(rows[1]).toContain(",Paid,");
    expect(rows[1]).toContain("Lone Star Realty LLC,0400001,Dana Reyes,Maria Delgado");
    expect(rows[1]).toMatch(/,3090\.00$/);
  });

  test("open percentage fees read as not yet known on the broker's view, never $0.00", async ({
    page,
    seedAgent,
    waitForReplica,
    outbox,
  }, testInfo) => {
    const { token, license, email, maria, dana } = seedOffice(seedAgent);
    for (const status of ["proposed", "signed", "introduced", "under_contract"] as const)
      seedReferral(dana, maria, { clientName: `${token} ${status}`, receivingBrokerLicense: license, status, feePercent: 25 });
    await waitForReplica();

    await page.goto("/broker");
    await page.getByLabel("License issued by").selectOption("OK");
    await page.getByLabel("Broker license number").fill(license);
    await page.getByLabel("Email Address").fill(email);
    await page.getByRole("button", { name: "Send Me a Link" }).click();
    const mail = await outbox.waitFor((sent) => sent.to === email);
    const link = new URL(/Open your view: (\S+)/.exec(mail.text)?.[1] ?? "");
    await page.goto(link.pathname + link.search);

    const fees = page.getByRole("region", { name: "Fees" });
    for (const width of [390, 1280]) {
      await page.setViewportSize({ width, height: 900 });
      await expect(fees.locator("div", { has: page.getByText("Fees expected", { exact: true }) }).locator("dd")).toHaveText(
        "Not yet known for 3 referrals",
      );
      await expect(fees).not.toContainText("$0.00");
      await screenshotForPeople(page, testInfo, `fees-unknown-broker-${width}`, { fullPage: true });
    }
  });
});
