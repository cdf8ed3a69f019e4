import type { ValidationIssue } from '../errors.js';
import type { SpendLimits } from './limits.js';
import { toDecimal, toMinor } from './money.js';

/** Limits as the API takes and returns them: decimal strings in `currency`, never floats. */
export interface WireLimits {
  currency: string;
  per_transaction: string;
  daily: string;
  monthly: string;
  /** Payees (`bastion:tools`) or catalogue items (`tool:filter`) the agent may pay. Nothing else is allowed. */
  allowed_payees: string[];
  /** ISO 8601; after it, quotes and mandates are refused. */
  expires_at?: string | null;
}

export interface StoredLimits {
  currency: string;
  max_per_transaction: number;
  max_daily: number;
  max_monthly: number;
  allowed_payees: string;
  expires_at: number | null;
}

export interface AgentRow extends StoredLimits {
  agent_id: string;
  tenant_id: string;
  display_name: string;
  did: string;
  status: 'active' | 'revoked';
  created_at: number;
  updated_at: number;
  revoked_at: number | null;
}

/**
 * Wire limits → stored integer minor units, or the validation issues (422). The schema already bounded each field;
 * this checks what it cannot: precision of the currency, per_transaction ≤ daily ≤ monthly, an expiry in the future.
 */
export function storedLimits(limits: WireLimits, now: number, loc: (string | number)[] = ['body', 'limits']): StoredLimits | ValidationIssue[] {
  const issues: ValidationIssue[] = [];
  const minor = (field: 'per_transaction' | 'daily' | 'monthly') => {
    const value = toMinor(limits[field], limits.currency);
    if (value === undefined) issues.push({ loc: [...loc, field], msg: `must be a decimal string with at most the ${limits.currency} precision`, type: 'value_error.decimal' });
    return value ?? 0;
  };
  const perTx = minor('per_transaction');
  const daily = minor('daily');
  const monthly = minor('monthly');
  if (issues.length === 0 && !(perTx <= daily && daily <= monthly)) {
    issues.push({ loc, msg: 'limits must satisfy per_transaction ≤ daily ≤ monthly', type: 'value_error.limits_order' });
  }
  let expiresAt: number | null = null;
  if (limits.expires_at != null) {
    expiresAt = Date.parse(limits.expires_at);
    if (!Number.isFinite(expiresAt) || expiresAt <= now) issues.push({ loc: [...loc, 'expires_at'], msg: 'must be a date-time in the future', type: 'value_error.expires_at' });
  }
  if (new Set(limits.allowed_payees).size !== limits.allowed_payees.length) issues.push({ loc: [...loc, 'allowed_payees'], msg: 'entries must be unique', type: 'value_error.unique' });
  if (issues.length > 0) return issues;
  return { currency: limits.currency, max_per_transaction: perTx, max_daily: daily, max_monthly: monthly, allowed_payees: JSON.stringify(limits.allowed_payees), expires_at: expiresAt };
}

export function wireLimits(row: StoredLimits): Required<WireLimits> {
  return {
    currency: row.currency,
    per_transaction: toDecimal(Number(row.max_per_transaction), row.currency),
    daily: toDecimal(Number(row.max_daily), row.currency),
    monthly: toDecimal(Number(row.max_monthly), row.currency),
    allowed_payees: JSON.parse(row.allowed_payees) as string[],
    expires_at: row.expires_at === null ? null : new Date(Number(row.expires_at)).toISOString(),
  };
}

export function spendLimits(row: StoredLimits): SpendLimits {
  return {
    currency: row.currency,
    maxPerTransaction: Number(row.max_per_transaction),
    maxDaily: Number(row.max_daily),
    maxMonthly: Number(row.max_monthly),
    allowedPayees: JSON.parse(row.allowed_payees) as string[],
  };
}

const iso = (ms: number | null) => (ms === null ? null : new Date(Number(ms)).toISOString());

export function wireAgent(row: AgentRow) {
  return {
    agent_id: row.agent_id,
    tenant_id: row.tenant_id,
    display_name: row.display_name,
    did: row.did,
    status: row.status,
    limits: wireLimits(row),
    created_at: iso(row.created_at) as string,
    updated_at: iso(row.updated_at) as string,
    revoked_at: iso(row.revoked_at),
  };
}

/** Why an agent cannot transact now, or undefined. Checked on every request from the database row (no cache). */
export function agentRefusal(row: Pick<AgentRow, 'status' | 'expires_at'>, now: number): 'AGENT_REVOKED' | 'AGENT_EXPIRED' | undefined {
  if (row.status !== 'active') return 'AGENT_REVOKED';
  if (row.expires_at !== null && Number(row.expires_at) <= now) return 'AGENT_EXPIRED';
  return undefined;
}
