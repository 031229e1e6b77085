import { describe, expect, it } from "vitest";
import type { Agent } from "../../app/domain/workbook/tabs";
import { createResetToken, readResetToken, RESET_TOKEN_TTL_SECONDS } from "../../app/server/auth/reset-token.server";
import { matchesPasswordFingerprint, passwordFingerprint, sign, verifySignature } from "../../app/server/auth/signing.server";

const secrets = ["first-secret-of-enough-length"];
const agent = { id: "agent-1", passwordHash: "$2b$12$abcdefghijklmnopqrstuv0123456789ABCDEFGHIJKLMNOPQRSTU" } as Agent;
const now = Date.UTC(2025, 0, 1, 12);

function lookup(...agents: Agent[]) {
  return (id: string) => agents.find((candidate) => candidate.id === id);
}

describe("password reset tokens", () => {
  it("reads back as the agent they were made for", () => {
    const token = createResetToken(secrets, agent, now);
    expect(readResetToken(secrets, token, lookup(agent), now)?.id).toBe("agent-1");
  });

  it("work for one hour and no longer", () => {
    const token = createResetToken(secrets, agent, now);
    expect(readResetToken(secrets, token, lookup(agent), now + (RESET_TOKEN_TTL_SECONDS - 1) * 1000)).not.toBeNull();
    expect(readResetToken(secrets, token, lookup(agent), now + RESET_TOKEN_TTL_SECONDS * 1000)).toBeNull();
  });

  it("die once the password changes, so a link is used at most once", () => {
    const token = createResetToken(secrets, agent, now);
    const afterReset = { ...agent, passwordHash: "$2b$12$zzzzzzzzzzzzzzzzzzzzzz0123456789ABCDEFGHIJKLMNOPQRSTU" } as Agent;
    expect(readResetToken(secrets, token, lookup(afterReset), now)).toBeNull();
  });

  it("refuse a deleted agent, another secret, a changed expiry or agent, and junk", () => {
    const token = createResetToken(secrets, agent, now);
    const [id, expiry, signature] = token.split(".");
    const other = { ...agent, id: "agent-2" } as Agent;
    expect(readResetToken(secrets, token, lookup(), now)).toBeNull();
    expect(readResetToken(["another-secret"], token, lookup(agent), now)).toBeNull();
    expect(readResetToken(secrets, `${id}.${Number(expiry) + 3600}.${signature}`, lookup(agent), now)).toBeNull();
    const otherId = Buffer.from("agent-2").toString("base64url");
    expect(readResetToken(secrets, `${otherId}.${expiry}.${signature}`, lookup(agent, other), now)).toBeNull();
    for (const junk of [undefined, "", "a.b", "a.b.c.d", `${id}.soon.${signature}`, "x".repeat(600)]) {
      expect(readResetToken(secrets, junk, lookup(agent), now)).toBeNull();
    }
  });

  it("still verify after the secret is rotated (a new one put first)", () => {
    const token = createResetToken(secrets, agent, now);
    expect(readResetToken(["new-secret", ...secrets], token, lookup(agent), now)?.id).toBe("agent-1");
  });
});

describe("signatures and password fingerprints", () => {
  it("are bound to their purpose", () => {
    const signature = sign(secrets, "one", "data");
    expect(verifySignature(secrets, "one", "data", signature)).toBe(true);
    expect(verifySignature(secrets, "two", "data", signature)).toBe(false);
    expect(verifySignature(secrets, "one", "datA", signature)).toBe(false);
  });

  it("change with the password hash and do not contain it", () => {
    const fingerprint = passwordFingerprint(secrets, agent.passwordHash);
    expect(agent.passwordHash).not.toContain(fingerprint);
    expect(matchesPasswordFingerprint(secrets, agent.passwordHash, fingerprint)).toBe(true);
    expect(matchesPasswordFingerprint(secrets, `${agent.passwordHash}x`, fingerprint)).toBe(false);
    expect(matchesPasswordFingerprint(secrets, agent.passwordHash, "short")).toBe(false);
  });
});
