import { describe, expect, it } from "vitest";
import { agentWelcomeMail, staffRegistrationMail } from "../../app/server/mail/registration-mail.server";
import { agentRecord } from "../support/records";

const agent = agentRecord({
  id: "a1",
  fullName: "Dana <b>Reyes</b>",
  email: "dana@example.com",
  zipCode: "",
  licenseNumber: "0654321",
  licenseExpiration: "2027-06-30",
  specialties: ["Luxury", "Land"],
  bio: "Twenty years\nin Dallas",
  membershipType: "founder",
  status: "pending",
  passwordHash: "$2b$12$abcdefghijklmnopqrstuuKc8QpNQ1ZqXvW1y0rW9kX2lYpZq3T7e",
  createdAt: "2025-01-02T03:04:05.000Z",
  updatedAt: "2025-01-02T03:04:05.000Z",
});

describe("registration mails", () => {
  it("welcomes the agent with the next steps, the 24-48 hour check and the login address", () => {
    const mail = agentWelcomeMail(agent, "https://app.example/member-login");
    expect(mail.to).toBe("dana@example.com");
    expect(mail.text).toContain("24-48 hours");
    expect(mail.text).toContain("https://app.example/member-login");
    expect(mail.text).toContain("Founding Member");
    expect(mail.html).toContain("Dana &lt;b&gt;Reyes&lt;/b&gt;");
  });

  it("gives staff the profile, the license check and the look-up of the license's state", () => {
    const mail = staffRegistrationMail(agent, "support@example.test");
    expect(mail).toMatchObject({ to: "support@example.test", replyTo: "dana@example.com" });
    expect(mail.subject).toBe("New registration to verify: Dana <b>Reyes</b> (TX 0654321)");
    for (const text of [
      "License number: 0654321",
      "Brokerage: Lone Star Realty",
      "Specialties: Luxury, Land",
      "Broker email: Not provided",
    ]) {
      expect(mail.text).toContain(text);
    }
    expect(mail.text).toContain("https://www.trec.texas.gov/apps/license-holder-search/");
    expect(mail.text).toContain("License check: Not checked");
    const checked = staffRegistrationMail(
      { ...agent, licenseCheck: "TX active, name matches, broker matches", licenseCheckNote: "Sales agent 0654321" },
      "s@example.test",
    );
    expect(checked.text).toContain("License check: TX active, name matches, broker matches");
    expect(checked.text).toContain("License check details: Sales agent 0654321");
    const fromTrec = staffRegistrationMail({ ...agent, brokerLicenseNumber: "9001234", brokerFrom: "trec" }, "s@example.test");
    expect(fromTrec.text).toContain("Broker license number: 9001234");
    expect(fromTrec.text).toContain("Broker from: TREC's license data");
    expect(mail.text).toContain("Broker from: typed by the agent");
  });

  it("gives staff the OREC search and the license number for an Oklahoma applicant", () => {
    const mail = staffRegistrationMail(
      { ...agent, licenseState: "OK", licenseNumber: "187654", licenseCheck: "check OREC" },
      "s@example.test",
    );
    expect(mail.text).toContain("License check: check OREC");
    expect(mail.text).toContain("OREC search (license 187654): https://orec.us/");
    expect(mail.text).not.toContain("trec.texas.gov");
  });

  it("tells staff when an applicant was approved automatically", () => {
    const mail = staffRegistrationMail({ ...agent, status: "approved" }, "s@example.test");
    expect(mail.text).toMatch(/approved automatically/);
  });

  it("never carries the password or its hash", () => {
    for (const mail of [agentWelcomeMail(agent, "https://app.example/member-login"), staffRegistrationMail(agent, "s@example.test")]) {
      const whole = JSON.stringify(mail);
      expect(whole).not.toContain(agent.passwordHash);
      expect(whole.toLowerCase()).not.toMatch(/password:/);
    }
  });

  it("keeps the staff subject on one line whatever was typed", () => {
    const mail = staffRegistrationMail({ ...agent, fullName: "Dana\r\nBcc: x@evil.example" }, "s@example.test");
    expect(mail.subject).not.toMatch(/[\r\n]/);
  });
});
