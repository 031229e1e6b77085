import { describe, expect, it } from "vitest";
import { formatPhoneForDisplay } from "../../app/domain/phone";

describe("phone numbers on profiles", () => {
  it("shows any 10 digits as (xxx) xxx-xxxx", () => {
    expect(formatPhoneForDisplay("2145550100")).toBe("(214) 555-0100");
    expect(formatPhoneForDisplay("214.555.0100")).toBe("(214) 555-0100");
    expect(formatPhoneForDisplay(" 123-456-7890 ")).toBe("(123) 456-7890");
  });

  it("shows other numbers as stored or in their national or international form", () => {
    expect(formatPhoneForDisplay("1 214 555 0100")).toBe("(214) 555-0100");
    expect(formatPhoneForDisplay("+44 20 7946 0958")).toBe("+44 20 7946 0958");
    expect(formatPhoneForDisplay("555-0100")).toBe("555-0100");
    expect(formatPhoneForDisplay("")).toBe("");
  });
});
