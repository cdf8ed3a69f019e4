import type { LlmJudge } from './judge/client.js';
import type { Redis } from 'ioredis';
import type { Logger } from 'pino';
import type { KeyResolver } from './auth/key-resolver.js';
import type { Config } from './config/schema.js';
import type { MonthlyQuota } from './limits/monthly-quota.js';
import type { RateWindow } from './limits/window.js';
import type { Broadcast } from './redis/broadcast.js';
import type { Storage } from './storage/database.js';
import type { StatsBuffer } from './storage/stats-buffer.js';
import type { ErsStore } from './ers/store.js';
import type { Evolution } from './evolution/service.js';
import type { Inspector } from './workers/pool.js';
import type { VerdictCache } from './workers/verdict-cache.js';
import type { Upstream } from './upstream/client.js';

/** Everything a route needs, built once by src/runtime.ts and decorated onto both listeners. */
export interface Services {
  config: Config;
  logger: Logger;
  storage: Storage;
  redis?: Redis;
  broadcast: Broadcast;
  keys: KeyResolver;
  window: RateWindow;
  quota: MonthlyQuota;
  ers: ErsStore;
  inspector: Inspector;
  verdictCache: VerdictCache;
  /** The LLM judge, when BASTION_JUDGE_URL is set. */
  llmJudge?: LlmJudge;
  /** Per-tenant daily aggregates, batched (src/storage/stats-buffer.ts). */
  stats: StatsBuffer;
  upstream: Upstream;
  /** The evolution loop (src/evolution/): rule hits, attack analysis, evolved rules in the pipeline. */
  evolution: Evolution;
}

declare module 'fastify' {
  interface FastifyInstance {
    services: Services;
  }
}
