/**
 * Counts attempts per key (an IP address, an e-mail) over a sliding window, in this
 * process's memory. Several instances on one spreadsheet (docs/operator-guide.md) each
 * count on their own, so with N instances one address can make up to N times the limit;
 * holding one limit across them would need a shared counter.
 */
export type RateLimiter = {
  /** Records an attempt for the key, unless the key is already over its limit. */
  hit(key: string): RateLimitResult;
  /**
   * Takes back the key's latest attempt: a login is counted as it starts, so parallel
   * guesses cannot all slip under the limit, and released when it turns out to succeed.
   */
  release(key: string): void;
  /** Forgets the key's attempts (a successful login clears the count of its e-mail and address). */
  reset(key: string): void;
};

export type RateLimitResult = { allowed: true } | { allowed: false; retryAfterSeconds: number };

export type RateLimitRule = { limit: number; windowSeconds: number };

/** Past this many keys, each hit first drops keys with no attempt left in the window. */
const SWEEP_AT_KEYS = 10_000;

export function createRateLimiter({ limit, windowSeconds }: RateLimitRule): RateLimiter {
  const windowMs = windowSeconds * 1000;
  const attempts = new Map<string, number[]>();

  function recent(key: string, now: number): number[] {
    const times = (attempts.get(key) ?? []).filter((time) => now - time < windowMs);
    if (times.length === 0) attempts.delete(key);
    else attempts.set(key, times);
    return times;
  }

  function sweep(now: number): void {
    for (const key of attempts.keys()) recent(key, now);
  }

  return {
    hit(key) {
      const now = Date.now();
      if (attempts.size >= SWEEP_AT_KEYS) sweep(now);
      const times = recent(key, now);
      if (times.length >= limit) {
        const oldest = times[0] ?? now;
        return { allowed: false, retryAfterSeconds: Math.max(1, Math.ceil((oldest + windowMs - now) / 1000)) };
      }
      attempts.set(key, [...times, now]);
      return { allowed: true };
    },
    release(key) {
      const times = attempts.get(key);
      if (!times) return;
      times.pop();
      if (times.length === 0) attempts.delete(key);
    },
    reset(key) {
      attempts.delete(key);
    },
  };
}

/** Checks every limiter with its key; refused by the first that is full, so one full key does not spend the others. */
export function hitAll(checks: ReadonlyArray<readonly [RateLimiter, string]>): RateLimitResult {
  for (const [limiter, key] of checks) {
    const result = limiter.hit(key);
    if (!result.allowed) return result;
  }
  return { allowed: true };
}

/** "15 minutes", "1 minute": how long to wait, for the page. */
export function describeWait(seconds: number): string {
  const minutes = Math.max(1, Math.ceil(seconds / 60));
  return minutes === 1 ? "1 minute" : `${minutes} minutes`;
}
