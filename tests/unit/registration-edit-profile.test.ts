import { parseWithZod } from "@conform-to/zod/v4";
import { describe, expect, it } from "vitest";
import { editProfileSchema, isAcceptedPhotoUrl } from "../../app/domain/profile";

function parse(fields: Record<string, string | string[]>) {
  const data = new FormData();
  for (const [name, value] of Object.entries(fields)) {
    for (const item of Array.isArray(value) ? value : [value]) data.append(name, item);
  }
  return parseWithZod(data, { schema: editProfileSchema });
}

function errorsOf(result: { error?: Record<string, string[] | null> | null }) {
  return Object.fromEntries(Object.entries(result.error ?? {}).map(([name, messages]) => [name, messages?.[0]]));
}

const valid = { fullName: "Dana Reyes", city: "Tulsa", state: "OK", password: "anything" };

describe("edit profile schema", () => {
  it("needs full name, city, state and the password", () => {
    expect(errorsOf(parse({}).reply())).toEqual({
      fullName: "Full name is required",
      city: "City is required",
      state: "Please select your state",
      password: "Password is required for authentication",
    });
  });

  it("accepts any of the 50 state codes", () => {
    expect(parse({ ...valid, state: "CA" }).status).toBe("success");
    expect(errorsOf(parse({ ...valid, state: "XX" }).reply())).toEqual({ state: "Please select your state" });
  });

  it("formats a phone number and refuses one that is not", () => {
    const result = parse({ ...valid, phone: "918 555 0142" });
    expect(result.status === "success" && result.value.phone).toBe("(918) 555-0142");
    expect(errorsOf(parse({ ...valid, phone: "918-555" }).reply())).toEqual({ phone: "Please enter a valid phone number" });
  });

  it("takes photo links over https only", () => {
    expect(parse({ ...valid, photoUrl: "https://res.cloudinary.com/demo/image/upload/profiles/a.jpg" }).status).toBe("success");
    for (const photoUrl of ["http://example.com/a.jpg", "javascript:alert(1)", "data:image/png;base64,AAAA", "not a url"]) {
      expect(errorsOf(parse({ ...valid, photoUrl }).reply())).toEqual({ photoUrl: "Please enter an image URL starting with https://" });
    }
  });
});

describe("isAcceptedPhotoUrl", () => {
  it("accepts the app's own upload paths but nothing that climbs out of them", () => {
    expect(isAcceptedPhotoUrl("/uploads/profile-0b4e-11aa.jpg")).toBe(true);
    expect(isAcceptedPhotoUrl("/uploads/../store.sqlite")).toBe(false);
    expect(isAcceptedPhotoUrl("/uploads/a.svg")).toBe(false);
    expect(isAcceptedPhotoUrl("//evil.example/a.jpg")).toBe(false);
  });
});
