import { describe, expect, it } from "vitest";
import {
  agentProfilePath,
  bioPreview,
  contactMailto,
  loginFirstPath,
  membershipTypeLabel,
  messageAgentPath,
} from "../../app/domain/directory-cards";

describe("directory cards", () => {
  it("shows the membership type in capitals, MEMBER when there is none", () => {
    expect(membershipTypeLabel("founder")).toBe("FOUNDER");
    expect(membershipTypeLabel("vip")).toBe("VIP");
    expect(membershipTypeLabel("")).toBe("MEMBER");
  });

  it("previews a bio up to a word, with an ellipsis", () => {
    expect(bioPreview("  Short\n bio. ")).toBe("Short bio.");
    expect(bioPreview("one two three four five", 12)).toBe("one two…");
    expect(bioPreview("abcdefghijklmnopqrstuvwxyz", 10)).toBe("abcdefghij…");
    expect(bioPreview("word, another word", 6)).toBe("word…");
  });

  it("encodes ids in links", () => {
    expect(agentProfilePath("a_b_com")).toBe("/agent/a_b_com");
    expect(agentProfilePath("Jo Anne/x")).toBe("/agent/Jo%20Anne%2Fx");
    expect(messageAgentPath("a&b")).toBe("/messages?to=a%26b");
    expect(loginFirstPath("/messages?to=x")).toBe("/member-login?redirectTo=%2Fmessages%3Fto%3Dx");
  });

  it("builds a mailto link whose parts cannot break out of their place", () => {
    const href = contactMailto(
      { fullName: "Ann & Bo", email: "ann+tx@example.com" },
      { fullName: "Mia ?Member#", email: "mia@example.com", brokerage: "A&B Realty" },
    );
    expect(href.startsWith("mailto:ann%2Btx@example.com?subject=")).toBe(true);
    const [, query = ""] = href.split("?");
    const parts = query.split("&");
    expect(parts.map((part) => part.split("=")[0])).toEqual(["subject", "body"]);
    const subject = decodeURIComponent(parts[0]!.slice("subject=".length));
    const body = decodeURIComponent(parts[1]!.slice("body=".length));
    expect(subject).toBe("Referral inquiry from Mia ?Member# (Red River Referrals)");
    expect(body.startsWith("Hi Ann,\r\n\r\nI found your profile in the Red River Referrals member directory")).toBe(true);
    expect(body.endsWith("Best regards,\r\nMia ?Member#\r\nA&B Realty\r\nmia@example.com")).toBe(true);
    expect(href).not.toMatch(/[ +\n]/);
  });
});
