import type { Redis } from 'ioredis';
import { sql, type Kysely } from 'kysely';
import { BastionError } from '../errors.js';
import type { Database } from '../storage/schema.js';
import { monthPeriod, nextMonthStart } from './month.js';

export interface QuotaResult {
  allowed: boolean;
  quota: number;
  used: number;
  remaining: number;
  /** Milliseconds until the next UTC month starts. */
  resetMs: number;
}

/**
 * Monthly request counter per tenant. `consume` admits `n` units only if all of them fit:
 * a batch of 10 with 5 left is refused whole rather than half-inspected.
 */
export interface MonthlyQuota {
  consume(tenantId: string, n: number, quota: number, now?: number): Promise<QuotaResult>;
  used(tenantId: string, now?: number): Promise<number>;
}

function result(allowed: boolean, quota: number, used: number, now: number): QuotaResult {
  return { allowed, quota, used, remaining: Math.max(0, quota - used), resetMs: nextMonthStart(now) - now };
}

/** Counters in the database (embedded mode, or PostgreSQL without Redis). One atomic conditional upsert. */
export function databaseQuota(db: Kysely<Database>): MonthlyQuota {
  async function used(tenantId: string, now = Date.now()): Promise<number> {
    const row = await db
      .selectFrom('usage_monthly')
      .select('count')
      .where('tenant_id', '=', tenantId)
      .where('period', '=', monthPeriod(now))
      .executeTakeFirst();
    return row ? Number(row.count) : 0;
  }
  return {
    used,
    async consume(tenantId, n, quota, now = Date.now()) {
      if (n > quota) return result(false, quota, await used(tenantId, now), now);
      const period = monthPeriod(now);
      const row = await db
        .insertInto('usage_monthly')
        .values({ tenant_id: tenantId, period, count: n })
        .onConflict((oc) =>
          oc
            .columns(['tenant_id', 'period'])
            .doUpdateSet({ count: sql`usage_monthly.count + ${n}` })
            .where(sql<boolean>`usage_monthly.count + ${n} <= ${quota}`),
        )
        .returning('count')
        .executeTakeFirst();
      // No row back means the conditional update refused: the units do not fit.
      if (row) return result(true, quota, Number(row.count), now);
      return result(false, quota, await used(tenantId, now), now);
    },
  };
}

const CONSUME = `
local used = tonumber(redis.call('GET', KEYS[1]) or '0')
local n = tonumber(ARGV[1])
if used + n > tonumber(ARGV[2]) then return {0, used} end
used = redis.call('INCRBY', KEYS[1], n)
redis.call('PEXPIREAT', KEYS[1], ARGV[3])
return {1, used}
`;

type ConsumeCommand = (key: string, n: number, quota: number, expireAt: number) => Promise<[number, number]>;

/** Counters in Redis, shared by every replica. Keys expire a day after their month ends. */
export function redisQuota(redis: Redis, prefix: string): MonthlyQuota {
  redis.defineCommand('bastionQuotaConsume', { numberOfKeys: 1, lua: CONSUME });
  const run = (redis as unknown as { bastionQuotaConsume: ConsumeCommand }).bastionQuotaConsume.bind(redis);
  const keyOf = (tenantId: string, now: number) => `${prefix}quota:${tenantId}:${monthPeriod(now)}`;
  const unavailable = (cause: unknown) => new BastionError('LIMITER_UNAVAILABLE', { headers: { 'retry-after': '5' }, cause });
  return {
    async used(tenantId, now = Date.now()) {
      try {
        return Number((await redis.get(keyOf(tenantId, now))) ?? 0);
      } catch (cause) {
        throw unavailable(cause);
      }
    },
    async consume(tenantId, n, quota, now = Date.now()) {
      try {
        const [ok, used] = await run(keyOf(tenantId, now), n, quota, nextMonthStart(now) + 86_400_000);
        return result(ok === 1, quota, used, now);
      } catch (cause) {
        throw unavailable(cause);
      }
    },
  };
}
