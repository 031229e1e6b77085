import { parseWithZod } from "@conform-to/zod/v4";
import { describe, expect, it } from "vitest";
import { SPECIALTIES } from "../../app/domain/enums";
import { FOUNDER_CAP, founderSpotsLeft } from "../../app/domain/product";
import { membershipTypeFor, profileCompletionSchema, quickRegistrationSchema } from "../../app/domain/registration";

type Fields = Record<string, string | string[] | File>;

function formData(fields: Fields): FormData {
  const data = new FormData();
  for (const [name, value] of Object.entries(fields)) {
    for (const item of Array.isArray(value) ? value : [value]) data.append(name, item);
  }
  return data;
}

function errorsOf(result: { error?: Record<string, string[] | null> | null }) {
  return Object.fromEntries(Object.entries(result.error ?? {}).map(([name, messages]) => [name, messages?.[0]]));
}

describe("quick registration schema", () => {
  const valid = { fullName: " Dana Reyes ", email: " Dana@Example.COM ", phone: "214.555.0100", state: "TX", city: " Dallas " };
  const parse = (fields: Fields) => parseWithZod(formData(fields), { schema: quickRegistrationSchema });

  it("trims, lower-cases the e-mail and formats the phone", () => {
    const result = parse(valid);
    expect(result.status).toBe("success");
    expect(result.status === "success" && result.value).toEqual({
      fullName: "Dana Reyes",
      email: "dana@example.com",
      phone: "(214) 555-0100",
      state: "TX",
      city: "Dallas",
    });
  });

  it("gives the product's message for every missing field", () => {
    expect(errorsOf(parse({}).reply())).toEqual({
      fullName: "Full name is required",
      email: "Email is required",
      phone: "Phone number is required",
      state: "Please select your state",
      city: "City is required",
    });
  });

  it("treats blank text as missing", () => {
    expect(errorsOf(parse({ ...valid, fullName: "   ", city: " " }).reply())).toEqual({
      fullName: "Full name is required",
      city: "City is required",
    });
  });

  it("refuses a malformed e-mail, a bad phone number and a state outside the two markets", () => {
    expect(errorsOf(parse({ ...valid, email: "dana@", phone: "12345", state: "CA" }).reply())).toEqual({
      email: "Please enter a valid email address",
      phone: "Please enter a valid phone number",
      state: "Please select your state",
    });
  });

  it("carries an invitation code along", () => {
    const result = parse({ ...valid, vip: " GOLD " });
    expect(result.status === "success" && result.value.vip).toBe("GOLD");
  });
});

