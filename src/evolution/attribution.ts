import type { Redis } from 'ioredis';
import { LRUCache } from 'lru-cache';
import { MEMORY_BUDGETS, byteBounded } from '../memory/budgets.js';

/**
 * Which evolved rules fired for a request id, so a false-positive report can be attributed to them (and only a
 * report about a request the rule really judged counts). Metadata only: ids, never content. Kept a day; in Redis
 * when configured, so the report may reach any replica.
 */
export interface RuleAttribution {
  remember(tenantId: string, requestId: string, ruleIds: readonly string[]): void;
  lookup(tenantId: string, requestId: string): Promise<string[] | undefined>;
}

const TTL_S = 86_400;

export function memoryAttribution(): RuleAttribution {
  const lru = new LRUCache<string, string[]>({ ...byteBounded(MEMORY_BUDGETS.ruleAttribution), ttl: TTL_S * 1000 });
  return {
    remember: (tenantId, requestId, ruleIds) => void lru.set(`${tenantId}\u0000${requestId}`, [...ruleIds]),
    lookup: async (tenantId, requestId) => lru.get(`${tenantId}\u0000${requestId}`),
  };
}

export function redisAttribution(redis: Redis, prefix: string): RuleAttribution {
  const key = (tenantId: string, requestId: string) => `${prefix}evo:req:${tenantId}:${requestId}`;
  return {
    remember(tenantId, requestId, ruleIds) {
      // Fire and forget: a verdict never waits for this, and a lost entry only makes a later report unattributable.
      redis.set(key(tenantId, requestId), JSON.stringify(ruleIds), 'EX', TTL_S).catch(() => {});
    },
    async lookup(tenantId, requestId) {
      const raw = await redis.get(key(tenantId, requestId));
      return raw ? (JSON.parse(raw) as string[]) : undefined;
    },
  };
}
