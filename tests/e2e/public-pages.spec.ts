import type { APIRequestContext, Locator } from "@playwright/test";
import { expect, test } from "./fixtures";
import { PRODUCT_NAME, WHY_PATH } from "../../app/domain/product";

/** Checks the server's own HTML, as a browser without JavaScript gets it: the text is there before any script. */
async function expectServerRendered(request: APIRequestContext, path: string, texts: string[]) {
  const response = await request.get(path);
  expect(response.status()).toBe(200);
  expect(response.headers()["content-type"]).toContain("text/html");
  const html = await response.text();
  // A visitor's public page has no script at all (decision 0085).
  const firstScript = html.includes("<script") ? html.indexOf("<script") : html.length;
  for (const text of texts) {
    const at = html.indexOf(text);
    expect(at, `"${text}" in the HTML of ${path}`).toBeGreaterThan(-1);
    expect(at, `"${text}" before the first script of ${path}`).toBeLessThan(firstScript);
  }
}

/**
 * Waits until React has hydrated the element (it then carries React's own properties), so
 * the effects that start its timers have run before the test moves the page's clock on.
 */
async function expectHydrated(element: Locator) {
  await expect.poll(() => element.evaluate((node) => Object.keys(node).some((key) => key.startsWith("__reactFiber$")))).toBe(true);
}

test.describe("every public page", () => {
  for (const path of ["/", WHY_PATH, "/privacy-policy", "/terms-of-service", "/welcome"]) {
    test(`${path} loads without script or console errors`, async ({ page }) => {
      const problems: string[] = [];
      page.on("console", (message) => {
        if (message.type() === "error") problems.push(message.text());
      });
      page.on("pageerror", (error) => problems.push(error.message));
      await page.goto(path, { waitUntil: "networkidle" });
      await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
      expect(problems).toEqual([]);
    });
  }
});

/** The pages a visitor gets without scripts (decision 0085). */
const PAGES_WITHOUT_SCRIPTS = ["/", WHY_PATH, "/privacy-policy", "/terms-of-service", "/directory?q=a&state=TX"];
const SCRIPT = /<script|rel="modulepreload"/;

test.describe("scripts", () => {
  test("a visitor gets the public pages without any script, a member gets them with their scripts @server-only", async ({
    request,
    workerMember,
  }) => {
    const cookie = workerMember.cookies.map(({ name, value }) => `${name}=${value}`).join("; ");
    for (const path of PAGES_WITHOUT_SCRIPTS) {
      const visitors = await request.get(path);
      expect(visitors.status(), path).toBe(200);
      expect((await visitors.text()).match(SCRIPT), `a script in the visitor's ${path}`).toBeNull();
      const members = await request.get(path, { headers: { Cookie: cookie } });
      expect(await members.text(), `the member's ${path}`).toMatch(/<script [^>]*type="module"/);
    }
    // A page with something for scripts to do keeps them for a visitor.
    expect(await (await request.get("/member-login")).text()).toMatch(/<script [^>]*type="module"/);
  });
});

test.describe("home", () => {
  test("is rendered by the server @server-only", async ({ request }) => {
    await expectServerRendered(request, "/", [
      "Agent Referral Network",
      "Founder Access",
      "Claim Your FREE Founder Access",
      "Growing Network",
      "FREE Founder Access",
      "TX &amp; OK Markets Covered",
      "Verified Agents Only",
      "Direct Referral Connections",
      "Texas and Oklahoma Network",
      "Built-in Referral Messaging",
    ]);
  });

  test("shows the hero, the founder card, the highlights, the features and the call to action", async ({ page }) => {
    await page.goto("/");
    await expect(page.getByRole("heading", { level: 1, name: "Agent Referral Network" })).toBeVisible();

    const hero = page.locator("section", { has: page.getByRole("heading", { level: 1 }) });
    await expect(hero.getByRole("link", { name: "Claim Your FREE Founder Access" })).toHaveAttribute("href", "/register");
    await expect(hero.getByRole("link", { name: "Member Login" })).toHaveAttribute("href", "/member-login");

    const founderCard = page.getByRole("region", { name: "Founder Access" });
    await expect(founderCard).toContainText("FREE lifetime membership for the first 100 agents");
    // Other tests register agents in parallel, so only the shape of the count is fixed here;
    // tests/integration/home-route.test.ts checks the number against the store.
    await expect(page.getByTestId("founder-spots")).toContainText(/\b\d{1,3} of 100 founder spots left/);

    const highlights = page.getByRole("region", { name: "Highlights" }).getByRole("heading", { level: 3 });
    await expect(highlights).toHaveText(["Growing Network", "FREE Founder Access", "TX & OK Markets Covered"]);

    const features = page.getByRole("region", { name: "Built for agent-to-agent referrals" }).getByRole("heading", { level: 3 });
    await expect(features).toHaveText([
      "Verified Agents Only",
      "Direct Referral Connections",
      "Texas and Oklahoma Network",
      "Built-in Referral Messaging",
    ]);

    const cta = page.getByRole("region", { name: /Grow your referral business/ });
    await expect(cta.getByRole("link", { name: "Join FREE Today" })).toHaveAttribute("href", "/register");
  });
});

