/**
 * Invitations' configuration (docs/decisions/0084): the operator's postal address, without
 * which production starts with invitations off, and SendGrid's event-signing key, read as
 * SendGrid's settings page shows it.
 */
import { generateKeyPairSync } from "node:crypto";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { ConfigError, loadConfig } from "../../app/server/config.server";
import { invitationsAvailable } from "../../app/server/outreach/stop-inviting.server";

const production = () => ({
  NODE_ENV: "production",
  DATA_DIR: mkdtempSync(path.join(tmpdir(), "outreach-config-")),
  SESSION_SECRET: "a-production-secret-long-enough",
  APP_URL: "https://referrals.example",
});

/** SendGrid's example Verification Key, from the tests of its client libraries. */
const SENDGRID_SAMPLE_KEY =
  "MFkwEwYHKoZIzj0CAQYIKoZIzj0DAQcDQgAEEDr2LjtURuePQzplybdC+u4CwrqDqBaWjcMMsTbhdbcwHBcepxo7yAQGhHPTnlvFYPAZFceEu/1FwCM/QmGUhA==";

describe("the postal address", () => {
  it("is not needed to start in production, where invitations are off without it", () => {
    const config = loadConfig(production());
    expect(config.postalAddress).toBeUndefined();
    expect(invitationsAvailable(config)).toBe(false);
  });

  it("turns invitations on in production once set", () => {
    const config = loadConfig({ ...production(), POSTAL_ADDRESS: " 100 Main St, Suite 4, Dallas, TX 75201 " });
    expect(config.postalAddress).toBe("100 Main St, Suite 4, Dallas, TX 75201");
    expect(invitationsAvailable(config)).toBe(true);
  });

  it("refuses to start with something that cannot be an address", () => {
    for (const value of ["Dallas", `${"1".repeat(201)}`]) {
      expect(() => loadConfig({ ...production(), POSTAL_ADDRESS: value }), value).toThrow(
        /POSTAL_ADDRESS: must be the operator's postal address/,
      );
    }
  });
});

describe("SendGrid's event-signing key", () => {
  it("is off unless set, and read as SendGrid's page shows it, or wrapped in PEM lines", () => {
    expect(loadConfig(production()).mailEventsKey).toBeUndefined();
    const key = loadConfig({ ...production(), SENDGRID_EVENT_PUBLIC_KEY: SENDGRID_SAMPLE_KEY }).mailEventsKey;
    expect(key?.asymmetricKeyDetails?.namedCurve).toBe("prime256v1");
    const pem = `-----BEGIN PUBLIC KEY-----\n${SENDGRID_SAMPLE_KEY.slice(0, 64)}\n${SENDGRID_SAMPLE_KEY.slice(64)}\n-----END PUBLIC KEY-----`;
    expect(loadConfig({ ...production(), SENDGRID_EVENT_PUBLIC_KEY: pem }).mailEventsKey?.equals(key!)).toBe(true);
  });

  it("refuses to start with anything but an ECDSA P-256 public key", () => {
    const rsa = generateKeyPairSync("rsa", { modulusLength: 1024 }).publicKey.export({ format: "der", type: "spki" }).toString("base64");
    const p384 = generateKeyPairSync("ec", { namedCurve: "secp384r1" })
      .publicKey.export({ format: "der", type: "spki" })
      .toString("base64");
    expect(() => loadConfig({ ...production(), SENDGRID_EVENT_PUBLIC_KEY: "not a key" })).toThrow(ConfigError);
    expect(() => loadConfig({ ...production(), SENDGRID_EVENT_PUBLIC_KEY: "not a key" })).toThrow(/is not a public key/);
    for (const other of [rsa, p384])
      expect(() => loadConfig({ ...production(), SENDGRID_EVENT_PUBLIC_KEY: other })).toThrow(/ECDSA P-256 Verification Key/);
  });
});
