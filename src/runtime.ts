import { availableParallelism } from 'node:os';
import { LlmJudge } from './judge/client.js';
import { redisLedger } from './judge/ledger.js';
import type { FastifyInstance } from 'fastify';
import type { DestinationStream, Logger } from 'pino';
import { buildAdminServer } from './admin/server.js';
import { KeyResolver } from './auth/key-resolver.js';
import { StatsBuffer } from './storage/stats-buffer.js';
import type { Config } from './config/schema.js';
import { createLogger } from './http/logging.js';
import { startStandby, type Standby } from './http/standby.js';
import { isStorageUnreachable } from './storage/unreachable.js';
import { collectWhenIdle, exposeGc } from './memory/idle-collect.js';
import { databaseQuota, redisQuota } from './limits/monthly-quota.js';
import { memoryWindow } from './limits/memory-window.js';
import { redisWindow } from './limits/redis-window.js';
import { buildProxyServer } from './proxy/server.js';
import { localBroadcast, redisBroadcast } from './redis/broadcast.js';
import { closeRedis, connectRedis, createRedis } from './redis/client.js';
import type { Services } from './services.js';
import { countActiveKeys, syncBootstrapKeys } from './storage/api-keys.js';
import { migrate, openStorage } from './storage/database.js';
import { ensureGatewayTenant } from './storage/tenants.js';
import { DEFAULT_PLAN } from './config/plans.js';
import { memoryErs, redisErs } from './ers/store.js';
import { limitHeapGrowth } from './memory/heap-growth.js';
import { createInspectorPool } from './workers/pool.js';
import { buildSharedTables } from './workers/shared-tables-build.js';
import { VerdictCache } from './workers/verdict-cache.js';
import { Upstream } from './upstream/client.js';
import { assertEvolutionConfig, createEvolution } from './evolution/service.js';
import { noteOwnListeners } from './mcp/proxy/own-listeners.js';
import { RedisAnchor, useRedisAnchor } from './storage/activity-anchor.js';

import { StartupError } from './startup-error.js';

export { StartupError };

export interface Gateway {
  services: Services;
  proxy: FastifyInstance;
  admin: FastifyInstance;
  /** Actual bound ports (useful with port 0 in tests). */
  ports: { proxy: number; admin: number };
  close(): Promise<void>;
}

