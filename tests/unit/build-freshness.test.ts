import { mkdirSync, mkdtempSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { buildNeeded, SERVER_ENTRY } from "../../scripts/lib/build-freshness.mjs";

/** A checkout with one route file and, optionally, a build, each with the given age in seconds. */
function checkout({ sourceAge, buildAge }: { sourceAge: number; buildAge?: number }): string {
  const root = mkdtempSync(path.join(tmpdir(), "referral-freshness-"));
  const now = Date.now() / 1000;
  const write = (file: string, age: number) => {
    mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
    writeFileSync(path.join(root, file), "");
    // The file and the folders made for it.
    for (let part = file; part !== "."; part = path.dirname(part)) utimesSync(path.join(root, part), now - age, now - age);
  };
  write("app/routes/_index.tsx", sourceAge);
  if (buildAge !== undefined) write(SERVER_ENTRY, buildAge);
  return root;
}

describe("npm start's build check", () => {
  it("builds when there is no build", () => {
    expect(buildNeeded(checkout({ sourceAge: 60 }))).toBe("No build found");
  });

  it("rebuilds when a source changed after the build", () => {
    expect(buildNeeded(checkout({ sourceAge: 10, buildAge: 60 }))).toBe("The sources changed since the last build (app)");
  });

  it("serves a build newer than every source, also where the sources were not shipped", () => {
    expect(buildNeeded(checkout({ sourceAge: 60, buildAge: 10 }))).toBeUndefined();
  });
});