test.describe("why page", () => {
  test("is rendered by the server at the product's address @server-only", async ({ request }) => {
    expect(WHY_PATH).toBe("/why-red-river-referrals");
    await expectServerRendered(request, WHY_PATH, [
      `Why ${PRODUCT_NAME}`,
      "Membership and pricing",
      "one-time lifetime fee",
      "$10 for a founder membership, $25 for a regular membership",
      "Refunds are handled case by case within 30 days of payment",
    ]);
  });

  test("is reached from the header and keeps the pricing wording beside the free founder offer", async ({ page }) => {
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.goto("/");
    await page
      .getByRole("navigation", { name: "Main" })
      .getByRole("link", { name: `Why ${PRODUCT_NAME}` })
      .click();
    await expect(page).toHaveURL(WHY_PATH);
    await expect(page.getByRole("heading", { level: 1, name: `Why ${PRODUCT_NAME}` })).toBeVisible();
    await expect(page).toHaveTitle(new RegExp(`Why ${PRODUCT_NAME}`));

    const pricing = page.getByRole("region", { name: "Membership and pricing" });
    await expect(pricing).toContainText(`Founder access is FREE for life for the first 100 agents`);
    await expect(pricing.getByRole("listitem").filter({ hasText: "Founder Membership" })).toContainText("$10");
    await expect(pricing.getByRole("listitem").filter({ hasText: "Regular Membership" })).toContainText("$25");
    await expect(page.getByRole("link", { name: "Join FREE" }).last()).toHaveAttribute("href", "/register");
  });
});

/** Today in the markets' time zone, like "November 21, 2026"; a request straddling midnight may show either day. */
function effectiveDates(before: Date, after: Date): RegExp {
  const format = new Intl.DateTimeFormat("en-US", { dateStyle: "long", timeZone: "America/Chicago" });
  const days = new Set([format.format(before), format.format(after)]);
  return new RegExp(`Effective date: (${[...days].join("|")})`);
}

const privacySections = [
  "Information We Collect",
  "How We Use Your Information",
  "How We Share Information",
  "Data Security",
  "Your Rights and Choices",
  "Cookies",
  "Data Retention",
  "Children’s Privacy",
  "International Users",
  "Changes to This Policy",
  "Contact Us",
];

const termsSections = [
  "Eligibility",
  "Membership, Fees and Refunds",
  "Referral Agreements Between Agents",
  "Acceptable Use",
  "Account Termination",
  "Disclaimers",
  "Limitation of Liability",
  "Governing Law",
  "Changes to These Terms",
  "Contact Us",
];

