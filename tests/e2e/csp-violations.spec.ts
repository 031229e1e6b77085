import { expect, test } from "@playwright/test";

// A Content-Security-Policy violation is logged in the browser's Issues panel, which
// Lighthouse counts against best practices even when the page works. Form pages load
// zod, whose eval probe once was such a violation.
test.describe("content security policy", () => {
  test("pages with forms run their scripts without a policy violation @needs-js", async ({ page }) => {
    await page.addInitScript(() => {
      document.addEventListener("securitypolicyviolation", (event) => {
        const seen = ((window as unknown as { cspViolations?: string[] }).cspViolations ??= []);
        seen.push(`${event.violatedDirective} ${event.blockedURI} ${event.sourceFile}`);
      });
    });
    for (const path of ["/member-login", "/contact", "/register", "/forgot-password"]) {
      await page.goto(path);
      await page.waitForLoadState("networkidle");
      const violations = await page.evaluate(() => (window as unknown as { cspViolations?: string[] }).cspViolations ?? []);
      expect(violations, path).toEqual([]);
    }
  });
});
