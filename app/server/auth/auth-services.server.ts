import { BROKER_LINK_DAYS, WRONG_LICENSES_PER_APPROVAL_LINK } from "~/domain/referrals/broker-signoff";
import type { Config } from "../config.server";
import { createRateLimiter, type RateLimiter } from "./rate-limit.server";
import { createMemberSessionStorage, type MemberSessionStorage } from "./session.server";

export type AuthServices = {
  sessions: MemberSessionStorage;
  limits: {
    /** Failed logins from one address (a login is counted as it starts and released when it succeeds). */
    loginByIp: RateLimiter;
    /** Failed logins to one e-mail from one address, keyed by loginKey(). */
    loginByEmailAndIp: RateLimiter;
    /** Failed logins to one e-mail from every address but the account's own browsers (docs/decisions/0030). */
    loginByAccount: RateLimiter;
    /** Forgot-password requests, new-password submissions and broker's view link requests: the forms that mail a link. */
    resetByIp: RateLimiter;
    /** Reset and broker's view link mails to one address: stops the forms being used to flood someone's inbox. */
    resetByEmail: RateLimiter;
    /**
     * Wrong license numbers typed on one broker approval link, keyed by its request row: the
     * hit refused, the WRONG_LICENSES_PER_APPROVAL_LINK-th, ends the link (docs/decisions/0061).
     */
    brokerApprovalGuesses: RateLimiter;
  };
};

const FIFTEEN_MINUTES = 15 * 60;

export function createAuthServices(config: Config): AuthServices {
  return {
    sessions: createMemberSessionStorage(config),
    limits: {
      loginByIp: createRateLimiter({ limit: config.authAttemptsPerIp, windowSeconds: FIFTEEN_MINUTES }),
      loginByEmailAndIp: createRateLimiter({ limit: config.loginFailuresPerEmailAndIp, windowSeconds: FIFTEEN_MINUTES }),
      loginByAccount: createRateLimiter({ limit: config.loginFailuresPerAccount, windowSeconds: FIFTEEN_MINUTES }),
      resetByIp: createRateLimiter({ limit: config.authAttemptsPerIp, windowSeconds: FIFTEEN_MINUTES }),
      resetByEmail: createRateLimiter({ limit: 3, windowSeconds: 60 * 60 }),
      brokerApprovalGuesses: createRateLimiter({
        limit: WRONG_LICENSES_PER_APPROVAL_LINK - 1,
        windowSeconds: BROKER_LINK_DAYS * 24 * 60 * 60,
      }),
    },
  };
}
