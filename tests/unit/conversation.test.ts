import { describe, expect, it } from "vitest";
import { conversationIdFor } from "../../app/domain/conversation";

describe("conversationIdFor", () => {
  const a = "0b6f1c0e-2a4d-4d7e-9c55-1f0a3e8b7d21";
  const b = "f3c9a7d2-8e41-4b0f-a6d3-5c2e9b1f0a47";

  it("joins the two ids in sorted order with --", () => {
    expect(conversationIdFor(a, b)).toBe(`${a}--${b}`);
  });

  it("is the same whichever agent asks", () => {
    expect(conversationIdFor(b, a)).toBe(conversationIdFor(a, b));
  });

  it("ignores surrounding spaces, as the store does for ids", () => {
    expect(conversationIdFor(` ${b}`, `${a} `)).toBe(`${a}--${b}`);
  });

  it("refuses a missing id rather than making an id that names one agent", () => {
    expect(() => conversationIdFor("", b)).toThrow(RangeError);
    expect(() => conversationIdFor(a, "  ")).toThrow(RangeError);
  });
});
