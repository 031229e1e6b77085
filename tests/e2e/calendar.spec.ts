import { mkdirSync } from "node:fs";
import { readFile } from "node:fs/promises";
import type { Download, Page } from "@playwright/test";
import { INVITATIONS_TAB } from "../../app/domain/workbook/invitation-tab";
import { expect, test } from "./fixtures";
import { seedReferral } from "./support/referrals";
import { seedRequests, testRequest, uniqueToken } from "./support/requests";
import { insertRows } from "./support/store-file";

/** Where the downloaded files and the pages' pictures are kept to look at. */
const SHOTS = "/work/shots/calendar";

async function downloadFrom(page: Page, link: ReturnType<Page["getByRole"]>): Promise<{ download: Download; text: string }> {
  const [download] = await Promise.all([page.waitForEvent("download"), link.click()]);
  const path = await download.path();
  return { download, text: await readFile(path, "utf8") };
}

async function shoot(page: Page, project: string, name: string): Promise<void> {
  mkdirSync(SHOTS, { recursive: true });
  for (const width of [390, 1280]) {
    await page.setViewportSize({ width, height: 900 });
    await page.screenshot({ path: `${SHOTS}/${name}-${width}-${project}.png`, fullPage: true });
  }
}

test("Add to calendar downloads the invitation's Respond by and the referral's expected closing", async ({
  page,
  seedAgent,
  waitForReplica,
  login,
}, testInfo) => {
  const token = uniqueToken();
  const poster = seedAgent({ fullName: `Grace ${token}` });
  const maria = seedAgent({ fullName: `Maria ${token}` });
  // 9:00 CST on the Sunday daylight time ends in 2027: the file must say 9:00 in Chicago.
  const request = testRequest(poster, { title: `Starter home ${token}`, respondBy: "2027-11-07T15:00:00.000Z" });
  seedRequests([request]);
  insertRows(INVITATIONS_TAB, [
    {
      id: `${request.id}-invite`,
      requestId: request.id,
      posterEmail: poster.email,
      agentEmail: maria.email,
      status: "invited",
      reason: undefined,
      createdAt: new Date().toISOString(),
      answeredAt: undefined,
      remindedAt: undefined,
    },
  ]);
  const referral = seedReferral(poster, maria, { status: "under_contract", expectedCloseDate: "2027-02-01T12:00:00.000Z" });
  await waitForReplica();
  await login(maria);

  const card = page.getByRole("region", { name: "Invited to respond" });
  const respondBy = await downloadFrom(page, card.getByRole("link", { name: `Add to calendar (Respond by for Starter home ${token})` }));
  expect(respondBy.download.suggestedFilename()).toBe("respond-by.ics");
  expect(respondBy.text).toContain("DTSTART;TZID=America/Chicago:20271107T090000");
  expect(respondBy.text).toContain("BEGIN:VTIMEZONE");
  await respondBy.download.saveAs(`${SHOTS}/respond-by-${testInfo.project.name}.ics`);
  await shoot(page, testInfo.project.name, "dashboard");

  await page.goto(`/referrals/${referral.id}`);
  const closing = await downloadFrom(page, page.getByRole("link", { name: "Add to calendar (Expected closing)" }));
  expect(closing.download.suggestedFilename()).toBe("referral-dates.ics");
  expect(closing.text).toContain("DTSTART;VALUE=DATE:20270201");
  expect(closing.text).toContain(`SUMMARY:Expected closing: referral with Grace ${token}`);
  await closing.download.saveAs(`${SHOTS}/referral-${testInfo.project.name}.ics`);
  await shoot(page, testInfo.project.name, "referral");
});

test("a member makes a calendar link, and a new link ends the old one", async ({ page, seedAgent, waitForReplica, login }, testInfo) => {
  const maria = seedAgent({ fullName: `Maria ${uniqueToken()}` });
  await waitForReplica();
  await login(maria, { then: "/settings/notifications" });
  await page.getByRole("link", { name: "Get your calendar link" }).click();
  await expect(page.getByRole("heading", { name: "Subscribe to your calendar" })).toBeVisible();
  await page.getByRole("button", { name: "Make my calendar link" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Your new calendar link is ready" })).toBeVisible();
  const field = page.getByLabel(/Add this address to your calendar app/);
  const first = await field.inputValue();
  expect(first).toMatch(/\/calendar\/[0-9a-f]{32}\.[\w-]+\.ics$/);
  const feed = await page.request.get(first);
  expect(feed.status()).toBe(200);
  expect(feed.headers()["content-type"]).toBe("text/calendar; charset=utf-8");
  await shoot(page, testInfo.project.name, "settings-calendar");

  await page.getByRole("button", { name: "Make a new link" }).click();
  await expect(field).not.toHaveValue(first);
  expect((await page.request.get(first)).status()).toBe(404);
  expect((await page.request.get(await field.inputValue())).status()).toBe(200);
});

test("Copy puts the calendar link on the clipboard @needs-js", async ({ page, context, seedAgent, waitForReplica, login }) => {
  await context.grantPermissions(["clipboard-read", "clipboard-write"]);
  const maria = seedAgent({ fullName: `Maria ${uniqueToken()}` });
  await waitForReplica();
  await login(maria, { then: "/settings/calendar" });
  await page.getByRole("button", { name: "Make my calendar link" }).click();
  const url = await page.getByLabel(/Add this address to your calendar app/).inputValue();
  await page.getByRole("button", { name: "Copy" }).click();
  await expect(page.getByText("Copied.")).toBeVisible();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(url);
});
