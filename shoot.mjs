import { chromium } from "@playwright/test";
const base = "http://127.0.0.1:4600";
const browser = await chromium.launch({ executablePath: "/usr/bin/chromium", args: ["--no-sandbox", "--disable-gpu"] });
const pages = process.argv.slice(2);
for (const width of [390, 1280]) {
  const context = await browser.newContext({ viewport: { width, height: 900 } });
  const page = await context.newPage();
  await page.goto(base + "/member-login");
  await page.getByLabel("Email").fill("maria.delgado@demo.example");
  await page.getByLabel("Password", { exact: true }).fill("DemoPass123");
  await page.locator("form button[type=submit]").last().click();
  await page.waitForURL(/dashboard/);
  for (const path of pages) {
    await page.goto(base + path);
    await page.waitForTimeout(700);
    const name = path.replace(/[^a-z0-9]+/gi, "_").slice(0, 60);
    await page.screenshot({ path: `/tmp/shots/${name}-${width}.png`, fullPage: true });
  }
  await context.close();
}
await browser.close();
