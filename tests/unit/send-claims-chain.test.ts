import { describe, expect, it } from "vitest";
import { lastLinkClaimedAt } from "../../app/domain/send-claims";
import type { SendClaim } from "../../app/domain/workbook/tabs";

const row = (key: string, claimedAt: string, outcome: SendClaim["outcome"] = "claimed"): SendClaim => ({
  id: `${key}@${claimedAt}/${outcome}`,
  key,
  instance: "a",
  outcome,
  note: "",
  claimedAt,
});

describe("lastLinkClaimedAt", () => {
  const subject = "message:c1/ann@example.com";

  it("is the claim time of the subject's highest link, whatever the rows' order", () => {
    const rows = [
      row(`${subject}#2`, "2026-11-27T10:20:00.000Z"),
      row(`${subject}#0`, "2026-11-27T10:00:00.000Z"),
      row(`${subject}#1`, "2026-11-27T10:10:00.000Z"),
    ];
    expect(lastLinkClaimedAt(subject, rows)).toBe("2026-11-27T10:20:00.000Z");
  });

  it("passes over a link whose mail failed, and other subjects' links", () => {
    const rows = [
      row(`${subject}#0`, "2026-11-27T10:00:00.000Z"),
      row(`${subject}#1`, "2026-11-27T10:30:00.000Z"),
      row(`${subject}#1`, "2026-11-27T10:30:01.000Z", "failed"),
      row(`${subject}.au#9`, "2026-11-27T11:00:00.000Z"),
    ];
    expect(lastLinkClaimedAt(subject, rows)).toBe("2026-11-27T10:00:00.000Z");
  });

  it("counts a link claimed twice from its earlier claim, though the replica holds the loser's row first", () => {
    const rows = [row(`${subject}#1`, "2026-11-27T10:30:00.000Z"), row(`${subject}#1`, "2026-11-27T10:10:00.000Z")];
    expect(lastLinkClaimedAt(subject, rows)).toBe("2026-11-27T10:10:00.000Z");
  });

  it("is undefined for a subject never claimed", () => {
    expect(lastLinkClaimedAt(subject, [row("message:c2/bob@example.com#0", "2026-11-27T10:00:00.000Z")])).toBeUndefined();
  });
});
