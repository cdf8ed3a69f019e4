import type { Config } from '../config/schema.js';
import { startGateway } from '../runtime.js';
import { countActiveKeys, createApiKey } from '../storage/api-keys.js';
import { migrate, openStorage } from '../storage/database.js';
import { ensureGatewayTenant } from '../storage/tenants.js';
import { listRules } from '../storage/evolved-rules.js';
import { quickstartAdminKey } from './quickstart-admin-key.js';
import { quickstartMasterKey } from './quickstart-master-key.js';
import { upstreamOrigins } from './upstreams.js';

export async function serveCommand(config: Config): Promise<number> {
  const gateway = await startGateway(config);
  const { proxy, admin } = gateway.ports;
  // `code`: the compiled dist/ or the TypeScript sources through tsx (bin/bastion.js decides and says which).
  const code = process.env.BASTION_RUNNING_FROM === 'dist' ? 'dist' : 'src';
  // The upstreams in use (origins only: a credential in a URL is never printed), so a 502 is read against them.
  const upstreams = upstreamOrigins(config);
  // The transformer model the inspection threads run (they loaded it during warm-up), or none: BASTION_MODEL.
  const model = config.model ?? 'none';
  gateway.services.logger.info({ proxyPort: proxy, adminPort: admin, storage: gateway.services.storage.dialect, redis: Boolean(config.redisUrl), code, upstreams, model }, 'bastion listening');
  await new Promise<void>((resolve) => {
    let stopping = false;
    const stop = (signal: string) => {
      // A second signal during the drain changes nothing: the grace period bounds the wait anyway.
      if (stopping) return;
      stopping = true;
      gateway.services.logger.info({ signal }, 'shutting down: draining in-flight requests');
      const started = performance.now();
      // The last line: how the drain went (metadata only), so an operator sees the process ended, not that it hung.
      gateway
        .close()
        .then(
          () => gateway.services.logger.info({ event: 'stopped', signal, drainMs: Math.round(performance.now() - started) }, 'stopped'),
          (err: unknown) => gateway.services.logger.error({ event: 'stopped', signal, drainMs: Math.round(performance.now() - started), error: (err as Error).message }, 'stopped after a failed close'),
        )
        .finally(resolve);
    };
    process.on('SIGTERM', () => stop('SIGTERM'));
    process.on('SIGINT', () => stop('SIGINT'));
  });
  return 0;
}

/**
 * `npm start`: a fresh clone gets a master key and an admin key kept beside the embedded database
 * (quickstart-master-key.ts, quickstart-admin-key.ts), a tenant and a first key (printed once), the evolution loop
 * in review mode unless EVOLUTION_MODE says otherwise (docs/EVOLUTION.md: a first user's test traffic never becomes
 * a rule behind their back), then the gateway.
 */
export async function quickstartCommand(config: Config, env: NodeJS.ProcessEnv = process.env): Promise<number> {
  const kept = quickstartMasterKey(config);
  if (kept) {
    config = { ...config, masterKey: kept.key };
    if (kept.created) process.stdout.write(`\nCreated a master key in ${kept.file} (readable by you only). It seals stored secrets: back it up with the database, or set BASTION_MASTER_KEY to use your own.\n`);
  }
  const admin = quickstartAdminKey(config);
  if (admin) {
    config = { ...config, adminKey: admin.key };
    process.stdout.write(
      `\n${admin.created ? 'Created an admin key' : 'Admin key'} in ${admin.file} (readable by you only) for the operator routes, e.g.\n` +
        `  curl -H "X-Admin-Key: $(cat ${admin.file})" http://${config.adminHost ?? config.host}:${config.adminPort}/admin/rules\n`,
    );
  }
  if (env.EVOLUTION_MODE === undefined) config = { ...config, evolutionMode: 'review' };
  if (config.apiKeys.length === 0 && !config.allowUnauthenticated) {
    const storage = openStorage(config.databaseUrl, { masterKey: config.masterKey });
    try {
      await migrate(storage);
      // Self-hosted (BASTION_PLANS=owner): the default tenant holds every capability with no quota, on every start.
      await ensureGatewayTenant(storage.db, 'default', config.plans);
      const active = await countActiveKeys(storage.db);
      if (active > 0) {
        process.stdout.write(
          `\nAn API key already exists (${active} active; shown only when it was created). A new one: npx bastion keys create --tenant default --name NAME\n` +
            `(revoke one with npx bastion keys revoke KEY_ID; list them with npx bastion keys list).\n\n`,
        );
      } else {
        const { key, record } = await createApiKey(storage.db, { tenantId: 'default', name: 'quickstart', ratePerMinute: config.sidecarKeyRate, source: 'cli' });
        process.stdout.write(
          `\nCreated a first API key for tenant "default" (${record.keyId}, ${record.ratePerMinute} requests/min). It is shown only this once:\n\n  ${key}\n\n` +
            `Try: curl -H 'X-API-Key: ${key}' http://${config.host}:${config.port}/health\n\n`,
        );
      }
      if (config.evolutionEnabled) await announceRules(storage, config.evolutionMode);
    } finally {
      await storage.close();
    }
  }
  return serveCommand(config);
}

/** What the learning loop does on this start, and the rules waiting for a decision (metadata: ids and patterns only). */
async function announceRules(storage: ReturnType<typeof openStorage>, mode: Config['evolutionMode']): Promise<void> {
  const pending = await listRules(storage.db, { status: 'pending', limit: 5 });
  const how =
    mode === 'review'
      ? 'Evolution loop: review mode (rules it learns wait for you; EVOLUTION_MODE=auto npm start makes them live at once).'
      : 'Evolution loop: auto mode (a rule that passes validation goes live; list them with npx bastion rules list).';
  const waiting = pending.map((r) => `  ${r.id}  ${r.kind} "${r.pattern}"`).join('\n');
  process.stdout.write(
    `\n${how}\n` +
      (pending.length > 0 ? `Rules waiting for review (npx bastion rules enable RULE_ID to make one live, disable to drop it):\n${waiting}\n` : ''),
  );
}
