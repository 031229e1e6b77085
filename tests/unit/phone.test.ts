import { describe, expect, it } from "vitest";
import { formatPhone, isValidPhone } from "../../app/domain/phone";

describe("isValidPhone", () => {
  it.each(["214-555-0100", "(214) 555-0100", "2145550100", "+1 214 555 0100", "405.555.0199", "+44 20 7946 0958"])(
    "accepts %s",
    (phone) => {
      expect(isValidPhone(phone)).toBe(true);
    },
  );

  it.each([
    ["too short", "214 555 010"],
    ["letters", "214-555-01OO"],
    ["other characters", "214/555/0100"],
    ["no such area code", "555-123-4567"],
    ["not a number at all", "call me"],
    // Ten characters with spaces removed is the product's minimum.
    ["nine digits", "214555010"],
  ])("refuses %s (%s)", (_reason, phone) => {
    expect(isValidPhone(phone)).toBe(false);
  });
});

describe("formatPhone", () => {
  it("writes US numbers as (xxx) xxx-xxxx", () => {
    expect(formatPhone("214.555.0100")).toBe("(214) 555-0100");
    expect(formatPhone("+1 214 555 0100")).toBe("(214) 555-0100");
    expect(formatPhone(" 2145550100 ")).toBe("(214) 555-0100");
  });

  it("writes other countries' numbers in international form", () => {
    expect(formatPhone("+44 20 7946 0958")).toBe("+44 20 7946 0958");
  });

  it("returns input it cannot read trimmed, unchanged", () => {
    expect(formatPhone("  12345 ")).toBe("12345");
  });
});
