import { expect, test } from "./support/test";
import { fillQuickRegistration } from "./support/registration";

/**
 * Whether a number can be dialled is checked on the server only (decisions 0018, 0024), after
 * the product's character rule. With JavaScript on or off, a number that passes the rule and
 * cannot be dialled is refused by the server beside its field.
 */
test("a well-formed number no one can dial is refused beside the field, the input kept", async ({ page }) => {
  await page.goto("/register");
  await fillQuickRegistration(page, {
    fullName: "Dana Reyes",
    email: "dana.dial@example.com",
    phone: "(123) 456-7890",
    state: "TX",
    city: "Dallas",
  });
  await page.getByRole("button", { name: "Continue to Profile Setup" }).click();
  await expect(page.getByText("Please enter a valid phone number")).toBeVisible();
  await expect(page.getByLabel("Phone Number")).toHaveAttribute("aria-invalid", "true");
  await expect(page.getByLabel("Phone Number")).toHaveValue("(123) 456-7890");
  await expect(page.getByLabel("Full Name")).toHaveValue("Dana Reyes");
  await expect(page).toHaveURL(/\/register$/);
});
