/**
 * Code and documents cite the product's rules as docs/product.md followed by a heading's
 * anchor: every such citation must lead to a heading there, and none cites the old specification's sections or an issue
 * by number, which are not in the repository.
 */
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

const ROOTS = ["app", "scripts", "tests", "docs", "bench", "README.md"];
const TEXT_FILE = /\.(ts|tsx|mjs|md)$/;
const SKIPPED = new Set(["node_modules", "build", "results"]);

function filesUnder(root: string): string[] {
  if (TEXT_FILE.test(root)) return [root];
  return readdirSync(root, { withFileTypes: true }).flatMap((entry) => {
    if (SKIPPED.has(entry.name)) return [];
    const file = path.join(root, entry.name);
    return entry.isDirectory() ? filesUnder(file) : TEXT_FILE.test(entry.name) ? [file] : [];
  });
}

/** GitHub's anchor of a heading: lower case, punctuation dropped, spaces as dashes. */
function anchorOf(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/[^a-z0-9 -]/g, "")
    .replace(/ /g, "-");
}

const anchors = new Set(
  readFileSync("docs/product.md", "utf8")
    .split("\n")
    .filter((line) => line.startsWith("#"))
    .map((line) => anchorOf(line.replace(/^#+/, ""))),
);
const files = ROOTS.flatMap(filesUnder);
// Spelled in two parts so that this file does not cite what it looks for.
const OLD_CITATION = new RegExp(["spec \u00a7", "\\bissue [0-9]"].join("|"), "i");

describe("citations of docs/product.md", () => {
  it("reads the headings and the files", () => {
    expect(anchors.size).toBeGreaterThan(10);
    expect(files.length).toBeGreaterThan(500);
  });

  it("lead to a heading that exists", () => {
    const broken = files.flatMap((file) =>
      [...readFileSync(file, "utf8").matchAll(/product\.md#([a-z0-9-]+)/g)]
        .filter((match) => !anchors.has(match[1] ?? ""))
        .map((match) => `${file}: ${match[0]}`),
    );
    expect(broken).toEqual([]);
  });

  it("replace the old specification's sections and issue numbers", () => {
    const old = files.flatMap((file) =>
      readFileSync(file, "utf8")
        .split("\n")
        .flatMap((line, i) => (OLD_CITATION.test(line) ? [`${file}:${i + 1}: ${line.trim()}`] : [])),
    );
    expect(old).toEqual([]);
  });
});
