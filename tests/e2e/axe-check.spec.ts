import { axeViolations, expect, test } from "./support/test";

/**
 * The shared check itself, in both projects: a page given a known violation (no
 * language on its html element, which hydration leaves as served) is reported, so a clean result means axe really ran,
 * with JavaScript off too. The page is opened in a context of its own, which the
 * every-page check of the test's context does not watch.
 */
test("the accessibility check reports a known violation, JavaScript on or off", async ({ browser, baseURL, javaScriptEnabled }) => {
  const context = await browser.newContext({ baseURL, javaScriptEnabled });
  const page = await context.newPage();
  await page.route("**/contact", async (route) => {
    const response = await route.fetch();
    const html = (await response.text()).replace('<html lang="en"', "<html");
    await route.fulfill({ response, body: html });
  });
  await page.goto("/contact");
  const violations = await axeViolations(page);
  expect(violations.map((violation) => violation.id)).toContain("html-has-lang");
  await context.close();
});
