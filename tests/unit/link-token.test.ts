import { describe, expect, it } from "vitest";
import { createLinkToken, readLinkToken } from "../../app/server/auth/link-token.server";

const SECRETS = ["first-secret-for-tests-0123456789"];
const NOW = Date.parse("2026-11-27T12:00:00.000Z");
const HOUR = 60 * 60;

function token(fields: string[] = ["referral-1", "referring"], bound: string[] = ["hash-a"]) {
  return createLinkToken(SECRETS, "broker-approval", { fields, bound, ttlSeconds: HOUR }, NOW);
}

describe("a signed link token", () => {
  it("gives back its fields and expiry while genuine and unexpired", () => {
    const reading = readLinkToken(SECRETS, "broker-approval", token(), { fieldCount: 2, boundFor: () => ["hash-a"] }, NOW + 1000);
    expect(reading).toEqual({ ok: true, fields: ["referral-1", "referring"], expiresAt: new Date(NOW + HOUR * 1000) });
  });

  it("is refused once expired", () => {
    const reading = readLinkToken(SECRETS, "broker-approval", token(), { fieldCount: 2, boundFor: () => ["hash-a"] }, NOW + HOUR * 1000);
    expect(reading).toEqual({ ok: false, reason: "expired" });
  });

  it("is refused once what it was bound to changed", () => {
    expect(readLinkToken(SECRETS, "broker-approval", token(), { fieldCount: 2, boundFor: () => ["hash-b"] }, NOW).ok).toBe(false);
  });

  it("is refused with a changed field, another purpose, another secret or a wrong shape", () => {
    const [carried, signature] = token().split(".");
    const forged = `${Buffer.from(JSON.stringify(["referral-2", "referring", NOW / 1000 + HOUR])).toString("base64url")}.${signature}`;
    const bound = { fieldCount: 2, boundFor: () => ["hash-a"] };
    expect(readLinkToken(SECRETS, "broker-approval", forged, bound, NOW)).toEqual({ ok: false, reason: "invalid" });
    expect(readLinkToken(SECRETS, "broker-view", token(), bound, NOW).ok).toBe(false);
    expect(readLinkToken(["another-secret-0123456789abcdef"], "broker-approval", token(), bound, NOW).ok).toBe(false);
    expect(readLinkToken(SECRETS, "broker-approval", token(), { ...bound, fieldCount: 3 }, NOW).ok).toBe(false);
    for (const junk of [undefined, 7, "", "a.b.c", `${carried}.`, "x".repeat(3000), "bm90IGpzb24.abc"])
      expect(readLinkToken(SECRETS, "broker-approval", junk, bound, NOW).ok).toBe(false);
  });

  it("still reads with an older secret after rotation", () => {
    const reading = readLinkToken(
      ["new-secret-0123456789abcdefghij", ...SECRETS],
      "broker-approval",
      token(),
      {
        fieldCount: 2,
        boundFor: () => ["hash-a"],
      },
      NOW,
    );
    expect(reading.ok).toBe(true);
  });
});
