import { chromium } from "@playwright/test";
const base = "http://127.0.0.1:4600";
const browser = await chromium.launch({ executablePath: "/usr/bin/chromium", args: ["--no-sandbox", "--disable-gpu"] });
const [path, selector, width, login] = process.argv.slice(2);
const context = await browser.newContext({ viewport: { width: Number(width), height: 900 } });
const page = await context.newPage();
if (login !== "no") {
  await page.goto(base + "/member-login");
  await page.getByLabel("Email").fill("maria.delgado@demo.example");
  await page.getByLabel("Password", { exact: true }).fill("DemoPass123");
  await page.locator("form button[type=submit]").last().click();
  await page.waitForURL(/dashboard/);
}
await page.goto(base + path);
await page.waitForTimeout(500);
await page.locator(selector).first().screenshot({ path: `/tmp/shots/el-${width}.png` });
await browser.close();
