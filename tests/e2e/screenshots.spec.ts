import { expect, test } from "./fixtures";
import { screenshotForPeople } from "./support/screenshots";

/** The phone menu, open, for people to look at (every page's shots come from every-page.spec.ts). */
test("mobile menu open at 390px", async ({ page }, testInfo) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto("/");
  await page.getByLabel("Menu").click();
  await expect(page.getByRole("navigation", { name: "Mobile" })).toBeVisible();
  await screenshotForPeople(page, testInfo, "home-menu-390");
});
