import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

/** The browser build (scripts/test.sh builds before the tests run). */
const ASSETS = path.resolve("build/client/assets");

describe("the browser bundle", () => {
  it("leaves out libphonenumber: the browser checks only the phone rule, the server the rest", () => {
    const scripts = readdirSync(ASSETS).filter((name) => name.endsWith(".js"));
    expect(scripts.length).toBeGreaterThan(10);
    const withPhoneMetadata = scripts.filter((name) => readFileSync(path.join(ASSETS, name), "utf8").includes("getCountryCodeForCallingCode"));
    expect(withPhoneMetadata).toEqual([]);
  });
});
