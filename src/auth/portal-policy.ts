import policy from '../../config/portal.json' with { type: 'json' };

/** A sliding-window limit: `limit` attempts per `windowSeconds`. */
export interface AttemptLimit {
  name: string;
  limit: number;
  windowSeconds: number;
}

const limit = (name: string, [n, seconds]: number[]): AttemptLimit => ({ name, limit: n, windowSeconds: seconds });

/** config/portal.json, typed: password rules, argon2 costs, lockout, attempt windows, TOTP and token lifetimes. */
export const PORTAL_POLICY = {
  password: { minLength: policy.password.min_length, maxLength: policy.password.max_length },
  argon2: { memoryCost: policy.argon2.memory_kib, timeCost: policy.argon2.time_cost, parallelism: policy.argon2.parallelism },
  lockout: {
    maxFailures: policy.lockout.max_failures,
    windowMs: policy.lockout.window_seconds * 1000,
    lockMs: policy.lockout.lock_seconds * 1000,
  },
  perIp: {
    login: limit('login-per-ip', policy.per_ip.login),
    totp: limit('totp-per-ip', policy.per_ip.totp),
    register: limit('register-per-ip', policy.per_ip.register),
    forgotPassword: limit('forgot-password-per-ip', policy.per_ip.forgot_password),
    resetPassword: limit('reset-password-per-ip', policy.per_ip.reset_password),
    waitlist: limit('waitlist-per-ip', policy.per_ip.waitlist),
  },
  perAccount: { forgotPassword: limit('forgot-password-per-account', policy.per_account.forgot_password) },
  totp: {
    issuer: policy.totp.issuer,
    epochToleranceSeconds: policy.totp.epoch_tolerance_seconds,
    challengeSeconds: policy.totp.challenge_seconds,
    challengeAttempts: policy.totp.challenge_attempts,
  },
  resetTokenSeconds: policy.reset_token_seconds,
  maxKeysPerTenant: policy.max_keys_per_tenant,
} as const;
