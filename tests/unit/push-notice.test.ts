import { describe, expect, it } from "vitest";
import { noticeFromPayload, noticePath, sameOriginPath, windowForNotice } from "~/domain/push-notice";
import { workerRoute } from "~/domain/worker-routes";

const ORIGIN = "https://referrals.example";
const GENERIC = {
  title: "New activity on Red River Referrals",
  body: "Open your dashboard to see what changed.",
  url: "/member-dashboard",
  tag: "activity",
};

describe("push payloads", () => {
  it("reads the server's notice as it is", () => {
    const notice = { title: "New message from Grace", body: "Still open?", url: "/messages?c=abc", tag: "message-abc" };
    expect(noticeFromPayload(JSON.stringify(notice), ORIGIN)).toEqual(notice);
  });

  it.each([
    ["no payload", null],
    ["text that is not JSON", "hello"],
    ["JSON that is not an object", "42"],
    ["null", "null"],
    ["a missing title", JSON.stringify({ body: "b", url: "/x", tag: "t" })],
    ["a blank title", JSON.stringify({ title: " ", body: "b", url: "/x", tag: "t" })],
    ["a body that is not text", JSON.stringify({ title: "t", body: 3, url: "/x", tag: "t" })],
    ["no url", JSON.stringify({ title: "t", body: "b", tag: "t" })],
    ["no tag", JSON.stringify({ title: "t", body: "b", url: "/x" })],
  ])("shows the generic notice for %s", (_case, payload) => {
    expect(noticeFromPayload(payload, ORIGIN)).toEqual(GENERIC);
  });

  it("points a notice naming another site at the dashboard instead", () => {
    const payload = JSON.stringify({ title: "t", body: "b", url: "https://evil.example/x", tag: "t" });
    expect(noticeFromPayload(payload, ORIGIN).url).toBe("/member-dashboard");
  });
});

describe("same-origin paths", () => {
  it.each([
    ["/messages?c=1", "/messages?c=1"],
    ["/referrals/r1#timeline", "/referrals/r1#timeline"],
    [`${ORIGIN}/member-dashboard`, "/member-dashboard"],
    ["https://evil.example/messages", null],
    ["//evil.example/messages", null],
    ["/\\evil.example", null],
    ["javascript:alert(1)", null],
    ["http://referrals.example/messages", null],
  ])("%s → %s", (url, path) => {
    expect(sameOriginPath(url, ORIGIN)).toBe(path);
  });

  it("takes a click's path from the notification's data, or the dashboard", () => {
    expect(noticePath({ url: "/messages?c=1" }, ORIGIN)).toBe("/messages?c=1");
    expect(noticePath({ url: "https://evil.example/" }, ORIGIN)).toBe("/member-dashboard");
    expect(noticePath(null, ORIGIN)).toBe("/member-dashboard");
    expect(noticePath({ url: 5 }, ORIGIN)).toBe("/member-dashboard");
  });
});

describe("the window a click opens", () => {
  const target = `${ORIGIN}/messages?c=1`;
  it("focuses a window already showing the page", () => {
    const windows = [{ url: `${ORIGIN}/` }, { url: target }];
    expect(windowForNotice(windows, target)).toEqual({ action: "focus", window: windows[1] });
  });
  it("sends an open window of the site there", () => {
    const windows = [{ url: `${ORIGIN}/directory` }];
    expect(windowForNotice(windows, target)).toEqual({ action: "navigate", window: windows[0] });
  });
  it("opens a new window when none is open", () => {
    expect(windowForNotice([], target)).toEqual({ action: "open" });
  });
});

describe("what the worker answers", () => {
  const request = (url: string, mode = "cors", method = "GET") => ({ url: `${ORIGIN}${url}`, mode, method });
  it.each([
    [request("/member-dashboard", "navigate"), "page"],
    [request("/messages?c=1", "navigate"), "page"],
    [request("/assets/root-abc123.js"), "asset"],
    [request("/assets/tailwind-abc123.css", "no-cors"), "asset"],
    [request("/member-login", "navigate", "POST"), "network"],
    [request("/assets/x.js", "cors", "POST"), "network"],
    [request("/healthz"), "network"],
    [request("/messages/events?since=1"), "network"],
    [request("/member-dashboard/live"), "network"],
    [request("/uploads/photo.webp", "no-cors"), "network"],
    [request("/member-dashboard.data"), "network"],
    [{ url: "https://cdn.example/assets/x.js", mode: "cors", method: "GET" }, "network"],
  ])("%o → %s", (req, route) => {
    expect(workerRoute(req, ORIGIN)).toBe(route);
  });
});
