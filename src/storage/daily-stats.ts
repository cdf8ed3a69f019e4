import type { Kysely } from 'kysely';
import type { RiskLevel, Verdict } from '../inspect/types.js';
import { addFlagCounts, tallyFlags, type FlagCount } from './daily-flags.js';
import type { Database } from './schema.js';

/** What the stats need from a /filter result: the verdict plus the ERS block the HTTP layer adds. */
export type StatVerdict = Pick<Verdict, 'allowed' | 'risk_level' | 'action' | 'flags' | 'secrets'> & {
  ers?: { shadow_banned: boolean };
};

export interface DayCounts {
  requests: number;
  allowed: number;
  blocked: number;
  redacted: number;
  risk_low: number;
  risk_medium: number;
  risk_high: number;
  risk_block: number;
  secrets: number;
  pii: number;
  shadow_banned: number;
}

export const COUNTERS = [
  'requests', 'allowed', 'blocked', 'redacted', 'risk_low', 'risk_medium', 'risk_high', 'risk_block', 'secrets', 'pii', 'shadow_banned',
] as const satisfies readonly (keyof DayCounts)[];

const RISK_COLUMN: Record<RiskLevel, keyof DayCounts> = { LOW: 'risk_low', MEDIUM: 'risk_medium', HIGH: 'risk_high', BLOCK: 'risk_block' };

export function emptyCounts(): DayCounts {
  return Object.fromEntries(COUNTERS.map((c) => [c, 0])) as unknown as DayCounts;
}

const DAY_MS = 86_400_000;
// The data plane asks on every request; the answer changes once a day.
let lastDay = { start: 0, text: '1970-01-01' };

/** UTC calendar day of an epoch-ms instant, `YYYY-MM-DD`. */
export function utcDay(at: number): string {
  if (at >= lastDay.start && at < lastDay.start + DAY_MS) return lastDay.text;
  const start = Math.floor(at / DAY_MS) * DAY_MS;
  const text = new Date(start).toISOString().slice(0, 10);
  if (at >= lastDay.start) lastDay = { start, text };
  return text;
}

/** Pure: the counters a set of verdicts adds. Metadata only; content never reaches this function. */
export function tally(verdicts: readonly StatVerdict[]): DayCounts {
  return addTally(emptyCounts(), verdicts);
}

/** Adds the verdicts' counters to `c` (in place: the stats buffer keeps running sums, not verdicts). */
export function addTally(c: DayCounts, verdicts: readonly StatVerdict[]): DayCounts {
  for (const v of verdicts) {
    c.requests++;
    if (v.allowed) c.allowed++;
    else c.blocked++;
    if (v.action === 'redact') c.redacted++;
    c[RISK_COLUMN[v.risk_level]]++;
    for (const s of v.secrets) {
      if (s.pii) c.pii++;
      else c.secrets++;
    }
    if (v.ers?.shadow_banned) c.shadow_banned++;
  }
  return c;
}

/**
 * Adds the outcome of one /filter or /filter/batch call to the tenant's counters for the UTC day of `at`:
 * one upsert of the day row and one multi-row upsert of the flag counts. The data plane calls this after inspection.
 */
export async function recordVerdicts(db: Kysely<Database>, tenantId: string, verdicts: readonly StatVerdict[], at = Date.now()): Promise<void> {
  if (verdicts.length === 0) return;
  await recordCounts(db, tenantId, utcDay(at), tally(verdicts), tallyFlags(verdicts));
}

/** Adds summed counters (and flag counts) to the tenant's row for `day`. */
export async function recordCounts(db: Kysely<Database>, tenantId: string, day: string, counts: DayCounts, flags: readonly FlagCount[]): Promise<void> {
  await db
    .insertInto('daily_stats')
    .values({ tenant_id: tenantId, day, ...counts })
    .onConflict((oc) =>
      oc.columns(['tenant_id', 'day']).doUpdateSet((eb) => ({
        requests: eb('daily_stats.requests', '+', eb.ref('excluded.requests')),
        allowed: eb('daily_stats.allowed', '+', eb.ref('excluded.allowed')),
        blocked: eb('daily_stats.blocked', '+', eb.ref('excluded.blocked')),
        redacted: eb('daily_stats.redacted', '+', eb.ref('excluded.redacted')),
        risk_low: eb('daily_stats.risk_low', '+', eb.ref('excluded.risk_low')),
        risk_medium: eb('daily_stats.risk_medium', '+', eb.ref('excluded.risk_medium')),
        risk_high: eb('daily_stats.risk_high', '+', eb.ref('excluded.risk_high')),
        risk_block: eb('daily_stats.risk_block', '+', eb.ref('excluded.risk_block')),
        secrets: eb('daily_stats.secrets', '+', eb.ref('excluded.secrets')),
        pii: eb('daily_stats.pii', '+', eb.ref('excluded.pii')),
        shadow_banned: eb('daily_stats.shadow_banned', '+', eb.ref('excluded.shadow_banned')),
      })),
    )
    .execute();
  await addFlagCounts(db, tenantId, day, flags);
}

/** The tenant's day rows from `fromDay` to `toDay` inclusive, keyed by day (days without traffic are absent). */
export async function dayRows(db: Kysely<Database>, tenantId: string, fromDay: string, toDay: string): Promise<Map<string, DayCounts>> {
  const rows = await db
    .selectFrom('daily_stats')
    .selectAll()
    .where('tenant_id', '=', tenantId)
    .where('day', '>=', fromDay)
    .where('day', '<=', toDay)
    .execute();
  const out = new Map<string, DayCounts>();
  for (const row of rows) {
    const c = emptyCounts();
    for (const k of COUNTERS) c[k] = Number(row[k]);
    out.set(row.day, c);
  }
  return out;
}

/** The tenant's counters summed over `fromDay`..`toDay` inclusive, in one aggregate query (zeros without traffic). */
export async function totalsBetween(db: Kysely<Database>, tenantId: string, fromDay: string, toDay: string): Promise<DayCounts> {
  const row = await db
    .selectFrom('daily_stats')
    .select((eb) => COUNTERS.map((c) => eb.fn.sum<number | string | null>(c).as(c)))
    .where('tenant_id', '=', tenantId)
    .where('day', '>=', fromDay)
    .where('day', '<=', toDay)
    .executeTakeFirst();
  const out = emptyCounts();
  if (row) for (const k of COUNTERS) out[k] = Number((row as Record<string, unknown>)[k] ?? 0);
  return out;
}