export async function createServices(config: Config, logger: Logger): Promise<Services> {
  assertEvolutionConfig(config);
  const storage = openStorage(config.databaseUrl, { masterKey: config.masterKey, anchorFile: config.activityAnchorFile });
  let revokedBootstrap: string[];
  try {
    await migrate(storage);
    if (config.apiKeys.length > 0) {
      for (const k of config.apiKeys) await ensureGatewayTenant(storage.db, k.tenant, config.plans);
    }
    revokedBootstrap = await syncBootstrapKeys(storage.db, config.apiKeys, config.sidecarKeyRate);
  } catch (err) {
    // Nothing else exists yet: close the pool so a retry (storage unreachable at start) starts clean.
    await storage.close().catch(() => {});
    throw err;
  }

  const redis = config.redisUrl ? createRedis(config.redisUrl) : undefined;
  if (redis && !(await connectRedis(redis))) logger.warn({ dependency: 'redis' }, 'redis unreachable at start; metered routes answer 503 until it is back');
  if (redis && storage.activityKey && useRedisAnchor(config)) storage.activityAnchor = new RedisAnchor(redis, config.redisPrefix);
  const broadcast = redis ? redisBroadcast(redis, `${config.redisPrefix}events`) : localBroadcast();
  // Without Redis nothing would tell this process about a revocation made elsewhere (the CLI), so no key cache.
  // A key cache needs to hear about revocations made elsewhere: over Redis, or (one SQLite file) from its
  // data_version. PostgreSQL without Redis gets no cache: another replica could revoke unseen.
  const cacheable = Boolean(redis) || storage.externalWrites !== undefined;
  const keys = new KeyResolver(storage.db, { cacheTtlMs: cacheable ? config.keyCacheTtlMs : 0, broadcast, externalWrites: storage.externalWrites });
  const halfLifeMs = config.ersHalfLifeSeconds * 1000;
  for (const hash of revokedBootstrap) await keys.revoked(hash).catch(() => {});

  const model = config.model ? { model: config.model, modelDir: config.modelDir, label: config.modelLabel, threshold: config.modelThreshold } : undefined;
  // One copy of the lexicons' automata for all inspection threads: each thread then holds ~19 MB less, for ~30 MB held
  // once. Measured (bench:memory) it pays from two threads on (about even at two, ~40 MB less at four), not with one.
  limitHeapGrowth(config.heapGrowthPercent);
  const threads = config.workers || availableParallelism();
  const tables = threads >= 2 ? await buildSharedTables() : undefined;
  if (threads >= 2 && !tables) logger.warn({ event: 'shared_tables_failed' }, 'inspection threads build their own lexicon tables');
  const inspector = createInspectorPool({ threads, maxQueue: config.inspectQueueLimit, timeoutMs: config.inspectTimeoutMs, ...(model ? { model } : {}), ...(tables ? { tables } : {}) });
  const verdictCache = new VerdictCache(config.verdictCacheMb * 1024 * 1024);
  const llmJudge = config.judgeUrl && config.judgeModel ? new LlmJudge({
    baseUrl: config.judgeUrl,
    model: config.judgeModel,
    apiKey: config.judgeApiKey,
    format: config.judgeFormat,
    timeoutMs: config.judgeTimeoutMs,
    concurrency: config.judgeConcurrency,
    ratePerSecond: config.judgeRatePerSecond,
    tenantDailyBudget: config.judgeTenantDailyBudget,
  }, redis ? { ledger: redisLedger(redis, config.redisPrefix) } : {}) : undefined;
  // Before warm-up: the active evolved rules travel to every thread with its warm-up task.
  const evolution = await createEvolution({ config, db: storage.db, redis, broadcast, inspector, verdictCache, logger });
  await inspector.warmUp();
  return {
    config,
    logger,
    storage,
    redis,
    broadcast,
    keys,
    window: redis ? redisWindow(redis, config.redisPrefix) : memoryWindow(),
    quota: redis ? redisQuota(redis, config.redisPrefix) : databaseQuota(storage.db),
    ers: redis ? redisErs(redis, config.redisPrefix, halfLifeMs) : memoryErs(halfLifeMs),
    inspector,
    verdictCache,
    ...(llmJudge ? { llmJudge } : {}),
    upstream: new Upstream({
      connectTimeoutMs: config.upstreamConnectTimeoutMs,
      headersTimeoutMs: config.upstreamHeadersTimeoutMs,
      bodyTimeoutMs: config.upstreamBodyTimeoutMs,
    }),
    evolution,
    stats: new StatsBuffer(storage.db, () => logger.warn({ event: 'daily_stats' }, 'daily stats not recorded')),
  };
}

/** SPEC §5 rule 4: fail closed when no key exists, unless ALLOW_UNAUTHENTICATED=true. */
export async function assertKeysConfigured(services: Services): Promise<void> {
  if (services.config.allowUnauthenticated) return;
  if ((await countActiveKeys(services.storage.db)) > 0) return;
  throw new StartupError(
    'No API key exists, so every request would be refused. Create one with\n' +
      '  npx bastion keys create --tenant default --create-tenant\n' +
      'or set BASTION_API_KEYS=tenant:key, or set ALLOW_UNAUTHENTICATED=true to serve without keys.',
  );
}

// Waits between start attempts while the database is unreachable (the last one repeats).
const STORAGE_RETRY_MS = [500, 1000, 2000, 5000];

/**
 * Services, once the database answers. While it does not (PostgreSQL still starting, a network partition), both
 * ports serve the standby listeners — /livez 200, /readyz and everything else 503 — so Kubernetes keeps the pod and
 * clients get a retryable answer instead of "connection refused" or a crash loop.
 */
async function servicesWhenStorageAnswers(config: Config, logger: Logger): Promise<{ services: Services; standby?: Standby }> {
  let standby: Standby | undefined;
  for (let attempt = 0; ; attempt++) {
    try {
      return { services: await createServices(config, logger), standby };
    } catch (err) {
      if (!isStorageUnreachable(err)) {
        await standby?.close();
        throw err;
      }
      if (!standby) {
        standby = await startStandby({ host: config.host, adminHost: config.adminHost ?? config.host, ports: { proxy: config.port, admin: config.adminPort }, logger, bodyLimit: config.bodyLimitBytes });
        logger.warn({ dependency: 'storage', proxyPort: standby.ports.proxy, adminPort: standby.ports.admin }, 'storage unreachable at start: answering 503 until it is back');
      }
      await new Promise((r) => setTimeout(r, STORAGE_RETRY_MS[Math.min(attempt, STORAGE_RETRY_MS.length - 1)]));
    }
  }
}

