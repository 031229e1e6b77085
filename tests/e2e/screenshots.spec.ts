import { expect, test } from "./support/test";
import { WHY_PATH } from "../../app/domain/product";

/**
 * Full-page screenshots of every public page on a desktop and a phone, kept in
 * test-results/screenshots for people to look at; each shot also checks that
 * nothing makes the page scroll sideways.
 */
const pages = [
  { name: "home", path: "/" },
  { name: "why", path: WHY_PATH },
  { name: "contact", path: "/contact" },
  { name: "contact-sent", path: "/contact/sent" },
  { name: "privacy-policy", path: "/privacy-policy" },
  { name: "terms-of-service", path: "/terms-of-service" },
  { name: "welcome", path: "/welcome" },
  { name: "not-found", path: "/no-such-page" },
];
const widths = [1280, 390];

for (const { name, path } of pages) {
  for (const width of widths) {
    test(`${name} at ${width}px`, async ({ page }, testInfo) => {
      await page.setViewportSize({ width, height: 900 });
      // Freezes the welcome page's rotating highlight on its first step, so shots are repeatable.
      await page.emulateMedia({ reducedMotion: "reduce" });
      await page.goto(path);
      await expect(page.locator("h1")).toBeVisible();

      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
      expect(overflow, "page scrolls sideways").toBeLessThanOrEqual(0);

      const suffix = testInfo.project.name === "js-on" ? "" : `-${testInfo.project.name}`;
      await page.screenshot({ path: `test-results/screenshots/${name}-${width}${suffix}.png`, fullPage: true });
    });
  }
}

test("mobile menu open at 390px", async ({ page }, testInfo) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto("/");
  await page.getByLabel("Menu").click();
  await expect(page.getByRole("navigation", { name: "Mobile" })).toBeVisible();
  const suffix = testInfo.project.name === "js-on" ? "" : `-${testInfo.project.name}`;
  await page.screenshot({ path: `test-results/screenshots/home-menu-390${suffix}.png` });
});
