import type { Redis } from 'ioredis';
import { LRUCache } from 'lru-cache';
import { BastionError } from '../errors.js';
import type { ErsState, RiskLevel } from '../inspect/types.js';
import { PRIOR, RISK_WEIGHT, SHADOW_BAN_THRESHOLD, decay, scoreOf, update, type ErsCounters } from './score.js';
import { MEMORY_BUDGETS, byteBounded } from '../memory/budgets.js';

/** ERS state is read before inspection and updated after it, per entity (tenant, or tenant + user). */
export interface ErsStore {
  read(entity: string): Promise<ErsState>;
  record(entity: string, levels: RiskLevel[]): Promise<ErsState>;
}

const state = (score: number): ErsState => ({ score: Math.round(score * 1000) / 1000, shadowBanned: score >= SHADOW_BAN_THRESHOLD });

export function memoryErs(halfLifeMs: number, now: () => number = Date.now): ErsStore {
  const entities = new LRUCache<string, ErsCounters>(byteBounded(MEMORY_BUDGETS.ers));
  return {
    async read(entity) {
      const c = entities.get(entity);
      return state(c ? scoreOf(decay(c, now(), halfLifeMs)) : 0);
    },
    async record(entity, levels) {
      let c = entities.get(entity) ?? { risk: 0, requests: 0, at: now() };
      for (const level of levels) c = update(c, level, now(), halfLifeMs);
      entities.set(entity, c);
      return state(scoreOf(c));
    },
  };
}

// Same arithmetic as score.ts, atomically in Redis so every replica shares one score per entity.
const RECORD = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local v = redis.call('HMGET', KEYS[1], 'r', 'n', 't')
local r = tonumber(v[1]) or 0
local n = tonumber(v[2]) or 0
local at = tonumber(v[3]) or now
local d = math.pow(2, -math.max(0, now - at) / tonumber(ARGV[1]))
r = r * d + tonumber(ARGV[2])
n = n * d + tonumber(ARGV[3])
if tonumber(ARGV[3]) > 0 then
  redis.call('HSET', KEYS[1], 'r', tostring(r), 'n', tostring(n), 't', now)
  redis.call('PEXPIRE', KEYS[1], math.floor(tonumber(ARGV[1]) * 20))
end
return tostring(r / math.max(n, tonumber(ARGV[4])))
`;

type RecordCommand = (key: string, halfLife: number, risk: number, requests: number, prior: number) => Promise<string>;

export function redisErs(redis: Redis, prefix: string, halfLifeMs: number): ErsStore {
  redis.defineCommand('bastionErsRecord', { numberOfKeys: 1, lua: RECORD });
  const run = (redis as unknown as { bastionErsRecord: RecordCommand }).bastionErsRecord.bind(redis);
  const call = async (entity: string, risk: number, requests: number) => {
    try {
      return state(Number(await run(`${prefix}ers:${entity}`, halfLifeMs, risk, requests, PRIOR)));
    } catch (cause) {
      // Fail closed: without the shared score we cannot know whether the entity is banned.
      throw new BastionError('LIMITER_UNAVAILABLE', { headers: { 'retry-after': '5' }, cause });
    }
  };
  return {
    read: (entity) => call(entity, 0, 0),
    record: (entity, levels) =>
      call(entity, levels.reduce((sum, l) => sum + RISK_WEIGHT[l], 0), levels.length),
  };
}
