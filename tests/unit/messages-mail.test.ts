import { describe, expect, it } from "vitest";
import { messageNotificationMail } from "../../app/server/mail/message-mail.server";

const notice = {
  sender: { fullName: "Ann <b>Archer</b>", brokerage: "", city: "", state: "" },
  recipient: { fullName: "Bob Brooks", email: "bob@example.com" },
  text: "Hello <script>alert(1)</script>\nsecond line",
  sentAt: new Date("2026-03-03T20:05:00.000Z"),
  conversationUrl: "https://referrals.example/messages?conversation=a--b",
};

describe("messageNotificationMail", () => {
  it("escapes the sender's words in the HTML part and keeps the preview on one line", () => {
    const mail = messageNotificationMail(notice);
    expect(mail.html).not.toContain("<script>");
    expect(mail.html).toContain("&lt;script&gt;alert(1)&lt;/script&gt; second line");
    expect(mail.html).toContain("Ann &lt;b&gt;Archer&lt;/b&gt;");
    expect(mail.text).toContain("Message: Hello <script>alert(1)</script> second line");
  });

  it("fills blanks with words, gives the time in Central time and names no e-mail address", () => {
    const mail = messageNotificationMail(notice);
    expect(mail.to).toBe("bob@example.com");
    expect(mail.text).toContain("Hello Bob,");
    expect(mail.text).toContain("Brokerage: Independent Agent");
    expect(mail.text).toContain("Location: Not specified");
    expect(mail.text).toContain("Sent: March 3, 2026 at 2:05");
    expect(mail.text).toContain("Read and reply: https://referrals.example/messages?conversation=a--b");
    expect(mail.replyTo).toBeUndefined();
  });
});