export async function startGateway(config: Config, logStream?: DestinationStream): Promise<Gateway> {
  const logger = createLogger(config.logLevel, logStream);
  const { services, standby } = await servicesWhenStorageAnswers(config, logger);
  try {
    await assertKeysConfigured(services);
  } catch (err) {
    await standby?.close();
    await closeServices(services);
    throw err;
  }
  const proxy = await buildProxyServer(services);
  const admin = await buildAdminServer(services);
  // Built first, so the standby listeners close only for the moment it takes to bind the real ones.
  await standby?.close();
  await proxy.listen({ host: config.host, port: standby?.ports.proxy ?? config.port });
  await admin.listen({ host: config.adminHost ?? config.host, port: standby?.ports.admin ?? config.adminPort });
  const portOf = (app: FastifyInstance) => {
    const addr = app.server.address();
    return typeof addr === 'object' && addr ? addr.port : 0;
  };
  noteOwnListeners(services, [portOf(proxy), portOf(admin)]); // an MCP upstream URL must not name them
  const idle = config.idleGcMs > 0 ? collectWhenIdle([proxy.server, admin.server], config.idleGcMs, loggedGc(services.logger)) : undefined;
  let closing: Promise<void> | undefined;
  return {
    services,
    proxy,
    admin,
    ports: { proxy: portOf(proxy), admin: portOf(admin) },
    close() {
      idle?.stop();
      closing ??= drain([proxy, admin], config.shutdownGraceMs, services.logger).then(() => closeServices(services));
      return closing;
    },
  };
}

// After streams were told to end, how long their final events get to flush before the sockets are destroyed.
const FLUSH_MS = 500;

/**
 * SIGTERM: /readyz turns 503 and new requests get 503 SHUTTING_DOWN while the listeners keep accepting; in-flight
 * requests run until they finish or the grace period ends, when open streams send their final event. Only then do the
 * listeners close.
 */
async function drain(apps: FastifyInstance[], graceMs: number, logger: Services['logger']): Promise<void> {
  const idle = apps.map(
    (app) =>
      new Promise<void>((resolve) => {
        app.lifecycle.onIdle = resolve;
        app.lifecycle.draining = true;
        app.lifecycle.idleStreams.abort();
        if (app.lifecycle.inFlight === 0) resolve();
      }),
  );
  let timer: NodeJS.Timeout | undefined;
  const graceOver = new Promise<'grace'>((resolve) => (timer = setTimeout(() => resolve('grace'), graceMs)));
  const outcome = await Promise.race([Promise.all(idle), graceOver]);
  clearTimeout(timer);
  if (outcome === 'grace') {
    logger.warn({ graceMs, inFlight: apps.reduce((n, a) => n + a.lifecycle.inFlight, 0) }, 'grace period over; ending open streams');
    for (const app of apps) app.lifecycle.streams.abort();
  }
  // A connection still open after the final events had time to flush is cut (Kubernetes would SIGKILL soon after).
  const cut = setTimeout(() => apps.forEach((app) => app.server.closeAllConnections()), outcome === 'grace' ? FLUSH_MS : 0);
  cut.unref();
  await Promise.all(apps.map((app) => app.close()));
  clearTimeout(cut);
}

/** The idle collection, with one metadata log line saying what it gave back. */
function loggedGc(logger: Logger): () => void {
  const gc = exposeGc();
  return () => {
    const mb = () => Math.round(process.memoryUsage().heapUsed / 1048576);
    const before = mb();
    gc();
    logger.info({ event: 'idle_gc', heapMbBefore: before, heapMbAfter: mb() }, 'idle: heap collected');
  };
}

export async function closeServices(services: Services): Promise<void> {
  // First: stops analyses and persists the last rule hit counts while storage is still open.
  await services.stats.close();
  await services.evolution.close();
  await services.inspector.close();
  await services.upstream.close();
  await services.broadcast.close();
  if (services.redis) await closeRedis(services.redis);
  await services.storage.close();
}
