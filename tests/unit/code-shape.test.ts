/**
 * The shape of app/: no import circles, no file over 400 lines, and components that take
 * nothing from the server. A circle is a missing layer (a type both sides need belongs in a
 * module of its own); a long file is several modules in one. Checked here so that `npm test`
 * names the new one.
 *
 * The layers: app/domain is pure (rules, schemas, and the view types pages are sent);
 * app/server does the work (`*.server.ts`) and imports app/domain; app/components render
 * what they are given and import app/domain, never app/server, so a view type lives in
 * app/domain (`*-views.ts`) where the server function that fills it declares it as its
 * return type and the component reads it; app/routes join the two.
 */
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import madge from "madge";
import { describe, expect, it } from "vitest";

const APP = "app";
const MAX_LINES = 400;
const COMPONENTS = path.join(APP, "components");

function filesUnder(folder: string): string[] {
  return readdirSync(folder, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => path.join(entry.parentPath, entry.name));
}

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
    const long = filesUnder(APP)
      .map((file) => ({ file, lines: lineCount(file) }))
      .filter(({ lines }) => lines > MAX_LINES)
      .map(({ file, lines }) => `${file}: ${lines} lines`);
    expect(long, `files in app/ over ${MAX_LINES} lines (split each along its seams)`).toEqual([]);
  });

  it("has no component that imports from app/server, types included", () => {
    // Static imports and re-exports (`from "…"`), side-effect imports and dynamic `import("…")`.
    const serverImport = /(?:\bfrom|\bimport\s*\(?)\s*["'](?:~\/server\/|(?:\.\.\/)+server\/)[^"']*["']/g;
    const offenders = filesUnder(COMPONENTS)
      .filter((file) => /\.tsx?$/.test(file))
      .flatMap((file) => [...readFileSync(file, "utf8").matchAll(serverImport)].map((match) => `${file}: ${match[0]}`));
    expect(offenders, "components importing from app/server (move the view type to app/domain)").toEqual([]);
  });
});
