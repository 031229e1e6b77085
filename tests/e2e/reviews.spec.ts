import type { Page } from "@playwright/test";
import { agentIdOf } from "../../app/domain/agent-id";
import { expect, test } from "./fixtures";
import { seedReferral } from "./support/referrals";
import { uniqueToken } from "./support/requests";
import { lookAtEachWidth } from "./support/widths";

/** Chooses `stars` in the star rating named `legend`: a radio group, so it works with or without scripts. */
async function rate(page: Page, legend: string | RegExp, stars: number) {
  const group = page.getByRole("group", { name: legend });
  await group.locator(`label[for$="-${stars}"]`).click();
  await expect(group.getByRole("radio", { name: stars === 1 ? "1 star" : `${stars} stars` })).toBeChecked();
}

// Each flow is walked once per JavaScript mode; the pages it reaches are looked at on a phone and a desktop.
test.describe("reviews", () => {
  test("a party writes a review, sees the other's once both are written, and replies to it", async ({
    page,
    seedAgent,
    waitForReplica,
    login,
  }, testInfo) => {
    const token = uniqueToken();
    const ann = seedAgent({ fullName: "Ann Archer" });
    const bob = seedAgent({ fullName: "Bob Brooks" });
    const referral = seedReferral(ann, bob, { clientName: `${token} client`, status: "fee_received" });
    await waitForReplica();
    await login(ann);

    // The dashboard lists the review to write; the link leads to its form.
    const toWrite = page.getByRole("region", { name: "Reviews to write" });
    const link = toWrite.getByRole("link", { name: "Review Bob Brooks" });
    await expect(link).toHaveAttribute("href", `/referrals/${referral.id}/review`);
    await link.click();
    // A click while the dashboard is still loading its scripts may take a while to lead on, on a busy machine.
    await expect(page).toHaveURL(`/referrals/${referral.id}/review`, { timeout: 15_000 });
    await expect(page.getByRole("heading", { level: 1, name: "Review Bob Brooks" })).toBeVisible();

    // Nothing chosen: a message beside each rating, the text kept.
    await page.getByLabel("Review text").fill(`Ann on Bob ${token}`);
    await rate(page, /^Overall/, 4);
    await page.getByRole("button", { name: "Submit review" }).click();
    await expect(page.getByText("Please rate the communication from 1 to 5 stars")).toBeVisible();
    await expect(page.getByText("Please rate how the fee was handled from 1 to 5 stars")).toBeVisible();
    await expect(page.getByLabel("Review text")).toHaveValue(`Ann on Bob ${token}`);
    await expect(page.getByRole("group", { name: /^Overall/ }).getByRole("radio", { name: "4 stars" })).toBeChecked();
    await lookAtEachWidth(page, testInfo);

    await rate(page, "Communication", 5);
    await rate(page, "Care of the client", 4);
    await rate(page, "Fee handled as agreed", 5);
    await page.getByRole("button", { name: "Submit review" }).click();
    await expect(page.getByRole("status")).toHaveText("Saved.");
    await expect(page.getByText(/Your review stays hidden until Bob Brooks writes theirs/)).toBeVisible();
    await lookAtEachWidth(page, testInfo, { shot: "review-written" });

    // Bob does not see it before writing his own.
    await page.context().clearCookies();
    await login(bob, { then: `/referrals/${referral.id}/review` });
    await expect(page.getByRole("heading", { name: "Ann Archer's review of you" })).toHaveCount(0);
    await expect(page.getByText(`Ann on Bob ${token}`)).toHaveCount(0);
    await rate(page, /^Overall/, 5);
    await rate(page, "Communication", 5);
    await rate(page, "Care of the client", 5);
    await rate(page, "Quality of the referral", 4);
    await page.getByLabel("Review text").fill(`Bob on Ann ${token}`);
    await page.getByRole("button", { name: "Submit review" }).click();

    // Both are published at once: Bob reads Ann's and replies.
    const theirs = page.getByRole("region", { name: "Ann Archer's review of you" });
    await expect(theirs).toContainText(`Ann on Bob ${token}`);
    await expect(theirs.getByText("4 out of 5", { exact: true })).toBeVisible();
    await expect(page.getByRole("button", { name: "Submit review" })).toHaveCount(0);
    await theirs.getByLabel("Your public reply").fill(`Thanks, Ann ${token}`);
    await theirs.getByRole("button", { name: "Post reply" }).click();
    await expect(theirs).toContainText(`Thanks, Ann ${token}`);
    await expect(theirs.getByRole("button", { name: "Post reply" })).toHaveCount(0);
    await lookAtEachWidth(page, testInfo, { shot: "review-published" });

    // The profile shows it, newest first, with the reviewer's link and the reply.
    await page.goto(`/agent/${agentIdOf(bob)}`);
    const reviews = page.getByRole("region", { name: "Reviews" });
    await expect(reviews.getByTestId("profile-review")).toHaveCount(1);
    await expect(reviews).toContainText(`Ann on Bob ${token}`);
    await expect(reviews).toContainText(`Thanks, Ann ${token}`);
    await expect(reviews.getByRole("link", { name: "Ann Archer" })).toHaveAttribute("href", `/agent/${agentIdOf(ann)}`);
    await expect(reviews.getByRole("link", { name: "Report review" })).toBeVisible();
    await lookAtEachWidth(page, testInfo, { shot: "review-profile" });
  });

  test("a referral that ended lost asks nothing of the fee, and the stars read as a number", async ({
    page,
    seedAgent,
    waitForReplica,
    login,
  }, testInfo) => {
    const token = uniqueToken();
    const ann = seedAgent({ fullName: "Ann Lost" });
    const bob = seedAgent({ fullName: "Bob Lost" });
    const referral = seedReferral(ann, bob, { clientName: `${token} client`, status: "lost" });
    await waitForReplica();
    await login(ann, { then: `/referrals/${referral.id}/review` });

    await expect(page.getByRole("heading", { level: 1, name: "Review Bob Lost" })).toBeVisible();
    await expect(page.getByRole("group", { name: "Fee handled as agreed" })).toHaveCount(0);
    await rate(page, /^Overall/, 4);
    await rate(page, "Communication", 5);
    await rate(page, "Care of the client", 3);
    await page.getByRole("button", { name: "Submit review" }).click();
    await expect(page.getByRole("status")).toHaveText("Saved.");

    // Bob writes his (the referral he was sent is still rated); both publish, and he reads Ann's.
    await page.context().clearCookies();
    await login(bob, { then: `/referrals/${referral.id}/review` });
    await rate(page, /^Overall/, 5);
    await rate(page, "Communication", 5);
    await rate(page, "Care of the client", 5);
    await rate(page, "Quality of the referral", 2);
    await page.getByRole("button", { name: "Submit review" }).click();
    const theirs = page.getByRole("region", { name: "Ann Lost's review of you" });
    await expect(theirs.getByText("4 out of 5", { exact: true })).toBeVisible();
    await expect(theirs).toContainText("Care of the client");
    await expect(theirs).not.toContainText("Fee handled as agreed");
    const mine = page.getByRole("region", { name: "Your review of Ann Lost" });
    await expect(mine.getByText("5 out of 5", { exact: true })).toBeVisible();
    await expect(mine).toContainText("Quality of the referral");
    await lookAtEachWidth(page, testInfo, { shot: "review-lost" });
  });
});
