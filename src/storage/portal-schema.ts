import type { Generated } from 'kysely';

/**
 * Tables of migration 0002-portal: customer accounts and everything that authenticates them, the waitlist,
 * and per-tenant daily statistics. Timestamps are epoch milliseconds; every secret is stored hashed or sealed.
 */

export interface AccountsTable {
  id: string;
  tenant_id: string;
  /** Normalised (trimmed, lower-case); unique. */
  email: string;
  /** argon2id PHC string. */
  password_hash: string;
  display_name: string | null;
  company: string | null;
  created_at: number;
  updated_at: number;
}

/** Opaque refresh tokens, one row per issued token; rows of one login share a family (reuse detection). */
export interface RefreshTokensTable {
  /** SHA-256 of the token, hex. */
  token_hash: string;
  family_id: string;
  account_id: string;
  created_at: number;
  expires_at: number;
  /** Set when the token was exchanged; presenting it again revokes the family. */
  used_at: number | null;
  revoked_at: number | null;
}

/** Server-side sessions of the /auth/* cookie routes. */
export interface SessionsTable {
  token_hash: string;
  account_id: string;
  created_at: number;
  expires_at: number;
  revoked_at: number | null;
}

export interface TotpSecretsTable {
  account_id: string;
  /** AES-256-GCM under BASTION_MASTER_KEY, bound to the account id (src/auth/crypto-box.ts). */
  secret_enc: string;
  /** Null while set up but not confirmed. */
  enabled_at: number | null;
  /** Last accepted RFC 6238 time step: a code at or before it is refused (replay protection). */
  last_time_step: number | null;
  created_at: number;
}

export interface PasswordResetsTable {
  token_hash: string;
  account_id: string;
  created_at: number;
  expires_at: number;
  used_at: number | null;
}

export interface WaitlistTable {
  email: string;
  company: string | null;
  use_case: string | null;
  created_at: number;
}

/** Failed sign-in attempts per subject (SHA-256 of `login:<email>` or `totp:<account>`). */
export interface AuthLockoutsTable {
  subject: string;
  failures: number;
  window_start: number;
  locked_until: number | null;
}

/** Per-tenant, per-UTC-day counters of /filter outcomes. Metadata only. */
export interface DailyStatsTable {
  tenant_id: string;
  /** `YYYY-MM-DD`, UTC. */
  day: string;
  requests: Generated<number>;
  allowed: Generated<number>;
  blocked: Generated<number>;
  redacted: Generated<number>;
  risk_low: Generated<number>;
  risk_medium: Generated<number>;
  risk_high: Generated<number>;
  risk_block: Generated<number>;
  /** Credential findings intercepted. */
  secrets: Generated<number>;
  /** Personal-data findings intercepted. */
  pii: Generated<number>;
  shadow_banned: Generated<number>;
}

/** Per-tenant, per-day flag counts by layer and category. */
export interface DailyFlagsTable {
  tenant_id: string;
  day: string;
  layer: string;
  category: string;
  count: Generated<number>;
}

export interface PortalTables {
  accounts: AccountsTable;
  refresh_tokens: RefreshTokensTable;
  sessions: SessionsTable;
  totp_secrets: TotpSecretsTable;
  password_resets: PasswordResetsTable;
  waitlist: WaitlistTable;
  auth_lockouts: AuthLockoutsTable;
  daily_stats: DailyStatsTable;
  daily_flags: DailyFlagsTable;
}
