import { describe, expect, it } from "vitest";
import { brokerageLabel, firstName, initials, locationLabel, photoSource, specialtiesSummary } from "../../app/domain/member-profile";

describe("profile card fallbacks", () => {
  it("greets by first name and shows two initials", () => {
    expect(firstName("  Dana Maria Reyes ")).toBe("Dana");
    expect(initials("Dana Maria Reyes")).toBe("DR");
    expect(initials("cher")).toBe("C");
    expect(initials("")).toBe("");
  });

  it("says when location and brokerage are not set", () => {
    expect(locationLabel("Tulsa", "OK")).toBe("Tulsa, OK");
    expect(locationLabel("", "TX")).toBe("TX");
    expect(locationLabel(" ", "")).toBe("Location not set");
    expect(brokerageLabel("")).toBe("Not specified");
    expect(brokerageLabel("Red River Realty")).toBe("Red River Realty");
  });

  it("shows three specialties and counts the rest", () => {
    expect(specialtiesSummary(["A", "B"])).toEqual({ shown: ["A", "B"], more: 0 });
    expect(specialtiesSummary(["A", "B", "C", "D", "E"])).toEqual({ shown: ["A", "B", "C"], more: 2 });
  });

  it("uses only https or same-site photos", () => {
    expect(photoSource("https://res.cloudinary.com/x/photo.jpg")).toBe("https://res.cloudinary.com/x/photo.jpg");
    expect(photoSource("/uploads/abc.webp")).toBe("/uploads/abc.webp");
    expect(photoSource("http://example.com/a.jpg")).toBeNull();
    expect(photoSource("javascript:alert(1)")).toBeNull();
    expect(photoSource("//evil.example/a.jpg")).toBeNull();
    expect(photoSource("data:image/png;base64,AAAA")).toBeNull();
    expect(photoSource("")).toBeNull();
  });
});
