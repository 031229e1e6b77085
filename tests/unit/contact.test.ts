import { parseWithZod } from "@conform-to/zod/v4";
import { describe, expect, it } from "vitest";
import { contactSchema } from "../../app/domain/contact";
import { contactMail } from "../../app/server/mail/contact-mail.server";

function parse(fields: Record<string, string>) {
  const formData = new FormData();
  for (const [name, value] of Object.entries(fields)) formData.append(name, value);
  return parseWithZod(formData, { schema: contactSchema });
}

const valid = {
  name: "Dana Reyes",
  email: " Dana@Example.COM ",
  category: "verification",
  subject: "License",
  message: "Hello",
};

describe("contact schema", () => {
  it("accepts a complete message and normalises the e-mail", () => {
    const result = parse(valid);
    expect(result.status).toBe("success");
    if (result.status === "success") expect(result.value.email).toBe("dana@example.com");
  });

  it("gives the product's message for each missing field", () => {
    const result = parse({});
    expect(result.status).toBe("error");
    const reply = result.reply();
    expect(reply.error).toMatchObject({
      name: ["Full name is required"],
      email: ["Email is required"],
      category: ["Please choose a category"],
      subject: ["Subject is required"],
      message: ["Message is required"],
    });
  });

  it("refuses a malformed e-mail, an unknown category and a state outside TX and OK", () => {
    const reply = parse({ ...valid, email: "dana@", category: "spam", state: "CA" }).reply();
    expect(reply.error?.email).toEqual(["Please enter a valid email address"]);
    expect(reply.error?.category).toEqual(["Please choose a category"]);
    expect(reply.error?.state).toEqual(["Please choose TX or OK"]);
  });

  it("treats blank optional fields as not given", () => {
    const result = parse({ ...valid, agentLicense: "", state: "" });
    expect(result.status).toBe("success");
  });
});

describe("contact mail", () => {
  it("escapes user text in HTML, keeps it in text, and fills the optional fields with 'Not provided'", () => {
    const mail = contactMail(
      { name: "<script>x</script>", email: "a@b.co", category: "payment", subject: "Hi\r\nBcc: evil@x.co", message: "Line 1\nLine 2" },
      "support@example.test",
      new Date("2026-01-02T03:04:05Z"),
    );
    expect(mail.subject).toBe("[Payment/Billing] Hi Bcc: evil@x.co");
    expect(mail.html).not.toContain("<script>");
    expect(mail.html).toContain("&lt;script&gt;");
    expect(mail.text).toContain("Agent license: Not provided");
    expect(mail.text).toContain("State: Not provided");
    expect(mail.text).toContain("Line 1\nLine 2");
    expect(mail.replyTo).toBe("a@b.co");
  });
});
