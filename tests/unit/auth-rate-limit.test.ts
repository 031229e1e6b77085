import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { createRateLimiter, describeWait, hitAll } from "../../app/server/auth/rate-limit.server";

describe("rate limiter", () => {
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(Date.UTC(2025, 0, 1));
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it("allows the limit within the window, then refuses with the wait left", () => {
    const limiter = createRateLimiter({ limit: 3, windowSeconds: 900 });
    expect([1, 2, 3].map(() => limiter.hit("ip").allowed)).toEqual([true, true, true]);
    expect(limiter.hit("ip")).toEqual({ allowed: false, retryAfterSeconds: 900 });
    vi.advanceTimersByTime(600_000);
    expect(limiter.hit("ip")).toEqual({ allowed: false, retryAfterSeconds: 300 });
    expect(limiter.hit("other").allowed).toBe(true);
  });

  it("takes back a released attempt, so only the ones kept count", () => {
    const limiter = createRateLimiter({ limit: 2, windowSeconds: 900 });
    for (let success = 0; success < 5; success += 1) {
      expect(limiter.hit("ip").allowed).toBe(true);
      limiter.release("ip");
    }
    limiter.hit("ip");
    limiter.hit("ip");
    expect(limiter.hit("ip").allowed).toBe(false);
    limiter.release("unknown");
  });

  it("slides: each attempt leaves the window on its own", () => {
    const limiter = createRateLimiter({ limit: 2, windowSeconds: 60 });
    limiter.hit("k");
    vi.advanceTimersByTime(30_000);
    limiter.hit("k");
    expect(limiter.hit("k").allowed).toBe(false);
    vi.advanceTimersByTime(30_000);
    expect(limiter.hit("k").allowed).toBe(true);
    expect(limiter.hit("k").allowed).toBe(false);
  });

  it("refused attempts do not extend the wait", () => {
    const limiter = createRateLimiter({ limit: 1, windowSeconds: 60 });
    limiter.hit("k");
    for (let i = 0; i < 5; i += 1) limiter.hit("k");
    vi.advanceTimersByTime(60_000);
    expect(limiter.hit("k").allowed).toBe(true);
  });

  it("forgets a key on reset", () => {
    const limiter = createRateLimiter({ limit: 1, windowSeconds: 60 });
    limiter.hit("k");
    limiter.reset("k");
    expect(limiter.hit("k").allowed).toBe(true);
  });

  it("checks several keys and stops at the first full one", () => {
    const byIp = createRateLimiter({ limit: 5, windowSeconds: 60 });
    const byEmail = createRateLimiter({ limit: 1, windowSeconds: 60 });
    expect(
      hitAll([
        [byEmail, "a@x"],
        [byIp, "1.2.3.4"],
      ]).allowed,
    ).toBe(true);
    expect(
      hitAll([
        [byEmail, "a@x"],
        [byIp, "1.2.3.4"],
      ]).allowed,
    ).toBe(false);
    // The refused attempt did not count against the IP address.
    for (let i = 0; i < 4; i += 1) expect(byIp.hit("1.2.3.4").allowed).toBe(true);
    expect(byIp.hit("1.2.3.4").allowed).toBe(false);
  });

  it("says the wait in minutes", () => {
    expect(describeWait(1)).toBe("1 minute");
    expect(describeWait(61)).toBe("2 minutes");
    expect(describeWait(900)).toBe("15 minutes");
  });
});
