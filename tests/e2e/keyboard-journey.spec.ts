import { updateAgentRow } from "./support/agents";
import { tabTo } from "./support/keyboard";
import { agentRow, uniqueEmail } from "./support/registration";
import { seedRequests, testRequest, uniqueToken } from "./support/requests";
import { expect, test } from "./fixtures";

const PASSWORD = "Keyboard-only-2025";

/**
 * A new agent's first day with no pointer: Tab and Shift+Tab to move, typing, Space for
 * boxes and Enter for buttons and links. Every stop on the way must show where focus is.
 */
test("register, log in, post, respond, message and log out by keyboard alone", async ({ page, seedAgent, waitForReplica }, testInfo) => {
  test.setTimeout(180_000);
  const token = uniqueToken();
  const poster = seedAgent({ fullName: "Paula Poster" });
  const theirs = testRequest(poster, { title: `Buyer for a ranch near Sherman ${token}` });
  seedRequests([theirs]);
  const email = uniqueEmail("keyboard", testInfo.project.name);

  // Registration, first screen.
  await page.goto("/register");
  await tabTo(page, page.getByLabel("Full Name"));
  await page.keyboard.type("Kay Keyboard");
  await tabTo(page, page.getByLabel("Email Address"));
  await page.keyboard.type(email);
  await tabTo(page, page.getByLabel("Phone Number"));
  await page.keyboard.type("214 555 0199");
  await tabTo(page, page.getByLabel("State"));
  await page.keyboard.type("Texas");
  await expect(page.getByLabel("State")).toHaveValue("TX");
  await tabTo(page, page.getByLabel("City"));
  await page.keyboard.type("Denison");
  await tabTo(page, page.getByRole("button", { name: "Continue to Profile Setup" }));
  await page.keyboard.press("Enter");

  // Payment, then the link to the profile form.
  await expect(page).toHaveURL(/\/payment$/);
  await tabTo(page, page.getByRole("button", { name: "Complete Payment" }));
  await page.keyboard.press("Enter");
  await expect(page).toHaveURL(/\/registration-success$/);
  await tabTo(page, page.getByRole("link", { name: "Complete Your Profile" }));
  await page.keyboard.press("Enter");
  await expect(page).toHaveURL(/\/complete-profile$/);

  // The profile: passwords, license, brokerage and broker, a specialty ticked with Space, a bio.
  await tabTo(page, page.getByLabel("Password", { exact: true }));
  await page.keyboard.type(PASSWORD);
  await tabTo(page, page.getByLabel("Confirm Password"));
  await page.keyboard.type(PASSWORD);
  await tabTo(page, page.getByLabel("License Number", { exact: true }));
  await page.keyboard.type("0655555");
  await tabTo(page, page.getByLabel("Brokerage", { exact: true }));
  await page.keyboard.type("Red River Realty");
  await tabTo(page, page.getByLabel("Broker License Number"));
  await page.keyboard.type("9007777");
  await tabTo(page, page.getByLabel("Broker Email"));
  await page.keyboard.type("broker@redriverrealty.example");
  await tabTo(page, page.getByLabel("Farm and Ranch"));
  await page.keyboard.press("Space");
  await expect(page.getByLabel("Farm and Ranch")).toBeChecked();
  await tabTo(page, page.getByLabel("Professional Bio"));
  await page.keyboard.type("Ranches and lake homes on both banks of the Red River.");
  await tabTo(page, page.getByRole("button", { name: "Create Agent Profile" }));
  await page.keyboard.press("Enter");
  await expect(page).toHaveURL(/\/welcome$/);

  // Staff approve the application in the sheet.
  updateAgentRow(agentRow(email)!.agent.id, { status: "approved" });
  await waitForReplica();

  // Log in from the header's link.
  await page.goto("/");
  await tabTo(page, page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: /Login|Log in/ }));
  await page.keyboard.press("Enter");
  await expect(page).toHaveURL(/\/member-login/);
  await tabTo(page, page.getByLabel("Email Address"));
  await page.keyboard.type(email);
  await tabTo(page, page.getByLabel("Password"));
  await page.keyboard.type(PASSWORD);
  await page.keyboard.press("Enter");
  await expect(page).toHaveURL(/\/member-dashboard/);

  // Post a referral request.
  await tabTo(page, page.getByRole("link", { name: "Post New: Referral Requests" }));
  await page.keyboard.press("Enter");
  await expect(page).toHaveURL(/type=referral/);
  await tabTo(page, page.getByLabel("Request Title"));
  await page.keyboard.type(`Seller moving to Tulsa ${token}`);
  await tabTo(page, page.getByLabel("City/Area"));
  await page.keyboard.type("Tulsa");
  await tabTo(page, page.getByLabel("State"));
  await page.keyboard.type("Oklahoma");
  await tabTo(page, page.getByLabel("Specialty"));
  await page.keyboard.press("ArrowDown");
  await tabTo(page, page.getByLabel("Price Range"));
  await page.keyboard.press("ArrowDown");
  await tabTo(page, page.getByLabel("Description"));
  await page.keyboard.type("A family selling in Denison and buying a home in Tulsa this spring.");
  await tabTo(page, page.getByRole("button", { name: /^Post .* Request$/ }));
  await page.keyboard.press("Enter");
  await expect(page.getByRole("heading", { name: `Seller moving to Tulsa ${token}` })).toBeVisible();

  // Respond to another member's request, typed into the address bar.
  await page.goto(`/referral-requests/${theirs.id}`);
  await tabTo(page, page.getByRole("link", { name: "Respond" }));
  await page.keyboard.press("Enter");
  await expect(page).toHaveURL(/\/respond$/);
  await tabTo(page, page.getByLabel("Your Message"));
  await page.keyboard.type("I work the Sherman ranch market and would be glad to help your buyer.");
  await tabTo(page, page.getByRole("button", { name: "Send Response" }));
  await page.keyboard.press("Enter");
  await expect(page).not.toHaveURL(/\/respond$/);

  // Message the poster from their request.
  await page.goto(`/referral-requests/${theirs.id}`);
  await tabTo(page, page.getByRole("main").getByRole("link", { name: "Message" }));
  await page.keyboard.press("Enter");
  await expect(page).toHaveURL(/\/messages\?/);
  const box = page.getByLabel("Message", { exact: true });
  await tabTo(page, box, { maxStops: 80 });
  await page.keyboard.type("Hello Paula, a quick question about the ranch.");
  await tabTo(page, page.getByRole("button", { name: "Send", exact: true }));
  await page.keyboard.press("Enter");
  await expect(
    page.getByRole("region", { name: /^Conversation with Paula Poster/ }).getByText("Hello Paula, a quick question about the ranch."),
  ).toBeVisible();

  // Log out from the header.
  await page.goto("/member-dashboard");
  await tabTo(
    page,
    page
      .getByRole("banner")
      .getByRole("button", { name: /Logout|Log out/ })
      .first(),
    { maxStops: 20 },
  );
  await page.keyboard.press("Enter");
  await expect(page).toHaveURL(/\/$/);
  await expect(
    page
      .getByRole("banner")
      .getByRole("link", { name: /Login|Log in/ })
      .first(),
  ).toBeVisible();
});
