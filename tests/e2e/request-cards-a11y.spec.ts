import AxeBuilder from "@axe-core/playwright";
import { expect, test } from "./fixtures";
import { seedRequests, testRequest } from "./support/requests";

// What Lighthouse's accessibility audit found on the request cards: the NEW badge's
// contrast, and the dashboard card's details list nesting a div inside a div.
const RULES = ["color-contrast", "definition-list", "dlitem"];

test.describe("request cards under axe", () => {
  // axe runs as a script in the page, so this needs JavaScript; the markup it checks is the same without.
  test("a new request's card passes contrast and list structure on the dashboard and the requests page @needs-js", async ({
    page,
    seedAgent,
    waitForReplica,
    login,
  }) => {
    const member = seedAgent({ fullName: "Axel Auditor" });
    const other = seedAgent({ fullName: "Nora Newpost" });
    seedRequests([testRequest(other, { hoursAgo: 1 })]);
    await waitForReplica();
    await login(member);

    for (const path of ["/member-dashboard", "/referral-requests"]) {
      await page.goto(path);
      await expect(page.getByText("NEW", { exact: true }).first()).toBeVisible();
      const { violations } = await new AxeBuilder({ page }).withRules(RULES).analyze();
      expect(
        violations.map((violation) => `${path} ${violation.id}: ${violation.nodes.map((node) => node.target.join(" ")).join(", ")}`),
      ).toEqual([]);
    }
  });
});
