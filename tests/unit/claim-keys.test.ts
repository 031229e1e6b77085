/**
 * The registry of SendClaims keys (app/domain/claim-keys.ts) is the whole of them: every claim
 * in app/ builds its key there, each family is built in the file it names, and the staff
 * guide's table of keys is the one generated from it.
 */
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { CLAIM_KEYS, claimKeyFamily, type ClaimKeyFamilyName } from "~/domain/claim-keys";
import { STAFF_GUIDE, withClaimKeyTable } from "../../scripts/lib/claim-key-table";

const FAMILIES = Object.keys(CLAIM_KEYS) as ClaimKeyFamilyName[];

function sourceFiles(folder: string): string[] {
  return readdirSync(folder, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile() && /\.tsx?$/.test(entry.name))
    .map((entry) => path.join(entry.parentPath, entry.name));
}

/** `CLAIM_KEYS.name` or `CLAIM_KEYS["name"]`. */
function usesFamily(text: string, family: string): boolean {
  return text.includes(`CLAIM_KEYS.${family}.`) || text.includes(`CLAIM_KEYS["${family}"]`);
}

describe("the registry of claim keys", () => {
  it("builds each family's keys under its own name, so a stored key is read back as its family", () => {
    for (const family of FAMILIES) {
      const build = CLAIM_KEYS[family].key as (...parts: string[]) => string;
      expect(claimKeyFamily(build("p1", "p2", "p3", "p4")), family).toBe(family);
      expect(claimKeyFamily(`${build("p1", "p2", "p3", "p4")}#3`), family).toBe(family);
      expect(CLAIM_KEYS[family].format.startsWith(family), family).toBe(true);
    }
    expect(claimKeyFamily("something-staff-typed:1")).toBeUndefined();
  });

  it("names, for each family, a file that builds its keys with it", () => {
    const missing = FAMILIES.filter((family) => {
      const file = path.join("app", CLAIM_KEYS[family].claimedIn);
      let text = "";
      try {
        text = readFileSync(file, "utf8");
      } catch {
        return true;
      }
      return !usesFamily(text, family);
    });
    expect(missing, "families whose claimedIn file does not build their key with CLAIM_KEYS").toEqual([]);
  });

  it("is where every claim in app/ takes its key: none is written out at the call", () => {
    // A key written as a string or template where a claim is made: a rule's `once` or `chain`, sendOnce, claimAs, claim([...]).
    const literalKey = /(?:\bonce:|\bchain:|\bsendOnce\(|\bclaimAs\(|\bclaim\(\s*\[)\s*[`"']/g;
    const offenders = sourceFiles("app")
      .filter((file) => !file.endsWith(path.join("domain", "claim-keys.ts")))
      .flatMap((file) => [...readFileSync(file, "utf8").matchAll(literalKey)].map((match) => `${file}: ${match[0]}`));
    expect(offenders, "claim keys written at the call instead of built with CLAIM_KEYS").toEqual([]);
  });
});

describe("the staff guide's table of claim keys", () => {
  it("is the one generated from the registry (npm run docs:claim-keys rewrites it)", () => {
    const guide = readFileSync(STAFF_GUIDE, "utf8");
    expect(guide, "run npm run docs:claim-keys").toBe(withClaimKeyTable(guide));
  });
});
