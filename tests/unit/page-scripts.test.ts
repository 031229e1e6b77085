import { describe, expect, it } from "vitest";
import { NO_SCRIPTS_FOR_VISITORS, pageLoadsScripts } from "../../app/domain/page-scripts";

const root = { id: "root", handle: undefined };
const publicPage = { id: "routes/directory", handle: NO_SCRIPTS_FOR_VISITORS };
const memberPage = { id: "routes/member-dashboard", handle: undefined };

describe("which pages load the browser's scripts", () => {
  it("leaves them out of a visitor's page whose routes all do without them", () => {
    expect(pageLoadsScripts([root, publicPage], false)).toBe(false);
  });

  it("loads them on every member's page, the public ones too", () => {
    expect(pageLoadsScripts([root, publicPage], true)).toBe(true);
    expect(pageLoadsScripts([root, memberPage], true)).toBe(true);
  });

  it("loads them on a visitor's page when any of its routes did not say otherwise", () => {
    expect(pageLoadsScripts([root, memberPage], false)).toBe(true);
    expect(pageLoadsScripts([root, publicPage, { id: "routes/directory.child", handle: { other: true } }], false)).toBe(true);
    // The root's error screen alone (no page route matched) keeps them, as before.
    expect(pageLoadsScripts([root], false)).toBe(true);
  });
});
