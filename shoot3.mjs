import { chromium } from "@playwright/test";
const base = "http://127.0.0.1:4600";
const browser = await chromium.launch({ executablePath: "/usr/bin/chromium", args: ["--no-sandbox", "--disable-gpu"] });
for (const width of [390, 1280]) {
const context = await browser.newContext({ viewport: { width, height: 900 } });
const page = await context.newPage();
await page.goto(base + "/broker");
await page.getByLabel("License issued by").selectOption({ label: "Oklahoma (OREC)" });
await page.getByLabel("Broker license number").fill("193600");
await page.getByLabel("Email Address").fill("broker@redbudrealtygroup.demo.example");
await page.getByRole("button", { name: "Send Me a Link" }).click();
await page.waitForTimeout(1500);
await page.screenshot({ path: `/tmp/shots/broker-sent-${width}.png`, fullPage: true });
await page.goto(base + "/dev/outbox");
const text = await page.locator("body").innerText();
const m = /(http\S+\/broker\/view\?token=\S+)/.exec(text);
console.log(m ? "link found" : text.slice(0, 500));
if (m) { await page.goto(m[1]); await page.waitForTimeout(800); await page.screenshot({ path: `/tmp/shots/broker-view-${width}.png`, fullPage: true }); }
await context.close();
}
await browser.close();
