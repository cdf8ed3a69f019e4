import type { Redis } from 'ioredis';
import { LRUCache } from 'lru-cache';

/** Why the judge gave no opinion; each one means the embedded verdict stands. */
export const NO_OPINION = ['timeout', 'error', 'unreadable', 'busy', 'rate_limited', 'budget_exhausted', 'budget_unavailable'] as const;
export type NoOpinion = (typeof NO_OPINION)[number];

/** What became of one text put to the judge: an opinion (and whether it added a block), or none and why. */
export type JudgeOutcome = { answered: true; addedBlock: boolean } | { answered: false; cause: NoOpinion };

/** One tenant's judge figures for one UTC day: `used` budget units (calls made), and the outcomes. */
export interface JudgeDay {
  used: number;
  asked: number;
  answered: number;
  added_block: number;
  no_opinion: Record<NoOpinion, number>;
}

/**
 * The tenants' daily judge budget and outcome counts: in Redis when configured (every replica spends the same
 * budget, one atomic script per unit), in this process otherwise. `take` never makes a unit it cannot count.
 */
export interface JudgeLedger {
  /** Spends one unit of today's budget: true, or false when `limit` are spent. Throws when the store cannot answer. */
  take(tenant: string, limit: number, now: number): Promise<boolean>;
  /** Gives back a unit taken for a call that was not made. */
  refund(tenant: string, now: number): void;
  /** Counts one outcome (fire and forget: a count lost to a store failure never changes a verdict). */
  count(tenant: string, outcome: JudgeOutcome, now: number): void;
  day(tenant: string, now: number): Promise<JudgeDay>;
}

export const utcDay = (at: number) => new Date(at).toISOString().slice(0, 10);

export function emptyDay(): JudgeDay {
  return { used: 0, asked: 0, answered: 0, added_block: 0, no_opinion: Object.fromEntries(NO_OPINION.map((c) => [c, 0])) as Record<NoOpinion, number> };
}

/** The counter fields one outcome adds to. */
function fieldsOf(outcome: JudgeOutcome): string[] {
  if (!outcome.answered) return ['asked', `no_opinion:${outcome.cause}`];
  return outcome.addedBlock ? ['asked', 'answered', 'added_block'] : ['asked', 'answered'];
}

function dayFrom(fields: Record<string, string | number>): JudgeDay {
  const day = emptyDay();
  for (const [field, raw] of Object.entries(fields)) {
    const n = Number(raw);
    if (field.startsWith('no_opinion:')) {
      const cause = field.slice('no_opinion:'.length) as NoOpinion;
      if (cause in day.no_opinion) day.no_opinion[cause] = n;
    } else if (field === 'used' || field === 'asked' || field === 'answered' || field === 'added_block') day[field] = n;
  }
  return day;
}

/** Tenants whose day is remembered in process; a forgotten one starts its day again (bounded memory). */
const MAX_TENANT_DAYS = 10_000;

export function memoryLedger(): JudgeLedger {
  const days = new LRUCache<string, Record<string, number>>({ max: MAX_TENANT_DAYS });
  const of = (tenant: string, now: number) => {
    const key = `${tenant}\0${utcDay(now)}`;
    let fields = days.get(key);
    if (!fields) days.set(key, (fields = {}));
    return fields;
  };
  return {
    async take(tenant, limit, now) {
      const fields = of(tenant, now);
      if ((fields.used ?? 0) >= limit) return false;
      fields.used = (fields.used ?? 0) + 1;
      return true;
    },
    refund(tenant, now) {
      const fields = of(tenant, now);
      fields.used = Math.max(0, (fields.used ?? 0) - 1);
    },
    count(tenant, outcome, now) {
      const fields = of(tenant, now);
      for (const f of fieldsOf(outcome)) fields[f] = (fields[f] ?? 0) + 1;
    },
    async day(tenant, now) {
      return dayFrom(days.get(`${tenant}\0${utcDay(now)}`) ?? {});
    },
  };
}

const TAKE = `
local used = tonumber(redis.call('HGET', KEYS[1], 'used') or '0')
if used >= tonumber(ARGV[1]) then return 0 end
redis.call('HINCRBY', KEYS[1], 'used', 1)
redis.call('PEXPIREAT', KEYS[1], ARGV[2])
return 1
`;

type TakeCommand = (key: string, limit: number, expireAt: number) => Promise<number>;

/** One hash per tenant and UTC day, kept a day after the day ends. */
export function redisLedger(redis: Redis, prefix: string): JudgeLedger {
  redis.defineCommand('bastionJudgeTake', { numberOfKeys: 1, lua: TAKE });
  const run = (redis as unknown as { bastionJudgeTake: TakeCommand }).bastionJudgeTake.bind(redis);
  const keyOf = (tenant: string, now: number) => `${prefix}judge:${utcDay(now)}:${tenant}`;
  const expireAt = (now: number) => Date.parse(`${utcDay(now)}T00:00:00Z`) + 2 * 86_400_000;
  const add = (tenant: string, now: number, fields: string[], by: number) => {
    const key = keyOf(tenant, now);
    try {
      const m = redis.multi();
      for (const f of fields) m.hincrby(key, f, by);
      m.pexpireat(key, expireAt(now));
      m.exec().catch(() => {});
    } catch {
      // Redis unreachable: this count is lost, the verdict is not changed by it.
    }
  };
  return {
    async take(tenant, limit, now) {
      return (await run(keyOf(tenant, now), limit, expireAt(now))) === 1;
    },
    refund: (tenant, now) => add(tenant, now, ['used'], -1),
    count: (tenant, outcome, now) => add(tenant, now, fieldsOf(outcome), 1),
    async day(tenant, now) {
      return dayFrom(await redis.hgetall(keyOf(tenant, now)));
    },
  };
}
