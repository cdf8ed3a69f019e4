import type { Redis } from 'ioredis';
import { LRUCache } from 'lru-cache';
import { MEMORY_BUDGETS, byteBounded } from '../memory/budgets.js';

/**
 * How many analyses may run: globally and per tenant per minute, globally per UTC day, and a tenant's share of the
 * day. Fixed windows (minute and day numbers) are enough here: this bounds cost, it is not a client-facing limit.
 * With Redis the counters are shared by every replica (one Lua script, all-or-nothing); without, per process.
 */

export interface BudgetLimits {
  perMinute: number;
  tenantPerMinute: number;
  daily: number;
  /** Percent of `daily` one tenant's attacks may use. */
  tenantSharePct: number;
}

export type BudgetRefusal = 'global_rate' | 'tenant_rate' | 'daily_budget' | 'tenant_daily_share';

export interface EvolutionBudget {
  /** Takes one analysis from every counter, or none and says which limit refused. */
  take(tenantId: string, now?: number): Promise<BudgetRefusal | undefined>;
}

const REFUSALS: BudgetRefusal[] = ['global_rate', 'tenant_rate', 'daily_budget', 'tenant_daily_share'];

function windows(tenantId: string, limits: BudgetLimits, now: number) {
  const minute = Math.floor(now / 60_000);
  const day = Math.floor(now / 86_400_000);
  const tenantDaily = Math.max(1, Math.floor((limits.daily * limits.tenantSharePct) / 100));
  return [
    { key: `m:${minute}`, limit: limits.perMinute, ttlS: 120 },
    { key: `m:${minute}:t:${tenantId}`, limit: limits.tenantPerMinute, ttlS: 120 },
    { key: `d:${day}`, limit: limits.daily, ttlS: 2 * 86_400 },
    { key: `d:${day}:t:${tenantId}`, limit: tenantDaily, ttlS: 2 * 86_400 },
  ];
}

export function memoryBudget(limits: BudgetLimits): EvolutionBudget {
  const counts = new LRUCache<string, number>({ ...byteBounded(MEMORY_BUDGETS.evolutionBudget), ttl: 2 * 86_400_000 });
  return {
    async take(tenantId, now = Date.now()) {
      const ws = windows(tenantId, limits, now);
      const refused = ws.findIndex((w) => (counts.get(w.key) ?? 0) >= w.limit);
      if (refused >= 0) return REFUSALS[refused];
      for (const w of ws) counts.set(w.key, (counts.get(w.key) ?? 0) + 1, { ttl: w.ttlS * 1000 });
      return undefined;
    },
  };
}

const TAKE = `
for i = 1, #KEYS do
  if tonumber(redis.call('GET', KEYS[i]) or '0') >= tonumber(ARGV[i * 2 - 1]) then return i end
end
for i = 1, #KEYS do
  redis.call('INCR', KEYS[i])
  redis.call('EXPIRE', KEYS[i], tonumber(ARGV[i * 2]))
end
return 0
`;

type TakeCommand = (...args: (string | number)[]) => Promise<number>;

export function redisBudget(redis: Redis, prefix: string, limits: BudgetLimits): EvolutionBudget {
  redis.defineCommand('bastionEvolutionBudget', { numberOfKeys: 4, lua: TAKE });
  const run = (redis as unknown as { bastionEvolutionBudget: TakeCommand }).bastionEvolutionBudget.bind(redis);
  return {
    async take(tenantId, now = Date.now()) {
      const ws = windows(tenantId, limits, now);
      const refused = await run(...ws.map((w) => `${prefix}evo:budget:${w.key}`), ...ws.flatMap((w) => [w.limit, w.ttlS]));
      return refused > 0 ? REFUSALS[refused - 1] : undefined;
    },
  };
}
