import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { chooseHeapLimits, containerLimitMb } from "../../scripts/lib/heap-limits.mjs";

/** A cgroup v2 and a v1 limit file with the given contents (undefined: the file is absent). */
function limitFiles(v2?: string, v1?: string): string[] {
  const folder = mkdtempSync(path.join(tmpdir(), "referral-cgroup-"));
  const files = [path.join(folder, "memory.max"), path.join(folder, "memory.limit_in_bytes")];
  if (v2 !== undefined) writeFileSync(files[0]!, `${v2}\n`);
  if (v1 !== undefined) writeFileSync(files[1]!, `${v1}\n`);
  return files;
}

const MB = 2 ** 20;

describe("npm start's V8 heap limits", () => {
  it("reads a cgroup v2 limit, then a v1 limit", () => {
    expect(containerLimitMb(limitFiles(String(768 * MB)))).toBe(768);
    expect(containerLimitMb(limitFiles(undefined, String(1024 * MB)))).toBe(1024);
  });

  it("takes cgroup v2's max and v1's huge number as no limit", () => {
    expect(containerLimitMb(limitFiles("max", String(256 * MB)))).toBeNull();
    expect(containerLimitMb(limitFiles(undefined, "9223372036854771712"))).toBeNull();
    expect(containerLimitMb(limitFiles())).toBeNull();
  });

  it("gives two fifths of a container's limit to the old generation and a 64th to each semi-space", () => {
    const chosen = chooseHeapLimits({ env: { MEMORY_LIMIT_MB: "2048" }, execArgv: [], limitFiles: limitFiles(String(512 * MB)) });
    expect(chosen.flags).toEqual(["--max-old-space-size=204", "--max-semi-space-size=8"]);
    expect(chosen.line).toBe(
      "Memory: 512 MB (the container's memory limit), so V8 runs with --max-old-space-size=204 --max-semi-space-size=8.",
    );
  });

  it("uses MEMORY_LIMIT_MB without a container limit", () => {
    const chosen = chooseHeapLimits({ env: { MEMORY_LIMIT_MB: "4096" }, execArgv: [], limitFiles: limitFiles("max") });
    expect(chosen.flags).toEqual(["--max-old-space-size=1638", "--max-semi-space-size=16"]);
    expect(chosen.line).toContain("4096 MB (MEMORY_LIMIT_MB)");
  });

  it("falls back to the default, and says why, without either", () => {
    const none = chooseHeapLimits({ env: {}, execArgv: [], limitFiles: limitFiles() });
    expect(none.flags).toEqual(["--max-old-space-size=204", "--max-semi-space-size=8"]);
    expect(none.line).toContain("the default: no container limit or MEMORY_LIMIT_MB");
    const wrong = chooseHeapLimits({ env: { MEMORY_LIMIT_MB: "1g" }, execArgv: [], limitFiles: limitFiles() });
    expect(wrong.flags).toEqual(none.flags);
    expect(wrong.line).toContain('MEMORY_LIMIT_MB "1g" is not a whole number of MB');
  });

  it("keeps a small container's heap workable", () => {
    const chosen = chooseHeapLimits({ env: {}, execArgv: [], limitFiles: limitFiles(String(96 * MB)) });
    expect(chosen.flags).toEqual(["--max-old-space-size=64", "--max-semi-space-size=2"]);
  });

  it("keeps a heap ceiling the operator gave, on the command line or in NODE_OPTIONS", () => {
    const files = limitFiles(String(512 * MB));
    for (const given of [
      { env: {}, execArgv: ["--max-old-space-size=1024"] },
      { env: { NODE_OPTIONS: "--enable-source-maps --max_old_space_size=1024" }, execArgv: [] },
    ]) {
      const chosen = chooseHeapLimits({ ...given, limitFiles: files });
      expect(chosen.flags).toEqual([]);
      expect(chosen.line).toBe("Memory: the heap ceiling given to node is kept.");
    }
  });
});
