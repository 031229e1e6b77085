import { expect, type Page } from "@playwright/test";
import sharp from "sharp";
import { parseRow } from "../../../app/domain/workbook/rows";
import { AGENTS_TAB, type Agent } from "../../../app/domain/workbook/tabs";
import { withStoreFile } from "./store-file";

/** Invitation codes the e2e server is started with (playwright.config.ts). */
export const E2E_VIP_CODE = "Gold2025";

/** An address no other test uses, so parallel tests never collide in the shared store. */
export function uniqueEmail(label: string, projectName: string): string {
  return `${label}-${projectName}-${Date.now()}-${Math.random().toString(36).slice(2, 8)}@example.com`;
}

export type QuickDetails = { fullName: string; email: string; phone: string; state: "TX" | "OK"; city: string };

export async function fillQuickRegistration(page: Page, details: QuickDetails): Promise<void> {
  await page.getByLabel("Full Name").fill(details.fullName);
  await page.getByLabel("Email Address").fill(details.email);
  await page.getByLabel("Phone Number").fill(details.phone);
  await page.getByLabel("State").selectOption(details.state);
  await page.getByLabel("City").fill(details.city);
}

/** From /register through payment to the profile completion form. */
export async function reachProfileForm(page: Page, details: QuickDetails, registerPath = "/register"): Promise<void> {
  await page.goto(registerPath);
  await fillQuickRegistration(page, details);
  await page.getByRole("button", { name: "Continue to Profile Setup" }).click();
  await expect(page).toHaveURL(/\/payment$/);
  await page.getByRole("button", { name: "Complete Payment" }).click();
  await expect(page).toHaveURL(/\/registration-success$/);
  await page.getByRole("link", { name: "Complete Your Profile" }).click();
  await expect(page).toHaveURL(/\/complete-profile$/);
}

export async function fillProfile(page: Page, password: string): Promise<void> {
  await page.getByLabel("Password", { exact: true }).fill(password);
  await page.getByLabel("Confirm Password").fill(password);
  await page.getByLabel("License Number", { exact: true }).fill("0654321");
  await page.getByLabel("Brokerage", { exact: true }).fill("Lone Star Realty");
  await page.getByLabel("Broker License Number").fill("9001234");
  await page.getByLabel("Broker Email").fill("broker@lonestar.example");
  await page.getByLabel("Luxury").check();
  await page.getByLabel("Farm and Ranch").check();
  await page.getByLabel("Professional Bio").fill("Twenty years selling ranches along the Red River.");
}

/** A real JPEG, made on the spot. */
export async function jpegFile(name = "me.jpg"): Promise<{ name: string; mimeType: string; buffer: Buffer }> {
  const buffer = await sharp({ create: { width: 900, height: 600, channels: 3, background: { r: 180, g: 30, b: 30 } } })
    .jpeg()
    .toBuffer();
  return { name, mimeType: "image/jpeg", buffer };
}

/** A text file renamed to look like a JPEG. */
export function renamedTextFile(): { name: string; mimeType: string; buffer: Buffer } {
  return { name: "photo.jpg", mimeType: "image/jpeg", buffer: Buffer.from("This is a text file, not a picture.\n") };
}

/** The agent's row as the store holds it: raw cells, and the record they read as. */
export function agentRow(email: string): { cells: Record<string, string>; agent: Agent } | undefined {
  return withStoreFile((db) => {
    const cells = db.prepare(`SELECT * FROM "${AGENTS_TAB.name}" WHERE lower(email) = lower(?)`).get(email) as
      Record<string, string> | undefined;
    if (!cells) return undefined;
    const parsed = parseRow(AGENTS_TAB, cells);
    if (parsed.ok !== true) throw new Error(`Agent row for ${email} does not read: ${JSON.stringify(parsed)}`);
    return { cells, agent: parsed.record };
  });
}
