import { expect, test } from "./fixtures";
import { PRODUCT_NAME, WHY_PATH } from "../../app/domain/product";
import { e2eHealthHeaders } from "./support/env";

test.describe("header", () => {
  test("has the product name, Why, Support, Member Login and Join FREE, and no Dashboard when logged out", async ({ page }) => {
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.goto("/contact");
    const banner = page.getByRole("banner");
    await expect(banner.getByRole("link", { name: PRODUCT_NAME, exact: true })).toHaveAttribute("href", "/");

    const nav = page.getByRole("navigation", { name: "Main" });
    await expect(nav.getByRole("link")).toHaveText([`Why ${PRODUCT_NAME}`, "Support", "Member Login", "Join FREE"]);
    await expect(nav.getByRole("link", { name: `Why ${PRODUCT_NAME}` })).toHaveAttribute("href", WHY_PATH);
    await expect(nav.getByRole("link", { name: "Support" })).toHaveAttribute("href", "/contact");
    await expect(nav.getByRole("link", { name: "Member Login" })).toHaveAttribute("href", "/member-login");
    await expect(nav.getByRole("link", { name: "Join FREE" })).toHaveAttribute("href", "/register");
    await expect(page.getByRole("link", { name: "Dashboard" })).toHaveCount(0);
    await expect(page.getByLabel("Menu")).toBeHidden();
  });
});

test.describe("mobile menu at 390 px", () => {
  test.use({ viewport: { width: 390, height: 844 } });

  test("opens and navigates, with or without JavaScript", async ({ page, javaScriptEnabled }) => {
    await page.goto("/");
    await expect(page.getByRole("navigation", { name: "Main" })).toBeHidden();
    const mobileNav = page.getByRole("navigation", { name: "Mobile" });
    await expect(mobileNav).toBeHidden();

    await page.getByLabel("Menu").click();
    await expect(mobileNav).toBeVisible();
    await expect(mobileNav.getByRole("link")).toHaveText([`Why ${PRODUCT_NAME}`, "Support", "Member Login", "Join FREE"]);

    await mobileNav.getByRole("link", { name: "Support" }).click();
    await expect(page).toHaveURL(/\/contact$/);
    await expect(page.getByRole("heading", { level: 1, name: "Contact Support" })).toBeVisible();
    if (javaScriptEnabled) {
      // A client-side navigation keeps the header: the menu must not stay open over the new page.
      await expect(mobileNav).toBeHidden();
    }

    await page.getByLabel("Menu").click();
    await mobileNav.getByRole("link", { name: `Why ${PRODUCT_NAME}` }).click();
    await expect(page).toHaveURL(new RegExp(`${WHY_PATH}$`));
    await expect(page.getByRole("heading", { level: 1, name: `Why ${PRODUCT_NAME}` })).toBeVisible();
  });

  test("closes again from its button", async ({ page }) => {
    await page.goto("/");
    const mobileNav = page.getByRole("navigation", { name: "Mobile" });
    await page.getByLabel("Menu").click();
    await expect(mobileNav).toBeVisible();
    await page.getByLabel("Menu").click();
    await expect(mobileNav).toBeHidden();
  });
});

