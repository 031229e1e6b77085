/** Truncated exponential backoff with full jitter, the policy Google asks clients of its APIs to follow. */
export type RetryPolicy = {
  /** Tries in all, the first included. */
  attempts: number;
  baseDelayMs: number;
  maxDelayMs: number;
  /** Which failures are worth another try; when absent, an API's quota, server and network failures (`isRetryable`). */
  retryable?: (error: unknown) => boolean;
};

/** About half a minute of patience in the worst case, so a page's write fails clearly rather than hangs. */
export const DEFAULT_RETRY: RetryPolicy = { attempts: 6, baseDelayMs: 500, maxDelayMs: 16_000 };

const RETRYABLE_CODES = new Set([
  "ECONNRESET",
  "ECONNREFUSED",
  "ECONNABORTED",
  "ETIMEDOUT",
  "EPIPE",
  "EAI_AGAIN",
  "ENETUNREACH",
  "EHOSTUNREACH",
  "UND_ERR_SOCKET",
  "TimeoutError",
  "AbortError",
]);

function statusOf(error: object): number | undefined {
  const record = error as { status?: unknown; response?: { status?: unknown } };
  const status = record.status ?? record.response?.status;
  return typeof status === "number" ? status : undefined;
}

/** The HTTP status an API error (or one it caused) carries, if any. */
export function httpStatusOf(error: unknown): number | undefined {
  for (let current: unknown = error, depth = 0; current && typeof current === "object" && depth < 5; depth += 1) {
    const status = statusOf(current);
    if (status !== undefined) return status;
    current = (current as { cause?: unknown }).cause;
  }
  return undefined;
}

/** Quota (429), server errors (5xx), request timeouts and lost connections are worth another try; a 400 or 403 is not. */
export function isRetryable(error: unknown): boolean {
  for (let current: unknown = error, depth = 0; current && typeof current === "object" && depth < 5; depth += 1) {
    const status = statusOf(current);
    if (status !== undefined) return status === 408 || status === 429 || status >= 500;
    const { code, name, message } = current as { code?: unknown; name?: unknown; message?: unknown };
    if (typeof code === "string" && RETRYABLE_CODES.has(code)) return true;
    if (typeof name === "string" && RETRYABLE_CODES.has(name)) return true;
    if (typeof message === "string" && /socket hang up|network timeout|premature close/i.test(message)) return true;
    current = (current as { cause?: unknown }).cause;
  }
  return false;
}

/** The wait before try number `attempt + 1`: random in [0, min(max, base × 2^attempt)]. */
export function backoffDelay(policy: RetryPolicy, attempt: number, random: () => number = Math.random): number {
  return Math.floor(random() * Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** attempt));
}

const sleep = (milliseconds: number) => new Promise((resolve) => setTimeout(resolve, milliseconds));

/** Runs `task` until it succeeds, fails with an error not worth retrying, or runs out of tries (or of time, past `deadline`). */
export async function withRetry<T>(
  policy: RetryPolicy,
  task: (attempt: number, previousError: unknown) => Promise<T>,
  deadline = Number.POSITIVE_INFINITY,
): Promise<T> {
  let previousError: unknown;
  for (let attempt = 0; ; attempt += 1) {
    try {
      return await task(attempt, previousError);
    } catch (error) {
      previousError = error;
      if (attempt + 1 >= policy.attempts || !(policy.retryable ?? isRetryable)(error)) throw error;
      const delay = backoffDelay(policy, attempt);
      if (Date.now() + delay >= deadline) throw error;
      await sleep(delay);
    }
  }
}

class DeadlineError extends Error {
  override name = "DeadlineError";
}

/**
 * Runs `task` with retries, but answers within `milliseconds` whatever happens: past
 * that it rejects with a DeadlineError and starts no further try (a try under way may
 * still reach the service; its result is then ignored).
 */
export function withDeadline<T>(
  milliseconds: number,
  policy: RetryPolicy,
  task: (attempt: number, previousError: unknown) => Promise<T>,
): Promise<T> {
  const deadline = Date.now() + milliseconds;
  let timer: NodeJS.Timeout | undefined;
  const expired = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new DeadlineError(`Google Sheets did not answer within ${milliseconds / 1000} s`)), milliseconds);
  });
  const work = withRetry(policy, task, deadline);
  work.catch(() => undefined);
  return Promise.race([work, expired]).finally(() => clearTimeout(timer));
}