describe("profile completion schema", () => {
  const valid = {
    password: "correct horse",
    confirmPassword: "correct horse",
    licenseNumber: " 0654321 ",
    licenseState: "TX",
    brokerage: "Lone Star Realty",
    brokerLicenseNumber: "9001234",
    brokerEmail: "broker@lonestar.example",
  };
  const parse = (fields: Fields) => parseWithZod(formData(fields), { schema: profileCompletionSchema });

  it("accepts the required fields alone, with no specialties", () => {
    const result = parse(valid);
    expect(result.status).toBe("success");
    expect(result.status === "success" && result.value).toMatchObject({ licenseNumber: "0654321", specialties: [] });
  });

  it("gives the product's messages for the password, license number and brokerage, and asks for the broker's license and e-mail", () => {
    expect(errorsOf(parse({ password: "short", confirmPassword: "other" }).reply())).toEqual({
      password: "Password must be at least 8 characters long.",
      confirmPassword: "Passwords do not match. Please try again.",
      licenseNumber: "License number is required",
      licenseState: "Please select your license state",
      brokerage: "Brokerage is required",
      brokerLicenseNumber: "Broker license number is required",
      brokerEmail: "Broker email is required",
    });
  });

  it("gives each password field one message: both left empty is a short password, not a mismatch", () => {
    expect(errorsOf(parse({ ...valid, password: "", confirmPassword: "" }).reply())).toEqual({
      password: "Password must be at least 8 characters long.",
    });
    expect(errorsOf(parse({ ...valid, confirmPassword: "" }).reply())).toEqual({
      confirmPassword: "Passwords do not match. Please try again.",
    });
  });

  it("says the passwords differ even when everything else is right", () => {
    expect(errorsOf(parse({ ...valid, confirmPassword: "correct horsE" }).reply())).toEqual({
      confirmPassword: "Passwords do not match. Please try again.",
    });
  });

  it("refuses passwords bcrypt would cut short", () => {
    const long = "a".repeat(73);
    expect(errorsOf(parse({ ...valid, password: long, confirmPassword: long }).reply())).toEqual({
      password: "Password must be at most 72 characters long.",
    });
  });

  it("keeps one value per checked specialty and refuses unknown ones", () => {
    const checked = parse({ ...valid, specialties: ["Luxury", "Land", "Luxury"] });
    expect(checked.status === "success" && checked.value.specialties).toEqual(["Luxury", "Land"]);
    expect(errorsOf(parse({ ...valid, specialties: ["Luxury", "Castles"] }).reply())).toEqual({
      "specialties[1]": "Please choose from the listed specialties",
    });
    const all = parse({ ...valid, specialties: [...SPECIALTIES] });
    expect(all.status === "success" && all.value.specialties).toHaveLength(13);
  });

  it("limits the bio to 600 characters", () => {
    expect(parse({ ...valid, bio: "x".repeat(600) }).status).toBe("success");
    expect(errorsOf(parse({ ...valid, bio: "x".repeat(601) }).reply())).toEqual({ bio: "Bio must be 600 characters or less" });
  });

  it("checks the broker e-mail and the optional license expiration when given", () => {
    expect(errorsOf(parse({ ...valid, brokerEmail: "broker@", licenseExpiration: "2026-02-30" }).reply())).toEqual({
      brokerEmail: "Please enter a valid email address",
      licenseExpiration: "Please enter a valid date",
    });
    const result = parse({ ...valid, brokerEmail: "Broker@Example.com", licenseExpiration: "2027-06-30" });
    expect(result.status === "success" && result.value).toMatchObject({
      brokerEmail: "broker@example.com",
      licenseExpiration: "2027-06-30",
    });
  });

  it("refuses a photo of the wrong type or over 5MB, and treats an empty file input as no photo", () => {
    const text = new File(["hello"], "photo.jpg", { type: "text/plain" });
    expect(errorsOf(parse({ ...valid, photo: text }).reply())).toEqual({ photo: "Please upload a JPG, PNG, or WebP image" });
    const big = new File([new Uint8Array(5_242_881)], "big.jpg", { type: "image/jpeg" });
    expect(errorsOf(parse({ ...valid, photo: big }).reply())).toEqual({ photo: "File size must be less than 5MB" });
    const exactly = new File([new Uint8Array(5_242_880)], "ok.jpg", { type: "image/jpg" });
    expect(parse({ ...valid, photo: exactly }).status).toBe("success");
    const none = parse({ ...valid, photo: new File([], "", { type: "application/octet-stream" }) });
    expect(none.status === "success" && none.value.photo).toBeUndefined();
  });
});

describe("membershipTypeFor", () => {
  it("is VIP with a code, founder while spots are left, member after", () => {
    expect(membershipTypeFor({ vipCode: "GOLD", foundersLeft: 0 })).toBe("vip");
    expect(membershipTypeFor({ vipCode: undefined, foundersLeft: FOUNDER_CAP })).toBe("founder");
    expect(membershipTypeFor({ vipCode: undefined, foundersLeft: 1 })).toBe("founder");
    expect(membershipTypeFor({ vipCode: undefined, foundersLeft: 0 })).toBe("member");
  });
});

describe("founderSpotsLeft", () => {
  const row = (membershipType: string, status: string) => ({ membershipType, status });

  it("counts founder rows staff have not rejected, pending or approved", () => {
    expect(founderSpotsLeft([])).toBe(FOUNDER_CAP);
    expect(founderSpotsLeft([row("founder", "approved"), row("founder", "pending"), row("founder", "rejected")])).toBe(FOUNDER_CAP - 2);
  });

  it("leaves VIP and member rows out, and never goes below zero", () => {
    expect(founderSpotsLeft([row("vip", "approved"), row("member", "pending")])).toBe(FOUNDER_CAP);
    expect(founderSpotsLeft(Array.from({ length: FOUNDER_CAP + 2 }, () => row("founder", "approved")))).toBe(0);
  });
});
