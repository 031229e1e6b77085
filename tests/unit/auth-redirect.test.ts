import { describe, expect, it } from "vitest";
import { DEFAULT_AFTER_LOGIN, isSafeRedirectPath, loginReason, safeRedirectPath } from "../../app/domain/redirect";

describe("safeRedirectPath", () => {
  it.each(["/member-dashboard", "/messages?conversation=abc", "/agent/dana_example_com#bio", "/edit-profile?x=%2F%2Fevil"])(
    "keeps the same-site path %s",
    (path) => {
      expect(isSafeRedirectPath(path)).toBe(true);
      expect(safeRedirectPath(path)).toBe(path);
    },
  );

  it.each([
    ["another site", "https://evil.example/"],
    ["a protocol-relative URL", "//evil.example"],
    ["a backslash that browsers read as a slash", "/\\evil.example"],
    ["a leading backslash", "\\\\evil.example"],
    ["a tab browsers drop", "/\t/evil.example"],
    ["a line break", "/\n/evil.example"],
    ["a javascript: URL", "javascript:alert(1)"],
    ["a relative path", "member-dashboard"],
    ["an empty string", ""],
    ["a space", "/ /evil"],
    ["an overlong path", `/${"a".repeat(2000)}`],
  ])("ignores %s", (_label, path) => {
    expect(isSafeRedirectPath(path)).toBe(false);
    expect(safeRedirectPath(path)).toBe(DEFAULT_AFTER_LOGIN);
  });

  it("ignores values that are not text and uses the given fallback", () => {
    expect(safeRedirectPath(undefined)).toBe(DEFAULT_AFTER_LOGIN);
    expect(safeRedirectPath(null, "/")).toBe("/");
    expect(safeRedirectPath(["/a"], "/")).toBe("/");
  });
});

describe("loginReason", () => {
  it.each([
    ["/post-request?type=listing", "Please login to post a referral request"],
    ["/referral-requests/abc/respond", "Please login to respond to requests"],
    ["/referral-requests/abc/edit", "Please login to manage your requests"],
    ["/referral-requests?tab=mine", "Please login to view referral requests"],
    ["/messages?to=jane_example_com", "Please login to read and send messages"],
    ["/member-directory", "Please login to view the member directory"],
    ["/agent/jane_example_com", "Please login to view agent profiles"],
    ["/edit-profile", "Please login to edit your profile"],
    ["/member-dashboard", "Please login to view your dashboard"],
    ["/somewhere-else", "Please login to continue"],
  ])("explains the way to %s", (path, reason) => {
    expect(loginReason(path)).toBe(reason);
  });

  it("says nothing to a visitor who came to log in", () => {
    expect(loginReason(null)).toBeNull();
  });
});
