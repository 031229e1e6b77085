import type { Page } from "@playwright/test";
import { agentIdOf } from "../../app/domain/agent-id";
import { agentProfilePath } from "../../app/domain/directory-cards";
import { REVIEWS_TAB } from "../../app/domain/workbook/review-tab";
import type { Agent, Review } from "../../app/domain/workbook/tabs";
import { expect, test } from "./fixtures";
import { seedMessages } from "./support/messages";
import { seedReferral } from "./support/referrals";
import { uniqueToken } from "./support/requests";
import { elementsPastTheEdge, sidewaysOverflow } from "./support/site-pages";
import { insertRows } from "./support/store-file";

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const ago = (ms: number) => new Date(Date.now() - ms).toISOString();
const WIDTHS = [390, 1280] as const;

/** Published reviews of `reviewed` with these overall stars: written 20 days ago, past the 14 blind days. */
function seedReviews(reviewed: Agent, stars: readonly number[]): void {
  const rows = stars.map((overall, i): Review => ({
    id: `${reviewed.id}-review-${i}`,
    referralId: `${reviewed.id}-referral-${i}`,
    reviewerEmail: `reviewer-${i}-${reviewed.email}`,
    reviewedEmail: reviewed.email,
    reviewedSide: "receiving",
    overall,
    communication: overall,
    clientCare: overall,
    feeAsAgreed: overall,
    referralQuality: undefined,
    text: "",
    submittedAt: ago(20 * DAY),
    updatedAt: undefined,
    reply: undefined,
    repliedAt: undefined,
    status: "visible",
  }));
  insertRows(REVIEWS_TAB, rows);
}

/** Three conversations `asker` started with `answerer`'s e-mail, each answered `hours` later. */
function seedAnsweredConversations(asker: Agent, answerer: Agent, hours: number): void {
  seedMessages(
    [1, 2, 3].flatMap((i) => {
      const conversationId = `${asker.id}-${answerer.id}-${i}`;
      const start = Date.now() - (10 + i) * DAY;
      return [
        {
          id: `${conversationId}-q`,
          conversationId,
          fromEmail: asker.email,
          toEmail: answerer.email,
          text: "Hi",
          createdAt: new Date(start).toISOString(),
        },
        {
          id: `${conversationId}-a`,
          conversationId,
          fromEmail: answerer.email,
          toEmail: asker.email,
          text: "Hello",
          createdAt: new Date(start + hours * HOUR).toISOString(),
        },
      ];
    }),
  );
}

async function expectNoSidewaysScroll(page: Page) {
  expect(await sidewaysOverflow(page), (await elementsPastTheEdge(page)).join("\n")).toBe(0);
}

test.describe("track record", () => {
  // Each test loads its pages at two widths.
  test.describe.configure({ timeout: 60_000 });

  test("shows on the profile with the review summary, small numbers named, and links to how it is counted", async ({
    page,
    seedAgent,
    waitForReplica,
    login,
  }) => {
    const ana = seedAgent({ fullName: "Ana Referrer" });
    const ben = seedAgent({ fullName: "Ben Receiver" });
    const viewer = seedAgent({ fullName: "Cy Viewer" });
    for (const days of [30, 40, 50]) seedReferral(ana, ben, { status: "closed", closeDate: ago(days * DAY), createdAt: ago(90 * DAY) });
    seedReferral(ana, ben, { status: "lost", updatedAt: ago(20 * DAY), createdAt: ago(60 * DAY) });
    seedReferral(ben, ana, { status: "under_contract", createdAt: ago(5 * DAY) });
    // Messages before the reviews: the server counts new messages alone at most every 10 seconds, anything else at once.
    seedAnsweredConversations(ana, ben, 5);
    seedReviews(ben, [5, 4]);
    await waitForReplica();
    await login(viewer);

    for (const width of WIDTHS) {
      await page.setViewportSize({ width, height: 900 });
      await page.goto(agentProfilePath(agentIdOf(ben)));
      const card = page.getByRole("region", { name: "Track record" });
      await expect(card).toBeVisible();
      await expect(card.getByText("4.5 stars from 2 reviews")).toBeAttached();
      const row = (label: string) => card.getByRole("row", { name: new RegExp(`^${label}`) });
      await expect(row("Referrals received")).toContainText("4");
      await expect(row("Close rate of signed referrals")).toContainText("3 of 4 (75%)");
      await expect(row("First reply to a new conversation")).toContainText("about 5 hours (median of 3)");
      await expect(card.getByText("Open now")).toBeVisible();
      await expectNoSidewaysScroll(page);
    }

    // Ana received one referral, still under contract: no fee has fallen due.
    await page.goto(agentProfilePath(agentIdOf(ana)));
    const anaCard = page.getByRole("region", { name: "Track record" });
    await expect(anaCard.getByText("No published reviews yet")).toBeVisible();
    await expect(anaCard.getByRole("row", { name: /^Fee paid as agreed/ })).toContainText("None yet");

    await anaCard.getByRole("link", { name: "How these are counted" }).click();
    await expect(page.getByRole("heading", { level: 1, name: "How the track record is counted" })).toBeVisible();
    await expect(page.getByText("2 referrals: too few for a rate")).toBeVisible();
  });

  test("puts stars and reply times on directory cards and sorts the directory by Best track record", async ({
    page,
    seedAgent,
    waitForReplica,
    login,
  }) => {
    const token = uniqueToken();
    const one = seedAgent({ fullName: `Una ${token}` });
    const many = seedAgent({ fullName: `Mara ${token}` });
    const none = seedAgent({ fullName: `Nico ${token}` });
    const asker = seedAgent({ fullName: "Asa Asker" });
    // Messages first: the server counts new messages alone at most every 10 seconds, anything else at once.
    seedAnsweredConversations(asker, none, 2);
    seedReviews(one, [5]);
    seedReviews(
      many,
      Array.from({ length: 20 }, () => 5),
    );
    await waitForReplica();

    const cardOf = (name: string) => page.getByRole("article", { name });
    const names = () => page.getByRole("region", { name: "Agents" }).getByRole("heading", { level: 3 }).allTextContents();
    for (const width of WIDTHS) {
      await page.setViewportSize({ width, height: 900 });
      await page.goto(`/directory?q=${token}`);
      expect(await names()).toEqual([`Mara ${token}`, `Nico ${token}`, `Una ${token}`]);
      await expect(cardOf(`Mara ${token}`).getByText("5.0 stars from 20 reviews")).toBeAttached();
      await expect(cardOf(`Una ${token}`).getByText("5.0 stars from 1 review")).toBeAttached();
      await expect(cardOf(`Nico ${token}`).getByText("Replies in about 2 hours")).toBeVisible();
      await expect(cardOf(`Una ${token}`).getByText(/Replies in/)).toHaveCount(0);

      await page.getByRole("combobox", { name: "Sort by" }).selectOption("track-record");
      await page.getByRole("button", { name: "Search" }).click();
      await expect(page).toHaveURL(/sort=track-record/);
      await expect.poll(names).toEqual([`Mara ${token}`, `Una ${token}`, `Nico ${token}`]);
      await expectNoSidewaysScroll(page);
    }

    await login(asker, { then: `/member-directory?sort=track-record&city=Dallas` });
    await expect(page.getByRole("combobox", { name: "Sort by" })).toHaveValue("track-record");
    await expect(cardOf(`Mara ${token}`).getByText("5.0 stars from 20 reviews")).toBeAttached();
  });
});
