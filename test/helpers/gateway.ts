import { Writable } from 'node:stream';
import { loadConfig } from '../../src/config/load.js';
import type { Config } from '../../src/config/schema.js';
import { startGateway, type Gateway } from '../../src/runtime.js';
import { createApiKey } from '../../src/storage/api-keys.js';
import { changeEntitlements, ensureTenant } from '../../src/storage/tenants.js';
import { REDIS_URL, databaseUrl, redisPrefix, type StorageBackend } from './backends.js';

/** Captures every log line the gateway writes, so tests can assert what was (never) logged. */
export class LogCapture extends Writable {
  readonly lines: string[] = [];
  override _write(chunk: Buffer, _enc: string, done: () => void): void {
    this.lines.push(...chunk.toString('utf8').split('\n').filter(Boolean));
    done();
  }
  get text(): string {
    return this.lines.join('\n');
  }
}

export interface TestGateway extends Gateway {
  logs: LogCapture;
  proxyUrl: string;
  adminUrl: string;
  /** Creates a tenant (if needed) and a key for it. */
  key(tenant?: string, options?: { rate?: number; plan?: string; addons?: string[] }): Promise<string>;
}

export interface TestGatewayOptions {
  storage?: StorageBackend;
  redis?: boolean;
  config?: Partial<Config>;
  env?: NodeJS.ProcessEnv;
  /** Reuse an existing database (a second replica). */
  databaseUrl?: string;
  redisPrefix?: string;
}

interface Teardown {
  teardown(fn: () => unknown): void;
}

export async function startTestGateway(t: Teardown, options: TestGatewayOptions = {}): Promise<TestGateway> {
  const logs = new LogCapture();
  const config = loadConfig(options.env ?? {}, {
    host: '127.0.0.1',
    port: 0,
    adminPort: 0,
    logLevel: 'info',
    workers: 1,
    shutdownGraceMs: 1000,
    allowUnauthenticated: true,
    // The evolution loop would turn one test's attacks into rules that change the next test's verdicts: opt in.
    evolutionEnabled: false,
    databaseUrl: options.databaseUrl ?? (await databaseUrl(t, options.storage ?? 'sqlite')),
    ...(options.redis ? { redisUrl: REDIS_URL, redisPrefix: options.redisPrefix ?? redisPrefix() } : {}),
    ...options.config,
  });
  const gateway = await startGateway(config, logs);
  t.teardown(() => gateway.close());
  const db = gateway.services.storage.db;
  return {
    ...gateway,
    logs,
    proxyUrl: `http://127.0.0.1:${gateway.ports.proxy}`,
    adminUrl: `http://127.0.0.1:${gateway.ports.admin}`,
    async key(tenant = 'acme', opts = {}) {
      await ensureTenant(db, tenant, opts.plan ?? 'free');
      if (opts.addons) await changeEntitlements(db, tenant, (current) => ({ plan: current.plan, addons: opts.addons! }));
      const { key } = await createApiKey(db, { tenantId: tenant, name: 'test', ratePerMinute: opts.rate ?? 60, source: 'cli' });
      return key;
    },
  };
}
