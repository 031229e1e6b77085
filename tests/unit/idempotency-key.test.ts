import { describe, expect, it } from "vitest";
import { idempotencyKeyField } from "../../app/domain/idempotency-key";
import { retryValue } from "../../app/domain/idempotency-key-text";

const key = "0f8fad5b-d9cb-469f-a165-70867728950e";

describe("form keys", () => {
  it("read a key, and a key sent back from a refused form as a retry", () => {
    expect(idempotencyKeyField.parse(key)).toEqual({ key, retry: false });
    expect(idempotencyKeyField.parse(retryValue(key))).toEqual({ key, retry: true });
    expect(retryValue(`${key}:retry`)).toBe(`${key}:retry`);
    expect(idempotencyKeyField.parse(` ${key.toUpperCase()} `)).toEqual({ key, retry: false });
  });

  it("ignore anything else in the field", () => {
    for (const value of ["", "abc", `${key}:again`, `${key}x`, "=HYPERLINK(1)"]) {
      expect(idempotencyKeyField.parse(value)).toBeUndefined();
      expect(retryValue(value)).toBeUndefined();
    }
    expect(idempotencyKeyField.parse(undefined)).toBeUndefined();
  });
});
