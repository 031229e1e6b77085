import { randomUUID } from "node:crypto";
import type { Page } from "@playwright/test";
import { expect, test } from "./fixtures";
import { conversationIdFor } from "../../app/domain/conversation";
import type { Agent, Message } from "../../app/domain/workbook/tabs";
import { seedMessages } from "./support/messages";
import { seedRequests, testRequest, uniqueToken } from "./support/requests";

const MINUTE_MS = 60_000;

function message(from: Agent, to: Agent, text: string, minutesAgo: number): Message {
  return {
    id: randomUUID(),
    conversationId: conversationIdFor(from.id, to.id),
    fromEmail: from.email,
    toEmail: to.email,
    text,
    createdAt: new Date(Date.now() - minutesAgo * MINUTE_MS).toISOString(),
  };
}

function pages(page: Page, name: string) {
  return page.getByRole("navigation", { name });
}

test("the requests list shows 20 cards a page, with page links that keep the filters", async ({
  page,
  seedAgent,
  waitForReplica,
  login,
}) => {
  const token = uniqueToken();
  const poster = seedAgent({ fullName: "Petra Poster" });
  const viewer = seedAgent({ fullName: "Vic Viewer" });
  // Request 1 is the newest, so pages read 1-20 then 21-25 under the default sort.
  seedRequests(Array.from({ length: 25 }, (_, i) => testRequest(poster, { title: `Paged ${token} number ${i + 1}`, hoursAgo: i + 1 })));
  await waitForReplica();
  await login(viewer, { then: `/referral-requests?q=${token}` });

  await expect(page.getByText("25 requests")).toBeVisible();
  await expect(page.getByRole("article")).toHaveCount(20);
  await expect(page.getByRole("heading", { name: `Paged ${token} number 1`, exact: true })).toBeVisible();
  await pages(page, "Request pages").getByRole("link", { name: "Next" }).click();

  await expect(page).toHaveURL(new RegExp(`q=${token}.*page=2|page=2.*q=${token}`));
  await expect(page.getByRole("article")).toHaveCount(5);
  await expect(page.getByRole("heading", { name: `Paged ${token} number 21`, exact: true })).toBeVisible();
  await expect(pages(page, "Request pages").locator('[aria-current="page"]')).toHaveText("Page 2");

  // Applying filters starts again from the first page.
  await page.getByRole("button", { name: "Apply Filters" }).click();
  await expect(page).not.toHaveURL(/page=/);
  await expect(page.getByRole("article")).toHaveCount(20);
});

test("Messages lists 20 conversations a page and a long thread 50 messages a page, newest first", async ({
  page,
  seedAgent,
  waitForReplica,
  login,
}) => {
  const member = seedAgent({ fullName: "Molly Member" });
  const others = Array.from({ length: 22 }, (_, i) => seedAgent({ fullName: `Pen Pal ${String.fromCharCode(65 + i)}${uniqueToken()}` }));
  const chatty = others[0]!;
  // A 55-message thread with the first pen pal, the newest of all, then one older message from each of the 21 others.
  const notes = others.slice(1).map((other, i) => message(other, member, `Hello from pen pal ${i + 1}`, 500 + i));
  const thread = Array.from({ length: 55 }, (_, i) =>
    message(i % 2 === 0 ? chatty : member, i % 2 === 0 ? member : chatty, `Line ${i + 1} of the long talk`, 55 - i),
  );
  seedMessages([...notes, ...thread]);
  await waitForReplica();
  await login(member, { then: "/messages" });

  const list = page.getByRole("region", { name: "Conversations" });
  const rows = list.getByRole("link", { name: /Pen Pal/ });
  await expect(rows).toHaveCount(20);
  await pages(page, "Conversation pages").getByRole("link", { name: "Next" }).click();
  await expect(page).toHaveURL(/page=2/);
  await expect(rows).toHaveCount(2);
  await expect(list.getByText("Hello from pen pal 21")).toBeVisible();

  await page.goto("/messages");
  await list.getByRole("link", { name: new RegExp(chatty.fullName) }).click();
  const log = page.getByRole("log", { name: "Messages" });
  await expect(log.getByRole("listitem")).toHaveCount(50);
  await expect(log.getByText("Line 55 of the long talk", { exact: true })).toBeVisible();
  await expect(log.getByText("Line 5 of the long talk", { exact: true })).toHaveCount(0);
  await log.getByRole("link", { name: "Earlier messages" }).click();
  await expect(page).toHaveURL(/threadPage=2/);
  await expect(log.getByRole("listitem")).toHaveCount(5);
  await expect(log.getByText("Line 1 of the long talk", { exact: true })).toBeVisible();
  await log.getByRole("link", { name: "Later messages" }).click();
  await expect(log.getByText("Line 55 of the long talk", { exact: true })).toBeVisible();
});
