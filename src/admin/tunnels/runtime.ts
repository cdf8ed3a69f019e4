import { open, seal } from '../../auth/crypto-box.js';
import { BastionError } from '../../errors.js';
import { memoryVolatileStore, redisVolatileStore, type VolatileStore } from '../../redis/volatile-store.js';
import type { Services } from '../../services.js';
import { findSyndicate, syndicateKeys, type Syndicate } from '../../storage/syndicates.js';
import type { TunnelKeys } from '../../tunnels/handshake.js';
import type { KeyPair } from '../../tunnels/keys.js';

/**
 * Per-gateway tunnel state: the volatile store (memory, or Redis in scale-out) and the clock. Everything put in the
 * store is also sealed under the master key, so a Redis dump alone opens nothing. `clock.now` is replaceable in tests
 * (the 10-minute handshake retention).
 */
export interface TunnelRuntime {
  store: VolatileStore;
  clock: { now: () => number };
  masterKey: Buffer;
}

const runtimes = new WeakMap<Services, TunnelRuntime>();

export function tunnelRuntime(services: Services): TunnelRuntime {
  const existing = runtimes.get(services);
  if (existing) return existing;
  const masterKey = services.config.masterKey;
  if (!masterKey) throw new BastionError('SYNDICATE_KEYS_UNAVAILABLE');
  const clock = { now: Date.now };
  const store = services.redis ? redisVolatileStore(services.redis, services.config.redisPrefix) : memoryVolatileStore(() => clock.now());
  const runtime = { store: guarded(store), clock, masterKey };
  runtimes.set(services, runtime);
  return runtime;
}

/** A store failure (Redis down) is a 503, never a 500 and never a fallback to somewhere durable. */
function guarded(store: VolatileStore): VolatileStore {
  const wrap =
    <A extends unknown[], R>(fn: (...args: A) => Promise<R>) =>
    async (...args: A): Promise<R> => {
      try {
        return await fn(...args);
      } catch {
        throw new BastionError('TUNNEL_STORE_UNAVAILABLE');
      }
    };
  return { put: wrap(store.put), get: wrap(store.get), take: wrap(store.take), del: wrap(store.del), next: wrap(store.next), accept: wrap(store.accept) };
}

export const HANDSHAKE_RETENTION_MS = 10 * 60_000;
export const pendingKey = (handshakeId: string) => `hs:${handshakeId}`;
export const tunnelKey = (tunnelId: string) => `key:${tunnelId}`;
export const sendCounter = (tunnelId: string) => `seq:${tunnelId}`;
export const receiveWindow = (tunnelId: string) => `win:${tunnelId}`;

export async function putSealed(rt: TunnelRuntime, key: string, value: unknown, ttlMs: number): Promise<void> {
  await rt.store.put(key, seal(rt.masterKey, JSON.stringify(value), key), ttlMs);
}

export function openSealed<T>(rt: TunnelRuntime, key: string, sealed: string | undefined): T | undefined {
  if (sealed === undefined) return undefined;
  try {
    return JSON.parse(open(rt.masterKey, sealed, key)) as T;
  } catch {
    return undefined;
  }
}

export async function saveTunnelKeys(rt: TunnelRuntime, tunnelId: string, keys: TunnelKeys, ttlMs: number): Promise<void> {
  await putSealed(rt, tunnelKey(tunnelId), { a2b: keys.a2b.toString('base64url'), b2a: keys.b2a.toString('base64url') }, ttlMs);
}

export async function loadTunnelKeys(rt: TunnelRuntime, tunnelId: string): Promise<TunnelKeys | undefined> {
  const raw = openSealed<{ a2b: string; b2a: string }>(rt, tunnelKey(tunnelId), await rt.store.get(tunnelKey(tunnelId)));
  return raw && { a2b: Buffer.from(raw.a2b, 'base64url'), b2a: Buffer.from(raw.b2a, 'base64url') };
}

/** Crypto-shredding: the key and the counters, from the only place they live. */
export async function shredTunnelKeys(rt: TunnelRuntime, tunnelId: string): Promise<void> {
  await rt.store.del([tunnelKey(tunnelId), sendCounter(tunnelId), receiveWindow(tunnelId)]);
}

/** The tenant's syndicate and its opened key pairs. */
export async function ownSyndicate(services: Services, rt: TunnelRuntime, tenantId: string): Promise<{ syndicate: Syndicate; identity: KeyPair; signing: KeyPair }> {
  const syndicate = await findSyndicate(services.storage.db, tenantId);
  if (!syndicate) throw new BastionError('SYNDICATE_NOT_REGISTERED');
  try {
    return { syndicate, ...syndicateKeys(syndicate, rt.masterKey) };
  } catch {
    throw new BastionError('SYNDICATE_KEYS_UNAVAILABLE');
  }
}
