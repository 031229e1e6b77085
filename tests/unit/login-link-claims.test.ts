import { describe, expect, it } from "vitest";
import { prunableClaims } from "../../app/domain/send-claims";

const HOUR = 60 * 60 * 1000;
const NOW = new Date("2026-11-28T15:00:00.000Z");
const facts = { decisionMailed: () => false, lastReminder: () => undefined };

const claim = (key: string, hoursAgo: number) => ({
  id: key,
  key,
  instance: "here",
  outcome: "claimed" as const,
  note: "",
  claimedAt: new Date(NOW.getTime() - hoursAgo * HOUR).toISOString(),
});

describe("a used one-time login link's claim (docs/decisions/0057)", () => {
  it("goes a day after it was used, long after the 15-minute link expired, and stays until then", () => {
    const rows = [claim("login-link:old", 25), claim("login-link:recent", 2)];
    expect(prunableClaims(rows, NOW, facts).map((row) => row.key)).toEqual(["login-link:old"]);
  });
});
