/**
 * The shape of app/: no import circles and no file over 400 lines. A circle is a missing
 * layer (a type both sides need belongs in a module of its own); a long file is several
 * modules in one. Both are checked here so that `npm test` names the new one.
 */
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import madge from "madge";
import { describe, expect, it } from "vitest";

const APP = "app";
const MAX_LINES = 400;

function lineCount(file: string): number {
  const text = readFileSync(file, "utf8");
  return text.split("\n").length - (text.endsWith("\n") ? 1 : 0);
}

describe("the code in app/", () => {
  it("has no circle of imports, type-only imports included", async () => {
    const graph = await madge(APP, { fileExtensions: ["ts", "tsx"], tsConfig: "tsconfig.json" });
    // An import of app/ that madge cannot follow could hide a circle: only assets loaded by the build (`?url`) may go unread.
    const unreadModules = graph.warnings().skipped.filter((name) => /^(\.|~\/)/.test(name) && !/\?(url|no-inline)$/.test(name));
    expect(unreadModules).toEqual([]);
    expect(Object.keys(graph.obj()).length).toBeGreaterThan(100);
    const circles = graph.circular().map((circle) => `${[...circle, circle[0]].join(" → ")}`);
    expect(circles, "import circles in app/ (cut each by moving what both sides need into a module of its own)").toEqual([]);
  }, 60_000);

  it(`has no file over ${MAX_LINES} lines`, () => {
    const files = readdirSync(APP, { recursive: true, withFileTypes: true }).filter((entry) => entry.isFile());
    const long = files
      .map((entry) => path.join(entry.parentPath, entry.name))
      .map((file) => ({ file, lines: lineCount(file) }))
      .filter(({ lines }) => lines > MAX_LINES)
      .map(({ file, lines }) => `${file}: ${lines} lines`);
    expect(long, `files in app/ over ${MAX_LINES} lines (split each along its seams)`).toEqual([]);
  });
});
