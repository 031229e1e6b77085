/** The mirror tabs' layout and bounds (app/domain/mirrors.ts): what is cut, and how the tab says so. */
import { describe, expect, it } from "vitest";
import { cutNote, lookupCells, MIRROR_TOP_ROWS, MIRRORS, mirrorCells } from "~/domain/mirrors";

const at = new Date("2026-11-29T02:00:00.000Z");
const rows = (count: number) => Array.from({ length: count }, (_, i) => [`row ${i}`]);

describe("the mirror tabs' bounds", () => {
  it("cut a look-up's answer to the tab's rows, newest kept, and say what was cut", () => {
    const cells = lookupCells(
      "maria@example.com",
      [
        { kind: "member", title: "Member", headers: ["agent id"], rows: rows(1) },
        { kind: "messages", title: "Messages (newest first)", headers: ["time"], rows: rows(120), total: 4210 },
        { kind: "invitations", title: "Invitations", headers: ["invited"], rows: rows(400) },
      ],
      at,
    );
    expect(cells.length).toBe(MIRROR_TOP_ROWS + MIRRORS.lookup.dataRows);
    expect(cells[2]).toEqual(["Answer for:", "maria@example.com", "Found member, messages, invitations below; cut at 300 rows."]);
    const titles = cells.filter((row) => row.length === 1 && /^(Member|Messages|Invitations)/.test(row[0]!)).map((row) => row[0]);
    expect(titles).toEqual([
      "Member",
      "Messages (newest first): the newest 120 of 4210, the rest cut",
      "Invitations: the newest 170 of 400, the rest cut",
    ]);
    expect(cells.at(-2)).toEqual(["row 169"]);
  });

  it("say in a list's status line how many rows there were and how many oldest were cut", () => {
    expect(cutNote(500, 812, "reported or hidden items")).toBe(
      "Showing 500 of 812 reported or hidden items, newest first: the 312 oldest are cut (the tab holds 500 rows at most).",
    );
    expect(cutNote(3, 3, "reported or hidden items")).toBe("3 reported or hidden items.");
    expect(cutNote(0, 0, "reported or hidden items")).toBe("No reported or hidden items.");
  });

  it("keep the mirrors under 8,000 cells in all", () => {
    expect(mirrorCells("lookup") + mirrorCells("recentReports") + mirrorCells("dailyCounts")).toBe(7_895);
  });
});
