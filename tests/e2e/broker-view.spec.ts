import { readFile } from "node:fs/promises";
import { BROKERS_TAB } from "../../app/domain/workbook/broker-tabs";
import { expect, test } from "./fixtures";
import { seedReferral } from "./support/referrals";
import { uniqueToken } from "./support/requests";
import { insertRows } from "./support/store-file";

test.describe("the broker's view", () => {
  test("a broker staff confirmed asks for a link, opens it, sees their agent's referral and downloads the year's fees", async ({
    page,
    seedAgent,
    waitForReplica,
    outbox,
  }) => {
    const token = uniqueToken();
    const license = String(100000 + Math.floor(Math.random() * 800000));
    const email = `broker-${token}@soonerhomes.example`;
    insertRows(BROKERS_TAB, [
      {
        id: `broker-${token}`,
        licenseNumber: license,
        state: "OK",
        name: "Sooner Homes",
        email,
        status: "confirmed",
        staffNote: undefined,
        createdAt: new Date().toISOString(),
        updatedAt: undefined,
      },
    ]);
    const maria = seedAgent({ fullName: "Maria Delgado", licenseState: "OK", state: "OK", brokerage: "Sooner Homes" });
    const dana = seedAgent({ fullName: "Dana Reyes", brokerage: "Lone Star Realty LLC" });
    const paidAt = new Date().toISOString();
    seedReferral(
      dana,
      maria,
      {
        clientName: `${token}`,
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
    const link = /Open your view: (\S+)/.exec(mail.text)?.[1];
    expect(link).toBeDefined();
    await page.goto(new URL(link!).pathname + new URL(link!).search);
    // The token left the address for a cookie.
    await expect(page).toHaveURL(/\/broker\/view$/);
    await expect(page.getByRole("heading", { level: 1, name: "Broker's View" })).toBeVisible();
    const referrals = page.getByRole("list", { name: "Referrals" }).getByTestId("broker-referral");
    await expect(referrals).toHaveCount(1);
    await expect(referrals.first()).toContainText(token);
    await expect(referrals.first()).toContainText("Maria Delgado, Sooner Homes");
    await expect(referrals.first()).toContainText("$3,090.00");
    await expect(referrals.first().getByRole("link", { name: "CDA PDF" })).toBeVisible();

    await page.setViewportSize({ width: 1280, height: 900 });
    await expect(referrals.first().getByRole("link", { name: "Agreement PDF" })).toBeVisible();
    const year = String(new Date().getFullYear());
    await page.getByLabel("Year").selectOption(year);
    const [download] = await Promise.all([page.waitForEvent("download"), page.getByRole("button", { name: "Download CSV" }).click()]);
    expect(download.suggestedFilename()).toBe(`referral-fees-${year}.csv`);
    const csv = await readFile((await download.path())!, "utf8");
    const rows = csv.trim().split("\r\n");
    expect(rows).toHaveLength(2);
    expect(rows[1]).toContain(",Paid,");
    expect(rows[1]).toContain("Lone Star Realty LLC,0400001,Dana Reyes,Maria Delgado");
    expect(rows[1]).toMatch(/,3090\.00$/);
  });
});
