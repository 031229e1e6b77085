/**
 * docs/decisions/README.md lists every decision record, and every record says its status:
 * a record added without its row, a row left for a file renamed or removed, or a record
 * with no Status line fails here.
 */
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

const DECISIONS = "docs/decisions";
const RECORD_FILE = /^\d{4}-[a-z0-9-]+\.md$/;

const records = readdirSync(DECISIONS).filter((name) => RECORD_FILE.test(name));
const index = readFileSync(path.join(DECISIONS, "README.md"), "utf8");

/** The record each row of the index's table links to, in its "decision" column. */
function filesTheIndexLists(text: string): string[] {
  return text
    .split("\n")
    .filter((line) => /^\|\s*\d{4}\s*\|/.test(line))
    .map((line) => /\]\(([^)]+\.md)\)/.exec(line)?.[1] ?? `(a row with no link: ${line})`);
}

describe("the decision records' index", () => {
  it("finds the records", () => {
    expect(records.length).toBeGreaterThan(60);
  });

  it("lists every record", () => {
    const listed = new Set(filesTheIndexLists(index));
    expect(records.filter((name) => !listed.has(name))).toEqual([]);
  });

  it("lists only records that exist, each once and under its own number", () => {
    const listed = filesTheIndexLists(index);
    expect(listed.filter((name) => !records.includes(name))).toEqual([]);
    expect(listed.filter((name, i) => listed.indexOf(name) !== i)).toEqual([]);
    const misnumbered = index
      .split("\n")
      .filter((line) => /^\|\s*\d{4}\s*\|/.test(line))
      .filter((line) => !new RegExp(`\\]\\(${/^\|\s*(\d{4})/.exec(line)?.[1]}-`).test(line));
    expect(misnumbered).toEqual([]);
  });

  it("finds a Status line in every record", () => {
    const withoutStatus = records.filter(
      (name) => !/^(Date: [^\n]*\. )?Status: \S/m.test(readFileSync(path.join(DECISIONS, name), "utf8")),
    );
    expect(withoutStatus).toEqual([]);
  });
});
