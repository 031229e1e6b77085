import type { AppLoadContext } from "@remix-run/node";
import { beforeAll, describe, expect, it } from "vitest";
import * as messages from "../../app/routes/messages";
import { action as respondAction } from "../../app/routes/referral-requests.$id.respond";
import { escapeHtml, renderMailBody } from "../../app/server/mail/html.server";
import type { Agent, ReferralRequest } from "../../app/domain/workbook/tabs";
import { insertRequest, outcome, post, sessionCookie } from "../integration/requests-support";
import { insertAgent, testContext } from "../support/services";
import { renderPage } from "./render-support";

/** Markup that runs script if a page ever inserted it as HTML instead of text. */
const CORPUS = [
  "<script>alert(1)</script>",
  '"><img src=x onerror=alert(2)>',
  "'><svg onload=alert(3)>",
  "</textarea><iframe srcdoc='<script>alert(4)</script>'>",
  '<a href="javascript:alert(5)">click</a>',
  "</title><style>*{display:none}</style>",
  "\u2028</script><script>alert(6)</script>",
] as const;

/** What must never appear in the HTML: the corpus's live tags and attributes. */
const LIVE_MARKUP = [
  /<script>alert/i,
  /<img src=x/i,
  /<svg onload/i,
  /<iframe srcdoc/i,
  /<a href="javascript:/i,
  /<style>\*/i,
  /href="javascript:/i,
];

function payload(index: number): string {
  return CORPUS[index % CORPUS.length] as string;
}

function expectInert(html: string, page: string) {
  for (const pattern of LIVE_MARKUP) expect(html, `${page} contains ${String(pattern)}`).not.toMatch(pattern);
}

let context: AppLoadContext;
let poster: Agent;
let reader: Agent;
let request: ReferralRequest;
let readerCookie = "";
let posterCookie = "";

beforeAll(async () => {
  context = testContext();
  await context.services.store.refresh();
  poster = await insertAgent(context, {
    fullName: `Dana ${payload(0)}`,
    city: `Austin ${payload(1)}`,
    brokerage: `Realty ${payload(2)}`,
    bio: `Hello ${payload(3)} ${payload(4)}`,
    zipCode: "73301",
  });
  reader = await insertAgent(context, { fullName: `Reader ${payload(5)}`, brokerage: payload(6) });
  request = await insertRequest(context, poster, {
    title: `Buyer ${payload(0)}`,
    location: `Norman ${payload(1)}`,
    priceRange: payload(2),
    listingAddress: payload(3),
    listingMLS: payload(4),
    description: `Needs ${payload(5)}\n${payload(6)}`,
    agentName: poster.fullName,
  });
  readerCookie = await sessionCookie(context, reader);
  posterCookie = await sessionCookie(context, poster);
  await outcome(() =>
    respondAction({
      request: post(`/referral-requests/${request.id}/respond`, readerCookie, { message: `I can help ${payload(0)} ${payload(1)}` }),
      context,
      params: { id: request.id },
    }),
  );
  const thread = await outcome(() =>
    messages.action({
      request: post(`/messages?to=${poster.id}`, readerCookie, { text: `Hi ${payload(2)} ${payload(3)} ${payload(6)}` }),
      context,
      params: {},
    }),
  );
  expect((thread as Response).status).toBe(302);
});

describe("the XSS corpus in every text field a page shows is escaped", { timeout: 30_000 }, () => {
  const pages: Array<[string, () => string, () => string]> = [
    ["public directory", () => "/directory", () => ""],
    ["member directory", () => "/member-directory", () => readerCookie],
    ["agent profile", () => `/agent/${poster.id}`, () => readerCookie],
    ["dashboard", () => "/member-dashboard", () => readerCookie],
    ["request list", () => "/referral-requests", () => readerCookie],
    ["request detail (poster, with responses)", () => `/referral-requests/${request.id}`, () => posterCookie],
    ["messages (thread)", () => `/messages?to=${poster.id}`, () => readerCookie],
    ["messages (recipient)", () => "/messages", () => posterCookie],
    ["edit profile", () => "/edit-profile", () => posterCookie],
  ];

  for (const [name, url, cookie] of pages) {
    it(name, async () => {
      const html = await renderPage(url(), context, cookie());
      expectInert(html, name);
      // The text is there, shown as text: the escaped form of at least one payload.
      expect(html).toMatch(/&lt;(script|img|svg|iframe|a |\/textarea|\/title)/);
    });
  }

  it("e-mails escape it too (HTML part)", () => {
    const { html } = renderMailBody(
      `Hello ${payload(0)}`,
      [
        ["Name", payload(1)],
        ["Bio", payload(4)],
      ],
      payload(2),
    );
    expectInert(html, "mail");
    expect(escapeHtml(payload(0))).toBe("&lt;script&gt;alert(1)&lt;/script&gt;");
  });
});
