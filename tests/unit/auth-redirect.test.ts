import { describe, expect, it } from "vitest";
import { DEFAULT_AFTER_LOGIN, isSafeRedirectPath, safeRedirectPath } from "../../app/domain/redirect";

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
