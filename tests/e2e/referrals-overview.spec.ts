import { readFile } from "node:fs/promises";
import type { Page } from "@playwright/test";
import { expect, test } from "./fixtures";
import { seedReferral } from "./support/referrals";
import { lookAtEachWidth } from "./support/widths";
import { uniqueToken } from "./support/requests";

/** The rows of the referrals list: each a link to its referral's page. */
function referralLinks(page: Page) {
  return page.getByRole("region", { name: "Referrals", exact: true }).getByRole("link");
}

/** The figure under a label in the Fees section. */
function figure(page: Page, label: string) {
  return page
    .getByRole("region", { name: "Fees" })
    .locator("div", { has: page.getByText(label, { exact: true }) })
    .locator("dd");
}

test.describe("my referrals", () => {
  test("lists sent and received referrals with the pipeline's counts and fees, and filters by status", async ({
    page,
    seedAgent,
    waitForReplica,
    login,
  }) => {
    const token = uniqueToken();
    const maria = seedAgent({ fullName: "Maria Referrer" });
    const james = seedAgent({ fullName: "James Receiver" });
    const olivia = seedAgent({ fullName: "Olivia Other" });
    const sent = seedReferral(maria, james, { clientName: `${token} A`, status: "signed" });
    const received = seedReferral(james, maria, { clientName: `${token} B`, status: "closed", grossCommission: 900_000 });
    seedReferral(maria, olivia, { clientName: `${token} C`, status: "fee_received", feeAmount: 125_050 }, [
      { step: "fee_received", createdAt: new Date().toISOString() },
    ]);
    seedReferral(james, olivia, { clientName: `${token} not hers` });
    await waitForReplica();
    await login(maria);

    await page.goto("/referrals");
    await expect(page.getByRole("heading", { level: 1, name: "My Referrals" })).toBeVisible();
    await expect(referralLinks(page)).toHaveCount(3);
    await expect(page.getByRole("region", { name: "Referrals", exact: true })).not.toContainText("not hers");
    await expect(referralLinks(page).filter({ hasText: `${token} A` })).toHaveAttribute("href", `/referrals/${sent.id}`);
    await expect(referralLinks(page).filter({ hasText: `${token} B` })).toContainText("From James Receiver");
    await expect(referralLinks(page).filter({ hasText: `${token} B` })).toContainText("$2,250.00");

    const counts = page.getByRole("navigation", { name: "Referrals by status" });
    await expect(counts.getByRole("link", { name: "Signed 1" })).toBeVisible();
    await expect(counts.getByRole("link", { name: "Closed 1" })).toBeVisible();
    await expect(counts.getByRole("link", { name: "Fee received 1" })).toBeVisible();
    await expect(counts.getByRole("link", { name: "Lost 0" })).toBeVisible();
    await expect(figure(page, "Open referrals")).toHaveText("2");
    await expect(figure(page, "Fees expected")).toHaveText("$2,250.00 + 1 not yet known");
    await expect(figure(page, "Fees received this year")).toHaveText("$1,250.50");

    await page.getByRole("combobox", { name: "Status" }).selectOption("closed");
    await page.getByRole("button", { name: "Apply Filters" }).click();
    await expect(page).toHaveURL(/\/referrals\?(role=&)?status=closed$/);
    await expect(referralLinks(page)).toHaveCount(1);
    await expect(referralLinks(page).first()).toHaveAttribute("href", `/referrals/${received.id}`);

    await page.getByRole("combobox", { name: "Sent or received" }).selectOption("sent");
    await page.getByRole("button", { name: "Apply Filters" }).click();
    await expect(page.getByRole("region", { name: "Referrals", exact: true })).toContainText("No referrals match your filters");

    await counts.getByRole("link", { name: "Signed 1" }).click();
    await expect(page).toHaveURL(/\/referrals\?role=sent&status=signed$/);
    await expect(referralLinks(page)).toHaveCount(1);
    await expect(page.getByRole("combobox", { name: "Status" })).toHaveValue("signed");
  });

  test("percentage fees before a price is known read as shares, never as $0.00, on a phone and a desktop", async ({
    page,
    seedAgent,
    waitForReplica,
    login,
  }, testInfo) => {
    const token = uniqueToken();
    const maria = seedAgent({ fullName: "Maria Percent" });
    const james = seedAgent({ fullName: "James Percent" });
    for (const status of ["proposed", "signed", "introduced", "under_contract"] as const)
      seedReferral(maria, james, { clientName: `${token} ${status}`, status, feePercent: 25 });
    await waitForReplica();
    await login(maria);

    const card = page.getByRole("region", { name: "My Referrals", exact: true });
    await expect(card).toContainText("Not yet known for 3 referrals");
    await expect(card).not.toContainText("$0.00");
    await lookAtEachWidth(page, testInfo, { shot: "fees-unknown-dashboard" });

    await page.goto("/referrals");
    await expect(referralLinks(page)).toHaveCount(4);
    for (const link of await referralLinks(page).all()) await expect(link).toContainText("25% of the commission");
    await expect(figure(page, "Fees expected")).toHaveText("Not yet known for 3 referrals");
    await expect(figure(page, "Fees received this year")).toHaveText("None");
    await expect(page.getByRole("main")).not.toContainText("$0.00");
    await lookAtEachWidth(page, testInfo, { shot: "fees-unknown-referrals" });
  });

  test("the dashboard's My Referrals card shows the open referrals and the fees", async ({ page, seedAgent, waitForReplica, login }) => {
    const token = uniqueToken();
    const maria = seedAgent({ fullName: "Maria Dashboard" });
    const james = seedAgent({ fullName: "James Dashboard" });
    const open = seedReferral(maria, james, { clientName: `${token} open`, status: "under_contract", feeType: "flat", feeFlat: 150_000 });
    seedReferral(maria, james, { clientName: `${token} lost`, status: "lost" });
    await waitForReplica();
    await login(maria);

    const card = page.getByRole("region", { name: "My Referrals", exact: true });
    await expect(card.getByRole("link", { name: new RegExp(`${token} open`) })).toHaveAttribute("href", `/referrals/${open.id}`);
    await expect(card).not.toContainText(`${token} lost`);
    await expect(card).toContainText("$1,500.00");
    await card.getByRole("link", { name: "View All 2 Referrals" }).click();
    await expect(page).toHaveURL(/\/referrals$/);
    await expect(referralLinks(page)).toHaveCount(2);
  });

  test("downloads the year's referrals as a CSV file", async ({ page, seedAgent, waitForReplica, login }) => {
    const token = uniqueToken();
    const maria = seedAgent({ fullName: "Maria Csv" });
    const james = seedAgent({ fullName: "James Csv" });
    seedReferral(maria, james, { clientName: `=${token}`, status: "closed", salePrice: 45_000_000, grossCommission: 1_350_000 });
    await waitForReplica();
    await login(maria);
    await page.goto("/referrals");

    const [download] = await Promise.all([page.waitForEvent("download"), page.getByRole("button", { name: "Download CSV" }).click()]);
    expect(download.suggestedFilename()).toBe(`referrals-${new Date().getFullYear()}.csv`);
    const text = await readFile((await download.path())!, "utf8");
    const lines = text
      .replace(/^\uFEFF/, "")
      .trimEnd()
      .split("\r\n");
    expect(lines).toHaveLength(2);
    expect(lines[1]).toContain(`,James Csv,`);
    expect(lines[1]).toContain(`,'=${token},buyer,Closed,450000.00,13500.00,3375.00,`);
  });

  test("a member who is no party sees none of another's referrals", async ({ page, seedAgent, waitForReplica, login }) => {
    const token = uniqueToken();
    const maria = seedAgent({ fullName: "Maria Private" });
    const james = seedAgent({ fullName: "James Private" });
    const third = seedAgent({ fullName: "Third Member" });
    seedReferral(maria, james, { clientName: `${token} private` });
    await waitForReplica();
    await login(third);

    await expect(page.getByRole("region", { name: "My Referrals", exact: true })).toContainText("No referrals yet");
    await page.goto("/referrals");
    await expect(page.getByRole("region", { name: "Referrals", exact: true })).toContainText("No referrals yet");
    await expect(page.getByRole("main")).not.toContainText(token);
    const csv = await page.request.get("/referrals.csv");
    expect(csv.status()).toBe(200);
    expect(await csv.text()).not.toContain(token);
  });
});
