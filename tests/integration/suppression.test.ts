/**
 * The suppression list: an address on it is final, a second request adds no row, and the
 * "don't invite me again" link names the address only when genuine.
 */
import { afterEach, describe, expect, it } from "vitest";
import { createStopInvitingToken, readStopInvitingToken, withStopInviting } from "../../app/server/outreach/stop-inviting.server";
import { isAddressSuppressed, suppressAddress } from "../../app/server/outreach/suppression.server";
import type { Store } from "../../app/server/store/store.server";
import { testContext } from "../support/services";

const opened: Store[] = [];
afterEach(async () => {
  await Promise.all(opened.splice(0).map((store) => store.stop()));
});

async function services() {
  const context = testContext();
  opened.push(context.services.store);
  await context.services.store.refresh();
  return context.services;
}

describe("the suppression list", () => {
  it("lists an address once however often it is suppressed, whatever its case", async () => {
    const svc = await services();
    const now = new Date("2026-11-29T10:00:00Z");
    expect(isAddressSuppressed(svc, "Dana@Example.com")).toBe(false);
    await Promise.all([
      suppressAddress(svc, { email: "Dana@Example.com", reason: "asked", note: "", now }),
      suppressAddress(svc, { email: "dana@example.com", reason: "bounce", note: "provider", now }),
    ]);
    expect(isAddressSuppressed(svc, "dana@example.COM")).toBe(true);
    const rows = await svc.store.suppressions.readStored();
    expect(rows.map((row) => [row.email, row.reason])).toEqual([["dana@example.com", "asked"]]);
  });
});

describe("the don't-invite-me-again link", () => {
  const secrets = ["first-secret-long-enough-for-tests"];

  it("names the address it was made for, and nothing when altered or signed with another secret", () => {
    const token = createStopInvitingToken(secrets, "Dana@Example.com");
    expect(readStopInvitingToken(secrets, token)).toBe("dana@example.com");
    expect(readStopInvitingToken(["another-secret-entirely"], token)).toBeUndefined();
    const [, signature] = token.split(".");
    const forged = `${Buffer.from("eve@example.com").toString("base64url")}.${signature}`;
    expect(readStopInvitingToken(secrets, forged)).toBeUndefined();
    expect(readStopInvitingToken(secrets, 42)).toBeUndefined();
  });

  it("goes into the mail's footer and its RFC 8058 headers", () => {
    const mail = withStopInviting(
      { to: "dana@example.com", subject: "Hello", text: "Body", html: "<p>Body</p>" },
      {
        config: { sessionSecrets: secrets, appUrl: "https://example.org", port: 3000 },
        email: "dana@example.com",
        reason: "Ann <Archer> invited you",
      },
    );
    const link = /Don't invite me again: (\S+)/.exec(mail.text)?.[1];
    expect(link).toMatch(/^https:\/\/example\.org\/stop-invitations\?token=/);
    expect(readStopInvitingToken(secrets, new URL(link!).searchParams.get("token"))).toBe("dana@example.com");
    expect(mail.headers).toMatchObject({ "List-Unsubscribe": `<${link}>`, "List-Unsubscribe-Post": "List-Unsubscribe=One-Click" });
    expect(mail.html).toContain("Ann &lt;Archer&gt; invited you");
  });
});
