import { describe, expect, it } from "vitest";
import { htmlAsText, isAutomaticReply, parseHeaderLines, replyTokenIn } from "../../app/domain/mail-reply";
import { prunableClaims } from "../../app/domain/send-claims";
import { readReplyToken, replyToken } from "../../app/server/mail/reply-address.server";
import { agentRecord, claimRecord } from "../support/records";

const maria = agentRecord({ id: "3f0c6a8e-5b1d-4c3e-9a7f-2d4b6c8e0a1f", email: "maria@example.com" });
const james = agentRecord({ id: "9b2d4f6a-8c0e-4a2b-b4d6-f8a0c2e4b6d8", email: "james@example.com" });
const SECRETS = ["first secret"];
const NOW = new Date("2026-11-28T12:00:00Z");

describe("the reply token", () => {
  it("fits an e-mail local part with its prefix, in lower-case base32, and reads back after lower-casing", () => {
    const token = replyToken(SECRETS, james.id, maria.id, NOW);
    expect(`reply+${token}`.length).toBeLessThanOrEqual(64);
    expect(token).toMatch(/^[a-z2-7]+$/);
    expect(readReplyToken(SECRETS, token.toUpperCase(), [maria, james], NOW)).toMatchObject({
      ok: true,
      member: { id: james.id },
      partner: { id: maria.id },
    });
  });

  it("is read with an older secret after rotation, and refused when one character changes or after 90 days", () => {
    const token = replyToken(SECRETS, james.id, maria.id, NOW);
    expect(readReplyToken(["new secret", ...SECRETS], token, [maria, james], NOW).ok).toBe(true);
    const changed = token.slice(0, -1) + (token.endsWith("a") ? "b" : "a");
    expect(readReplyToken(SECRETS, changed, [maria, james], NOW)).toEqual({ ok: false, reason: "forged" });
    expect(readReplyToken(SECRETS, token, [maria, james], new Date(NOW.getTime() + 89 * 86_400_000)).ok).toBe(true);
    expect(readReplyToken(SECRETS, token, [maria, james], new Date(NOW.getTime() + 91 * 86_400_000))).toMatchObject({
      ok: false,
      reason: "expired",
    });
  });

  it("is found among the recipients only on the inbound domain", () => {
    expect(replyTokenIn(["Maria <x@example.com>", "REPLY+ABC@Reply.Example.Test"], "reply.example.test")).toBe("abc");
    expect(replyTokenIn(["reply+abc@reply.example.test.evil.example"], "reply.example.test")).toBeNull();
  });
});

describe("reading a reply", () => {
  it("tells automatic answers from a person's", () => {
    expect(isAutomaticReply(parseHeaderLines("Auto-Submitted: auto-replied"))).toBe(true);
    expect(isAutomaticReply(parseHeaderLines("Auto-Submitted: no\nX-Auto-Response-Suppress: All"))).toBe(false);
    expect(isAutomaticReply(parseHeaderLines("Precedence: bulk"))).toBe(true);
  });

  it("reads HTML as text without Outlook's quoted original", () => {
    const html = '<p>Yes &mdash; see you then.</p><div id="divRplyFwdMsg"><b>From:</b> Red River Referrals</div><div>Hello</div>';
    expect(htmlAsText(html).trim()).toBe("Yes — see you then.");
  });
});

describe("the send claims of replies by mail", () => {
  const claim = (key: string, daysAgo: number) => claimRecord(key, daysAgo, NOW);

  it("go after a month, long after the provider's last retry", () => {
    const rows = [claim("reply-mail:abc", 31), claim("reply-mail:def", 5), claim("reply-refused:j@x.com:123", 40)];
    const facts = { decisionMailed: () => false, lastReminder: () => undefined };
    expect(prunableClaims(rows, NOW, facts).map((row) => row.key)).toEqual(["reply-mail:abc", "reply-refused:j@x.com:123"]);
  });
});