test.describe("privacy policy", () => {
  test("is rendered by the server with every section @server-only", async ({ request }) => {
    await expectServerRendered(request, "/privacy-policy", ["Privacy Policy", ...privacySections]);
  });

  test("is dated today and names the privacy contact, children and age rules", async ({ page }) => {
    const before = new Date();
    await page.goto("/privacy-policy");
    const after = new Date();
    await expect(page.getByRole("heading", { level: 1, name: "Privacy Policy" })).toBeVisible();
    await expect(page.getByText(/Effective date:/)).toHaveText(effectiveDates(before, after));

    const headings = page.locator("article").getByRole("heading", { level: 2 });
    for (const section of privacySections) await expect(headings.filter({ hasText: section })).toHaveCount(1);

    const article = page.locator("article");
    await expect(article).toContainText("We do not knowingly collect personal information from children under 13");
    await expect(article).toContainText("members must be at least 18");
    await expect(article).toContainText("We answer privacy queries within 30 days");
    const contact = page.getByRole("region", { name: /Contact Us/ });
    await expect(contact.getByRole("link", { name: "privacy@redriverreferrals.com" })).toHaveAttribute(
      "href",
      "mailto:privacy@redriverreferrals.com",
    );
  });

  test("links each section from its contents", async ({ page }) => {
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.goto("/privacy-policy");
    await page.getByRole("navigation", { name: "Contents" }).getByRole("link", { name: "Cookies" }).click();
    await expect(page).toHaveURL(/#cookies$/);
    await expect(page.getByRole("heading", { name: "Cookies" })).toBeInViewport();
  });
});

test.describe("terms of service", () => {
  test("is rendered by the server with every section @server-only", async ({ request }) => {
    await expectServerRendered(request, "/terms-of-service", ["Terms of Service", ...termsSections]);
  });

  test("is dated today and keeps eligibility, pricing, governing law and the support contact", async ({ page }) => {
    const before = new Date();
    await page.goto("/terms-of-service");
    const after = new Date();
    await expect(page.getByRole("heading", { level: 1, name: "Terms of Service" })).toBeVisible();
    await expect(page.getByText(/Effective date:/)).toHaveText(effectiveDates(before, after));

    const headings = page.locator("article").getByRole("heading", { level: 2 });
    for (const section of termsSections) await expect(headings.filter({ hasText: section })).toHaveCount(1);

    await expect(page.getByRole("region", { name: /Eligibility/ })).toContainText("are at least 18 years old");
    await expect(page.getByRole("region", { name: /Eligibility/ })).toContainText("State of Texas or the State of Oklahoma");
    const membership = page.getByRole("region", { name: /Membership, Fees and Refunds/ });
    await expect(membership).toContainText("FREE lifetime founder access");
    await expect(membership).toContainText("one-time lifetime fee: $10 for a founder membership and $25 for a regular membership");
    await expect(membership).toContainText("considered case by case within 30 days of payment");
    await expect(page.getByRole("region", { name: /Referral Agreements/ })).toContainText("made directly between the agents involved");
    await expect(page.getByRole("region", { name: /Governing Law/ })).toContainText("laws of the State of Texas");
    const contact = page.getByRole("region", { name: /Contact Us/ });
    await expect(contact.getByRole("link", { name: "support@example.test" })).toHaveAttribute("href", "mailto:support@example.test");
  });
});

test.describe("welcome", () => {
  const steps = ["Profile Under Review", "Approval Notification", "Start Networking", "Earn Referral Income"];

  test("is rendered by the server @server-only", async ({ request }) => {
    await expectServerRendered(request, "/welcome", [...steps, "In Progress", "Coming Soon", "Go to Member Login"]);
  });

  test("lists the four steps, the login note and the support links", async ({ page }) => {
    await page.goto("/welcome");
    const list = page.getByRole("list", { name: "Your next steps" });
    const items = list.getByRole("listitem");
    await expect(items).toHaveCount(4);
    for (const [index, step] of steps.entries()) {
      await expect(items.nth(index)).toContainText(step);
      await expect(items.nth(index)).toContainText(index === 0 ? "In Progress" : "Coming Soon");
    }
    await expect(page.getByRole("region", { name: "Your login credentials" })).toContainText(
      "log in with the e-mail address and password you chose during registration",
    );
    await page.getByRole("link", { name: "Go to Member Login" }).click();
    await expect(page).toHaveURL(/\/member-login$/);
  });

  test("offers e-mail support, and phone support only when a number is configured", async ({ page }) => {
    await page.goto("/welcome");
    const help = page.getByRole("region", { name: "Need help?" });
    await expect(help.getByRole("link", { name: /support@example\.test/ })).toHaveAttribute("href", "mailto:support@example.test");
    await expect(help.locator('a[href^="tel:"]')).toHaveCount(0);
  });

  test("highlights the first step, then moves the highlight every 3 seconds when JavaScript runs", async ({ page, javaScriptEnabled }) => {
    await page.clock.install();
    await page.goto("/welcome");
    const list = page.getByRole("list", { name: "Your next steps" });
    const items = list.getByRole("listitem");
    await expect(items.nth(0)).toHaveAttribute("data-highlighted", "true");
    await expect(items.nth(1)).toHaveAttribute("data-highlighted", "false");
    if (javaScriptEnabled) await expectHydrated(list);
    await page.clock.runFor(3_500);
    if (javaScriptEnabled) {
      await expect(items.nth(1)).toHaveAttribute("data-highlighted", "true");
      await expect(items.nth(0)).toHaveAttribute("data-highlighted", "false");
    } else {
      await expect(items.nth(0)).toHaveAttribute("data-highlighted", "true");
    }
  });

  test("keeps the highlight still for people who ask for reduced motion", async ({ page, javaScriptEnabled }) => {
    await page.emulateMedia({ reducedMotion: "reduce" });
    await page.clock.install();
    await page.goto("/welcome");
    const list = page.getByRole("list", { name: "Your next steps" });
    if (javaScriptEnabled) await expectHydrated(list);
    await page.clock.runFor(3_500);
    await expect(list.getByRole("listitem").first()).toHaveAttribute("data-highlighted", "true");
  });
});
