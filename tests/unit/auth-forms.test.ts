import type { Submission } from "@conform-to/react";
import { getZodConstraint, parseWithZod } from "@conform-to/zod/v4";
import { describe, expect, it } from "vitest";
import { mailedLinkSchema, LOGIN_MESSAGES, loginSchema, resetPasswordSchema } from "../../app/domain/auth";
import {
  INVALID_EMAIL_MESSAGE,
  PASSWORD_TOO_LONG_MESSAGE,
  PASSWORD_TOO_SHORT_MESSAGE,
  PASSWORDS_DIFFER_MESSAGE,
} from "../../app/domain/registration";

function form(fields: Record<string, string>): FormData {
  const data = new FormData();
  for (const [name, value] of Object.entries(fields)) data.append(name, value);
  return data;
}

function errorsOf(submission: Submission<unknown>) {
  return submission.status === "success" ? {} : (submission.reply().error ?? {});
}

describe("the forms' schemas", () => {
  it.each([
    ["login", loginSchema],
    ["forgot password", mailedLinkSchema],
    ["new password", resetPasswordSchema],
  ])("%s gives the browser its constraints (the page renders)", (_label, schema) => {
    expect(() => getZodConstraint(schema)).not.toThrow();
  });
});

describe("login form", () => {
  it("reads a lower-cased, trimmed e-mail and the password as typed", () => {
    const submission = parseWithZod(form({ email: "  Dana@Example.COM ", password: " secret " }), { schema: loginSchema });
    expect(submission.status).toBe("success");
    expect(submission.status === "success" && submission.value).toEqual({
      email: "dana@example.com",
      password: " secret ",
      redirectTo: undefined,
    });
  });

  it.each([
    ["no e-mail", { password: "x" }],
    ["no password", { email: "dana@example.com" }],
    ["nothing", {}],
    ["blank fields", { email: "  ", password: "" }],
  ])("asks for both fields when given %s", (_label, fields) => {
    expect(errorsOf(parseWithZod(form(fields), { schema: loginSchema }))).toEqual({ "": [LOGIN_MESSAGES.required] });
  });

  it("says when the e-mail is not an address", () => {
    expect(errorsOf(parseWithZod(form({ email: "dana", password: "x" }), { schema: loginSchema }))).toEqual({
      email: [INVALID_EMAIL_MESSAGE],
    });
  });
});

describe("forgot password form", () => {
  it("needs an e-mail address", () => {
    expect(errorsOf(parseWithZod(form({}), { schema: mailedLinkSchema }))).toEqual({ email: ["Email is required"] });
    expect(errorsOf(parseWithZod(form({ email: "nope" }), { schema: mailedLinkSchema }))).toEqual({ email: [INVALID_EMAIL_MESSAGE] });
  });
});

describe("new password form", () => {
  it("accepts 8 characters typed twice", () => {
    expect(
      parseWithZod(form({ token: "t", password: "12345678", confirmPassword: "12345678" }), { schema: resetPasswordSchema }).status,
    ).toBe("success");
  });

  it("gives both the length and the mismatch messages at once", () => {
    const errors = errorsOf(
      parseWithZod(form({ token: "t", password: "short", confirmPassword: "other" }), { schema: resetPasswordSchema }),
    );
    expect(errors).toEqual({ password: [PASSWORD_TOO_SHORT_MESSAGE], confirmPassword: [PASSWORDS_DIFFER_MESSAGE] });
  });

  it("refuses a password bcrypt would cut short", () => {
    const long = "é".repeat(37);
    expect(errorsOf(parseWithZod(form({ token: "t", password: long, confirmPassword: long }), { schema: resetPasswordSchema }))).toEqual({
      password: [PASSWORD_TOO_LONG_MESSAGE],
    });
  });
});