test.describe("skip link", () => {
  test("is the first stop of the keyboard and moves focus to the main content", async ({ page }) => {
    await page.goto("/privacy-policy");
    await page.keyboard.press("Tab");
    const skip = page.getByRole("link", { name: "Skip to main content" });
    await expect(skip).toBeFocused();
    await expect(skip).toBeInViewport();
    await page.keyboard.press("Enter");
    await expect(page).toHaveURL(/#main$/);
    await expect(page.getByRole("main")).toBeFocused();
  });
});

test.describe("footer", () => {
  test("lists the product's items", async ({ page }) => {
    await page.goto("/");
    const footer = page.getByRole("contentinfo");
    await expect(footer.getByRole("heading", { name: PRODUCT_NAME })).toBeVisible();
    await expect(footer).toContainText("Verified agents only, direct referral connections and built-in messaging.");

    const social = footer.getByRole("list", { name: "Social media" }).getByRole("listitem");
    await expect(social).toHaveCount(3);
    await expect(social).toContainText(["Facebook", "LinkedIn", "Instagram"]);
    await expect(social.getByRole("link")).toHaveCount(0);

    const links: Array<[string, string]> = [
      ["Join FREE", "/register"],
      ["Member Login", "/member-login"],
      ["Texas Agents", "/directory?state=TX"],
      ["Oklahoma Agents", "/directory?state=OK"],
      ["Contact Support", "/contact"],
      ["Agent Help Center", "/contact"],
      ["Privacy Policy", "/privacy-policy"],
      ["Terms of Service", "/terms-of-service"],
    ];
    for (const [name, href] of links) {
      await expect(footer.getByRole("link", { name, exact: true })).toHaveAttribute("href", href);
    }
    await expect(footer).toContainText(`© 2024 ${PRODUCT_NAME}`);
  });

  test("leads to the legal pages", async ({ page }) => {
    await page.goto("/");
    await page.getByRole("contentinfo").getByRole("link", { name: "Terms of Service" }).click();
    await expect(page.getByRole("heading", { level: 1, name: "Terms of Service" })).toBeVisible();
    await page.getByRole("contentinfo").getByRole("link", { name: "Privacy Policy" }).click();
    await expect(page.getByRole("heading", { level: 1, name: "Privacy Policy" })).toBeVisible();
  });
});

test.describe("not found", () => {
  test("answers 404 with the not-found page", async ({ page, request }) => {
    const raw = await request.get("/no-such-page");
    expect(raw.status()).toBe(404);
    expect(await raw.text()).toContain("Page not found");

    const response = await page.goto("/no-such-page");
    expect(response?.status()).toBe(404);
    await expect(page.getByRole("heading", { level: 1, name: "Page not found" })).toBeVisible();
    await page.getByRole("main").getByRole("link", { name: "Back to Home" }).click();
    await expect(page.getByRole("heading", { level: 1, name: "Agent Referral Network" })).toBeVisible();
  });
});

test.describe("generic error screen", () => {
  test("is the root error boundary's answer to a request the app cannot serve @server-only", async ({ request }) => {
    // The home page takes no form posts, so a post to it fails inside the app and reaches the root boundary.
    const response = await request.post("/", { form: { anything: "1" } });
    expect(response.status()).toBe(405);
    const html = await response.text();
    expect(html).toContain("Something went wrong");
    expect(html).toContain("We encountered an unexpected error. Please try refreshing the page.");
    expect(html).toMatch(/<a href="\/" class="btn-primary[^"]*">Refresh Page<\/a>/);
  });
});

test.describe("health check", () => {
  test("answers 200 JSON, only ok or degraded without the token @server-only", async ({ request }) => {
    const response = await request.get("/healthz");
    expect(response.status()).toBe(200);
    expect(response.headers()["content-type"]).toContain("application/json");
    expect(await response.json()).toEqual({ status: "ok" });
  });

  test("shows the store's details with the token @server-only", async ({ request }) => {
    const response = await request.get("/healthz", { headers: e2eHealthHeaders });
    expect(await response.json()).toMatchObject({ status: "ok", store: { driver: "sqlite" } });
  });
});

test.describe("security headers", () => {
  for (const path of ["/", WHY_PATH, "/privacy-policy", "/welcome"]) {
    test(`${path} carries a nonce CSP matching its scripts, nosniff and a framing rule @server-only`, async ({ request }) => {
      const response = await request.get(path);
      const headers = response.headers();
      const csp = headers["content-security-policy"] ?? "";
      const nonce = /'nonce-([^']+)'/.exec(csp)?.[1];
      expect(nonce, "a nonce in the Content-Security-Policy").toBeTruthy();
      expect(csp).toContain("frame-ancestors 'none'");
      expect(headers["x-frame-options"]?.toUpperCase()).toBe("DENY");
      expect(headers["x-content-type-options"]).toBe("nosniff");

      const html = await response.text();
      const scripts = [...html.matchAll(/<script\b[^>]*>/g)].map((match) => match[0]);
      // A visitor gets the public pages without scripts (decision 0085); the welcome page has them.
      expect(scripts.length > 0).toBe(path === "/welcome");
      for (const script of scripts) expect(script).toContain(`nonce="${nonce}"`);
    });
  }

  test("draws a new nonce for every response @server-only", async ({ request }) => {
    const nonceOf = async () => /'nonce-([^']+)'/.exec((await request.get("/")).headers()["content-security-policy"] ?? "")?.[1];
    expect(await nonceOf()).not.toBe(await nonceOf());
  });
});
