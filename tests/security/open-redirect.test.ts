import type { AppLoadContext } from "@remix-run/node";
import { beforeAll, describe, expect, it, vi } from "vitest";
import { isSafeRedirectPath, safeRedirectPath } from "../../app/domain/redirect";
import { action as loginAction, loader as loginLoader } from "../../app/routes/member-login";
import { action as markAction } from "../../app/routes/referral-requests.$id.mark";
import { action as blockAction } from "../../app/routes/settings.blocked";
import { action as notificationsAction } from "../../app/routes/settings.notifications";
import { action as proposeAction } from "../../app/routes/referral-requests.$id.propose";
import { action as reportAction } from "../../app/routes/report";
import type { ReferralRequest } from "../../app/domain/workbook/tabs";
import { responseOf } from "../integration/accounts-support";
import { insertRequest, outcome, post, sessionCookie } from "../integration/requests-support";
import { insertAgent, postForm, testContext } from "../support/services";

vi.setConfig({ testTimeout: 30_000 });

/** Ways to write "another site" that browsers accept in a Location header. */
const CORPUS = [
  "https://evil.example",
  "http://evil.example/member-dashboard",
  "//evil.example",
  "///evil.example",
  "////evil.example/",
  "/\\evil.example",
  "\\/evil.example",
  "\\\\evil.example",
  "/\t/evil.example",
  "/\n/evil.example",
  "/\r\n/evil.example",
  "/\u0000/evil.example",
  " //evil.example",
  "\u2028//evil.example",
  "https:evil.example",
  "https:/evil.example",
  "javascript:alert(1)",
  "JaVaScRiPt:alert(1)",
  "data:text/html,<script>alert(1)</script>",
  "evil.example",
  "@evil.example",
  ".evil.example",
  "%2F%2Fevil.example",
  // Paths that become "//evil.example" once the browser resolves their dot segments.
  "/.//evil.example",
  "/./\\evil.example",
  "/..//evil.example",
  "/a/..//evil.example",
  "/a/../..//evil.example",
  "/%2e//evil.example",
  "/%2E%2E//evil.example",
  "/a/%2e%2e//evil.example",
  "/./\t/evil.example",
  "/.//user:pass@evil.example",
  "//user@evil.example/",
  "/\\user@evil.example",
  "https://redriverreferrals.test@evil.example",
] as const;

/** Odd-looking but harmless: the browser keeps them as a path on this site. */
const ON_SITE = [
  "/member-dashboard",
  "/referral-requests?chip=urgent&page=2",
  "/messages?conversation=a--b",
  "/%0d%0aLocation:%20https://evil.example",
  "/%2F%2Fevil.example",
  "/%5C%5Cevil.example",
  "/.%2F/evil.example",
  "/a/./b/../member-dashboard",
  "/agent/x@evil.example",
] as const;

const SITE = "https://redriverreferrals.test";

/** Where a browser on this site goes for this Location: it must stay on the site, with nothing a browser would read leniently. */
function expectStaysOnSite(location: string | null, payload: string) {
  expect(location, payload).not.toBeNull();
  const target = location ?? "";
  expect(target.startsWith("/") && !target.startsWith("//"), `${JSON.stringify(payload)} → ${JSON.stringify(target)}`).toBe(true);
  // eslint-disable-next-line no-control-regex -- control characters are what this pattern looks for.
  expect(target, payload).not.toMatch(/[\\\s\u0000-\u001f]/);
  expect(new URL(target, SITE).origin, payload).toBe(SITE);
}

let context: AppLoadContext;
let cookie = "";
let request: ReferralRequest;
let email = "";
let otherId = "";

beforeAll(async () => {
  context = testContext();
  const member = await insertAgent(context);
  email = member.email;
  cookie = await sessionCookie(context, member);
  const other = await insertAgent(context);
  otherId = other.id;
  request = await insertRequest(context, other);
});

