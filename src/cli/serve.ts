import type { Config } from '../config/schema.js';
import { DEFAULT_PLAN } from '../config/plans.js';
import { startGateway } from '../runtime.js';
import { countActiveKeys, createApiKey } from '../storage/api-keys.js';
import { migrate, openStorage } from '../storage/database.js';
import { ensureTenant } from '../storage/tenants.js';
import { quickstartMasterKey } from './quickstart-master-key.js';

export async function serveCommand(config: Config): Promise<number> {
  const gateway = await startGateway(config);
  const { proxy, admin } = gateway.ports;
  // `code`: the compiled dist/ or the TypeScript sources through tsx (bin/bastion.js decides and says which).
  const code = process.env.BASTION_RUNNING_FROM === 'dist' ? 'dist' : 'src';
  gateway.services.logger.info({ proxyPort: proxy, adminPort: admin, storage: gateway.services.storage.dialect, redis: Boolean(config.redisUrl), code }, 'bastion listening');
  await new Promise<void>((resolve) => {
    let stopping = false;
    const stop = (signal: string) => {
      // A second signal during the drain changes nothing: the grace period bounds the wait anyway.
      if (stopping) return;
      stopping = true;
      gateway.services.logger.info({ signal }, 'shutting down: draining in-flight requests');
      gateway.close().finally(resolve);
    };
    process.on('SIGTERM', () => stop('SIGTERM'));
    process.on('SIGINT', () => stop('SIGINT'));
  });
  return 0;
}

/**
 * `npm start`: a fresh clone gets a master key kept beside the embedded database (quickstart-master-key.ts), a tenant
 * and a first key (printed once), then the gateway.
 */
export async function quickstartCommand(config: Config): Promise<number> {
  const kept = quickstartMasterKey(config);
  if (kept) {
    config = { ...config, masterKey: kept.key };
    if (kept.created) process.stdout.write(`\nCreated a master key in ${kept.file} (readable by you only). It seals stored secrets: back it up with the database, or set BASTION_MASTER_KEY to use your own.\n`);
  }
  if (config.apiKeys.length === 0 && !config.allowUnauthenticated) {
    const storage = openStorage(config.databaseUrl, { masterKey: config.masterKey });
    try {
      await migrate(storage);
      if ((await countActiveKeys(storage.db)) === 0) {
        await ensureTenant(storage.db, 'default', DEFAULT_PLAN);
        const { key, record } = await createApiKey(storage.db, { tenantId: 'default', name: 'quickstart', ratePerMinute: config.sidecarKeyRate, source: 'cli' });
        process.stdout.write(
          `\nCreated a first API key for tenant "default" (${record.keyId}, ${record.ratePerMinute} requests/min). It is shown only this once:\n\n  ${key}\n\n` +
            `Try: curl -H 'X-API-Key: ${key}' http://${config.host}:${config.port}/health\n\n`,
        );
      }
    } finally {
      await storage.close();
    }
  }
  return serveCommand(config);
}
