import { existsSync, mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import webPush from "web-push";
import { describe, expect, it } from "vitest";
import { hashPassword, verifyPassword } from "../../app/server/auth/password.server";
import { ConfigError, loadConfig, parseTrustProxy } from "../../app/server/config.server";

const freshDir = () => mkdtempSync(path.join(tmpdir(), "config-test-"));

describe("loadConfig", () => {
  it("applies the documented defaults", () => {
    const config = loadConfig({ DATA_DIR: freshDir() });
    expect(config.port).toBe(3000);
    expect(config.env).toBe("development");
    expect(config.sendgridApiKey).toBeUndefined();
  });

  it("refuses to start in production without a session secret", () => {
    expect(() => loadConfig({ NODE_ENV: "production", DATA_DIR: freshDir() })).toThrow(ConfigError);
    expect(() => loadConfig({ NODE_ENV: "production", DATA_DIR: freshDir() })).toThrow(/SESSION_SECRET is required/);
  });

  it("refuses to start in production without the public address mailed links use", () => {
    expect(() => loadConfig({ NODE_ENV: "production", DATA_DIR: freshDir(), SESSION_SECRET: "s" })).toThrow(/APP_URL is required/);
    expect(loadConfig({ NODE_ENV: "production", DATA_DIR: freshDir(), SESSION_SECRET: "s", APP_URL: "https://x.example/" }).appUrl).toBe(
      "https://x.example",
    );
  });

  it("generates a development secret once and keeps it in DATA_DIR", () => {
    const dataDir = freshDir();
    const first = loadConfig({ DATA_DIR: dataDir }).sessionSecrets;
    const second = loadConfig({ DATA_DIR: dataDir }).sessionSecrets;
    expect(first).toEqual(second);
    expect(first[0]).toMatch(/^[0-9a-f]{64}$/);
    expect(readFileSync(path.join(dataDir, ".dev-session-secret"), "utf8")).toBe(first[0]);
  });

  it("reads a comma list of secrets for rotation and writes no file", () => {
    const dataDir = freshDir();
    const config = loadConfig({ DATA_DIR: dataDir, SESSION_SECRET: "new-secret, old-secret" });
    expect(config.sessionSecrets).toEqual(["new-secret", "old-secret"]);
    expect(existsSync(path.join(dataDir, ".dev-session-secret"))).toBe(false);
  });

  it("names every invalid variable", () => {
    expect(() => loadConfig({ PORT: "eighty", SUPPORT_EMAIL: "nobody" })).toThrow(/PORT[\s\S]*SUPPORT_EMAIL/);
  });

  it("reads TRUST_PROXY as a hop count, a boolean or a list of addresses", () => {
    expect(parseTrustProxy("1")).toBe(1);
    expect(parseTrustProxy("true")).toBe(true);
    expect(parseTrustProxy("false")).toBe(false);
    expect(parseTrustProxy("loopback, 10.0.0.0/8")).toBe("loopback, 10.0.0.0/8");
    expect(loadConfig({ DATA_DIR: freshDir() }).trustProxy).toBe("loopback");
  });

  it("accepts a valid support phone and refuses a malformed one", () => {
    expect(loadConfig({ DATA_DIR: freshDir(), SUPPORT_PHONE: "+1 214 555 0100" }).supportPhone).toBeDefined();
    expect(() => loadConfig({ DATA_DIR: freshDir(), SUPPORT_PHONE: "12" })).toThrow(/SUPPORT_PHONE/);
  });

  it("reads the providers' API roots, defaulting to the real services, and refuses ones that are not URLs", () => {
    const defaults = loadConfig({ DATA_DIR: freshDir(), CLOUDINARY_URL: "cloudinary://key:secret@cloud" });
    expect(defaults.sendgridApiUrl).toBeUndefined();
    expect(defaults.cloudinary).toEqual({ cloudName: "cloud", apiKey: "key", apiSecret: "secret", uploadPrefix: undefined });
    const local = loadConfig({
      DATA_DIR: freshDir(),
      SENDGRID_API_URL: "http://127.0.0.1:3291/",
      CLOUDINARY_URL: "cloudinary://key:secret@cloud?upload_prefix=http%3A%2F%2F127.0.0.1%3A3292",
    });
    expect(local.sendgridApiUrl).toBe("http://127.0.0.1:3291/");
    expect(local.cloudinary?.uploadPrefix).toBe("http://127.0.0.1:3292");
    expect(() => loadConfig({ DATA_DIR: freshDir(), SENDGRID_API_URL: "sendgrid" })).toThrow(/SENDGRID_API_URL/);
    expect(() => loadConfig({ DATA_DIR: freshDir(), CLOUDINARY_URL: "cloudinary://key:secret@cloud?upload_prefix=nowhere" })).toThrow(
      /CLOUDINARY_URL/,
    );
  });

  it("reads the license data source and automatic approval, off by default", () => {
    expect(loadConfig({ DATA_DIR: freshDir() }).licenses).toEqual({ source: undefined, autoApprove: false });
    const api = loadConfig({
      DATA_DIR: freshDir(),
      TREC_LICENSE_API_URL: "https://data.texas.gov/resource/abcd-1234.json",
      LICENSE_AUTO_APPROVE: "tx-active-exact",
    });
    expect(api.licenses).toEqual({ source: { kind: "api", url: "https://data.texas.gov/resource/abcd-1234.json" }, autoApprove: true });
    expect(loadConfig({ DATA_DIR: freshDir(), TREC_LICENSE_FILE_URL: "https://example.test/trecfile.txt" }).licenses.source).toEqual({
      kind: "file",
      url: "https://example.test/trecfile.txt",
    });
    expect(() =>
      loadConfig({ DATA_DIR: freshDir(), TREC_LICENSE_FILE_URL: "https://a.test/f.txt", TREC_LICENSE_API_URL: "https://b.test/r.json" }),
    ).toThrow(/only one of TREC_LICENSE_FILE_URL/);
    expect(() => loadConfig({ DATA_DIR: freshDir(), TREC_LICENSE_API_URL: "data.texas.gov" })).toThrow(/TREC_LICENSE_API_URL/);
    expect(() => loadConfig({ DATA_DIR: freshDir(), LICENSE_AUTO_APPROVE: "yes" })).toThrow(/LICENSE_AUTO_APPROVE/);
  });
});

describe("bcrypt's cost", () => {
  const production = { NODE_ENV: "production", SESSION_SECRET: "s", APP_URL: "https://x.example" };

  // Two bcrypt runs at production's cost: seconds on a busy machine.
  it("is 12 in production, and production's hashes are made at 12", { timeout: 30_000 }, async () => {
    const config = loadConfig({ ...production, DATA_DIR: freshDir() });
    expect(config.passwordHashCost).toBe(12);
    const hash = await hashPassword(config, "correct horse battery");
    expect(hash).toMatch(/^\$2[aby]\$12\$/);
    expect(await verifyPassword("correct horse battery", hash)).toBe(true);
  });

  it("is never lower outside tests, though production may raise it", () => {
    for (const env of [production, { NODE_ENV: "development" }, {}]) {
      expect(() => loadConfig({ ...env, DATA_DIR: freshDir(), PASSWORD_HASH_COST: "4" })).toThrow(
        /PASSWORD_HASH_COST below 12 is for tests only/,
      );
    }
    expect(loadConfig({ DATA_DIR: freshDir() }).passwordHashCost).toBe(12);
    expect(loadConfig({ ...production, DATA_DIR: freshDir(), PASSWORD_HASH_COST: "13" }).passwordHashCost).toBe(13);
  });

  it("may be lowered by a test run, to bcrypt's least", () => {
    expect(loadConfig({ NODE_ENV: "test", DATA_DIR: freshDir() }).passwordHashCost).toBe(12);
    expect(loadConfig({ NODE_ENV: "test", DATA_DIR: freshDir(), PASSWORD_HASH_COST: "4" }).passwordHashCost).toBe(4);
    expect(() => loadConfig({ NODE_ENV: "test", DATA_DIR: freshDir(), PASSWORD_HASH_COST: "3" })).toThrow(/PASSWORD_HASH_COST/);
  });
});

describe("Web Push's VAPID keys", () => {
  const production = { NODE_ENV: "production", SESSION_SECRET: "s", APP_URL: "https://x.example" };
  const keys = webPush.generateVAPIDKeys();

  it("makes a key pair once outside production, keeps it in DATA_DIR and reuses it", () => {
    const dataDir = freshDir();
    const first = loadConfig({ DATA_DIR: dataDir }).push;
    expect(first.vapid?.publicKey).toMatch(/^B[\w-]{86}$/);
    expect(first.vapid?.privateKey).toMatch(/^[\w-]{43}$/);
    expect(first.vapid?.subject).toBe("mailto:support@redriverreferrals.com");
    expect(loadConfig({ DATA_DIR: dataDir }).push.vapid).toEqual(first.vapid);
    expect(existsSync(path.join(dataDir, ".dev-vapid-keys.json"))).toBe(true);
    expect(first.mailWaitMs).toBe(15 * 60_000);
  });

  it("turns push off in production without all three variables, naming the missing ones, and the rest of the site starts", () => {
    const config = loadConfig({ ...production, DATA_DIR: freshDir(), VAPID_PUBLIC_KEY: keys.publicKey });
    expect(config.push).toMatchObject({ vapid: undefined, offBecause: "VAPID_PRIVATE_KEY, VAPID_SUBJECT not set" });
    const none = loadConfig({ ...production, DATA_DIR: freshDir() });
    expect(none.push.offBecause).toBe("VAPID_PUBLIC_KEY, VAPID_PRIVATE_KEY, VAPID_SUBJECT not set");
    const dataDir = freshDir();
    loadConfig({ ...production, DATA_DIR: dataDir });
    expect(existsSync(path.join(dataDir, ".dev-vapid-keys.json"))).toBe(false);
  });

  it("uses the three variables in production", () => {
    const config = loadConfig({
      ...production,
      DATA_DIR: freshDir(),
      VAPID_PUBLIC_KEY: keys.publicKey,
      VAPID_PRIVATE_KEY: keys.privateKey,
      VAPID_SUBJECT: "mailto:ops@x.example",
    });
    expect(config.push).toMatchObject({ vapid: { ...keys, subject: "mailto:ops@x.example" }, offBecause: undefined });
  });

  it("refuses keys that are not VAPID keys, a subject that is no mailto: or https: address, and a bad mail wait", () => {
    const dataDir = freshDir();
    expect(() => loadConfig({ DATA_DIR: dataDir, VAPID_PUBLIC_KEY: "not-a-key" })).toThrow(/VAPID_PUBLIC_KEY: must be the public key/);
    expect(() => loadConfig({ DATA_DIR: dataDir, VAPID_PRIVATE_KEY: keys.publicKey })).toThrow(/VAPID_PRIVATE_KEY/);
    expect(() => loadConfig({ DATA_DIR: dataDir, VAPID_SUBJECT: "http://x.example" })).toThrow(/VAPID_SUBJECT: must be a mailto:/);
    expect(() => loadConfig({ DATA_DIR: dataDir, PUSH_MAIL_WAIT_MS: "-1" })).toThrow(/PUSH_MAIL_WAIT_MS/);
    expect(loadConfig({ DATA_DIR: dataDir, PUSH_MAIL_WAIT_MS: "500" }).push.mailWaitMs).toBe(500);
  });
});