describe("open-redirect corpus through redirectTo", () => {
  it("is refused by the one rule every redirect uses", () => {
    for (const payload of CORPUS) expect(isSafeRedirectPath(payload), JSON.stringify(payload)).toBe(false);
    // Percent-encoded characters stay in the path: the browser does not decode them into a new line or a host.
    for (const path of ON_SITE) {
      expect(isSafeRedirectPath(path), path).toBe(true);
      expectStaysOnSite(safeRedirectPath(path), path);
    }
  });

  it("the login page sends a signed-in member to the dashboard instead", async () => {
    for (const payload of CORPUS) {
      const url = `http://localhost/member-login?redirectTo=${encodeURIComponent(payload)}`;
      const answer = await responseOf(() =>
        loginLoader({ request: new Request(url, { headers: { Cookie: cookie } }), context, params: {} }),
      );
      expectStaysOnSite(answer.headers.get("Location"), payload);
    }
  });

  it("the login page does not carry it into its form for a visitor", async () => {
    for (const payload of CORPUS) {
      const url = `http://localhost/member-login?redirectTo=${encodeURIComponent(payload)}`;
      const page = (await loginLoader({ request: new Request(url), context, params: {} })).data;
      expect(page.redirectTo, payload).toBeNull();
    }
  });

  it("logging in with it lands on the dashboard", async () => {
    // A few only: each login is a real bcrypt check.
    for (const payload of ["//evil.example", "/\\evil.example", "https://evil.example", "/.//evil.example", "/%2e%2e//evil.example"]) {
      const answer = await responseOf(() =>
        loginAction({
          request: postForm("/member-login", { email, password: "correct horse battery", redirectTo: payload }),
          context,
          params: {},
        }),
      );
      expect(answer.headers.get("Location"), payload).toBe("/member-dashboard");
    }
  });

  it("the mark form's return address never leaves the site", async () => {
    for (const payload of CORPUS) {
      const answer = await outcome(() =>
        markAction({
          request: post(`/referral-requests/${request.id}/mark`, cookie, { kind: "saved", on: "true", redirectTo: payload }),
          context,
          params: { id: request.id },
        }),
      );
      // Not a redirect at all (the script's JSON answer) is as good as one to the site.
      if (answer instanceof Response && answer.status >= 300 && answer.status < 400)
        expectStaysOnSite(answer.headers.get("Location"), payload);
      else expect((answer as Response).status, payload).toBe(200);
    }
  });

  it("the block and unblock forms' return address never leaves the site", async () => {
    for (const [index, payload] of CORPUS.entries()) {
      const intent = index % 2 === 0 ? "block" : "unblock";
      const answer = await responseOf(() =>
        blockAction({ request: post("/settings/blocked", cookie, { intent, agent: otherId, back: payload }), context, params: {} }),
      );
      expectStaysOnSite(answer.headers.get("Location"), payload);
    }
  });

  // The writes added since that redirect afterwards build their own address; a target sent along is not read.
  const TARGET_NAMES = ["redirectTo", "back", "next", "returnTo"];
  const withTargets = (payload: string) => Object.fromEntries(TARGET_NAMES.map((name) => [name, payload]));
  const queryWith = (payload: string) => TARGET_NAMES.map((name) => `${name}=${encodeURIComponent(payload)}`).join("&");
  const SAMPLE = ["//evil.example", "/.//evil.example", "/%2e%2e//evil.example", "/\\evil.example", "https://evil.example"];

  it("the notification settings and report forms go back to their own page whatever target is sent", async () => {
    for (const payload of SAMPLE) {
      const saved = await responseOf(() =>
        notificationsAction({
          request: post(`/settings/notifications?${queryWith(payload)}`, cookie, { on: "messages", ...withTargets(payload) }),
          context,
          params: {},
        }),
      );
      expectStaysOnSite(saved.headers.get("Location"), payload);
      const reported = await responseOf(() =>
        reportAction({
          request: post(`/report?kind=request&id=${request.id}&${queryWith(payload)}`, cookie, { reason: "spam", ...withTargets(payload) }),
          context,
          params: {},
        }),
      );
      expectStaysOnSite(reported.headers.get("Location"), payload);
    }
  });

  it("a referral proposal goes to the referral's page whatever target is sent", async () => {
    const poster = await insertAgent(context);
    const own = await insertRequest(context, poster, { requestType: "referral", clientType: "buyer" });
    const response = await context.services.store.responses.insert({
      id: "redirect-response",
      requestId: own.id,
      fromEmail: email,
      fromName: "Responder",
      toEmail: poster.email,
      message: "Happy to help",
      createdAt: new Date().toISOString(),
    });
    const payload = "/.//evil.example";
    const proposed = await responseOf(() =>
      proposeAction({
        request: post(`/referral-requests/${own.id}/propose?response=${response.id}&${queryWith(payload)}`, cookie, {
          referrer: "them",
          clientName: "Ana",
          side: "buyer",
          feeType: "percent",
          feePercent: "25",
          termMonths: "12",
          feeDue: "at closing",
          ...withTargets(payload),
        }),
        context,
        params: { id: own.id },
      }),
    );
    expect(proposed.headers.get("Location")).toMatch(/^\/referrals\/[\w-]+$/);
  });
});
