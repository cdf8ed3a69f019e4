import { randomBytes } from 'node:crypto';
import type { StorageBackend } from '../helpers/backends.js';
import { startTestGateway, type TestGateway } from '../helpers/gateway.js';
import { call, type Reply } from '../helpers/http.js';
import type { NewRule } from '../../src/storage/evolved-rules.js';
import { changeEntitlements, ensureTenant } from '../../src/storage/tenants.js';

interface Teardown {
  teardown(fn: () => unknown): void;
}

export const ADMIN_KEY = 'tunnels-admin-key-0123456789abcdef';

export interface Platform {
  gw: TestGateway;
  key: string;
  tenant: string;
  /** Admin-listener request with this platform's X-API-Key. */
  api(method: string, path: string, body?: unknown): Promise<Reply>;
}

/** One gateway with its own database and master key, evolution on, and an enterprise tenant with the tunnels add-on. */
export async function platform(
  t: Teardown,
  backend: StorageBackend,
  tenant: string,
  options: { redis?: boolean; replicaOf?: Platform; config?: Record<string, unknown> } = {},
): Promise<Platform> {
  // A replica shares the database, the Redis prefix and the master key of the gateway it scales out.
  const of = options.replicaOf?.gw.services.config;
  const gw = await startTestGateway(t, {
    storage: backend,
    redis: options.redis,
    ...(of ? { databaseUrl: of.databaseUrl, redisPrefix: of.redisPrefix } : {}),
    config: { adminKey: ADMIN_KEY, masterKey: of?.masterKey ?? randomBytes(32), evolutionEnabled: true, evolutionMode: 'auto', ...options.config },
  });
  const db = gw.services.storage.db;
  await ensureTenant(db, tenant, 'enterprise');
  await changeEntitlements(db, tenant, () => ({ plan: 'enterprise', addons: ['tunnels'] }));
  const key = await gw.key(tenant, { rate: 100_000, plan: 'enterprise' });
  const api = (method: string, path: string, body?: unknown) => call(`${gw.adminUrl}${path}`, { method, headers: { 'x-api-key': key }, ...(body === undefined ? {} : { body }) });
  return { gw, key, tenant, api };
}

export async function register(p: Platform, name: string): Promise<Record<string, string>> {
  const r = await p.api('POST', '/syndicates/register', { display_name: name });
  if (r.status !== 200) throw new Error(`register: ${r.status} ${r.body}`);
  return r.json();
}

export type Json = Record<string, unknown>;

/** The whole handshake as the two administrators run it; the reply and number pass through `relay` (the first channel). */
export async function handshake(a: Platform, b: Platform, relay: { manifest?: (m: Json) => Json; reply?: (r: Json) => Json; beforeComplete?: (manifest: Json) => Promise<void>; acceptNew?: boolean; withoutCode?: boolean; endpoint?: string } = {}) {
  const init = await a.api('POST', '/tunnels/handshake/init', { endpoint: a.gw.adminUrl, ttl_seconds: 3600 });
  if (init.status !== 200) throw new Error(`init: ${init.status} ${init.body}`);
  const manifest = (relay.manifest ?? ((m) => m))(init.json());
  const accept = await b.api('POST', '/tunnels/handshake/accept', { manifest, endpoint: relay.endpoint ?? b.gw.adminUrl, ...(relay.acceptNew ? { accept_new_identity: true } : {}) });
  if (accept.status !== 200) return { init, accept };
  const accepted = accept.json<{ reply: Json; safety_number: string; confirmation_code?: string; tunnel: Json }>();
  const reply = (relay.reply ?? ((r) => r))(accepted.reply);
  await relay.beforeComplete?.(init.json());
  // The second channel: B's administrator reads the number and the confirmation code to A's, who types them.
  const code = relay.withoutCode ? {} : { confirmation_code: accepted.confirmation_code };
  const complete = await a.api('POST', '/tunnels/handshake/complete', { reply, safety_number: accepted.safety_number, ...code });
  return { init, accept, accepted, complete, tunnelId: accepted.tunnel.tunnel_id as string };
}

/** An evolved rule as the loop stores it, by default active and promoted to every tenant (exportable). */
export function evolvedRule(id: string, pattern: string, options: { kind?: 'regex' | 'phrase'; scope?: 'global' | 'tenant' } = {}): NewRule {
  return {
    id,
    kind: options.kind ?? 'regex',
    pattern,
    family: null,
    status: 'active',
    source: 'offline',
    model: null,
    attack_type: null,
    explanation: null,
    content_hash: 'a'.repeat(64),
    tenant_id: 'acme',
    scope: options.scope ?? 'global',
    reason: null,
    created_at: Date.now(),
  };
}
