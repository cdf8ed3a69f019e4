import type { Kysely } from 'kysely';
import { LRUCache } from 'lru-cache';
import { RESYNC, type Broadcast } from '../redis/broadcast.js';
import { findKeyByHash, touchKey } from '../storage/api-keys.js';
import type { Database } from '../storage/schema.js';
import { findTenant } from '../storage/tenants.js';
import { hashKey } from './key-material.js';
import { MEMORY_BUDGETS, byteBounded } from '../memory/budgets.js';

export interface Principal {
  keyId: string;
  tenantId: string;
  prefix: string;
  ratePerMinute: number;
  plan: string;
  addons: string[];
}

export interface KeyResolverOptions {
  /** 0 disables the cache (embedded mode: another process — the CLI — may revoke a key at any time). */
  cacheTtlMs: number;
  broadcast: Broadcast;
  /**
   * A counter that changes whenever another process wrote to the store (SQLite's `PRAGMA data_version`). When it
   * moves, every cached key is dropped, so a `bastion keys revoke` from the CLI applies on the next request.
   */
  externalWrites?: () => number;
}

const TOUCH_EVERY_MS = 60_000;
const EXTERNAL_WRITE_CHECK_MS = 1;

/**
 * Resolves an API key to its tenant. Only active keys are cached, and only when revocations are broadcast
 * (Redis), so a revoked key fails on the next request in every process and replica.
 */
export class KeyResolver {
  private readonly cache?: LRUCache<string, Principal>;
  private readonly touched = new LRUCache<string, number>(byteBounded(MEMORY_BUDGETS.keyTouched));

  constructor(private readonly db: Kysely<Database>, private readonly options: KeyResolverOptions) {
    if (options.cacheTtlMs > 0) this.cache = new LRUCache({ ...byteBounded<string, Principal>(MEMORY_BUDGETS.keyCache), ttl: options.cacheTtlMs });
    options.broadcast.subscribe((message) => {
      if ((message.type === 'key_revoked' || message.type === 'key_changed') && typeof message.hash === 'string') this.cache?.delete(message.hash);
      if (message.type === 'tenant_changed' || message.type === RESYNC) this.cache?.clear();
    });
  }

  async resolve(rawKey: string): Promise<Principal | undefined> {
    const hash = hashKey(rawKey);
    const cached = this.cachedByHash(hash);
    if (cached) return cached;
    const key = await findKeyByHash(this.db, hash);
    if (!key || key.revokedAt !== null) return undefined;
    const tenant = await findTenant(this.db, key.tenantId);
    if (!tenant) return undefined;
    const principal: Principal = {
      keyId: key.keyId,
      tenantId: key.tenantId,
      prefix: key.prefix,
      ratePerMinute: key.ratePerMinute,
      plan: tenant.plan,
      addons: tenant.addons,
    };
    this.cache?.set(hash, principal);
    this.touch(key.keyId);
    return principal;
  }

  /** The principal of a key this process has cached, answered at once; undefined: ask `resolve`. */
  cached(rawKey: string): Principal | undefined {
    return this.cache ? this.cachedByHash(hashKey(rawKey)) : undefined;
  }

  private cachedByHash(hash: string): Principal | undefined {
    this.dropCacheOnExternalWrite();
    const cached = this.cache?.get(hash);
    if (cached) this.touch(cached.keyId);
    return cached;
  }

  /**
   * Announces a revocation to every process (and drops it locally at once). Returns false when the bus is down: the
   * revocation is stored all the same, metered requests are refused everywhere while Redis is gone (the limiter lives
   * there), and every replica drops its whole key cache when the bus comes back (RESYNC), so it can never be missed.
   */
  async revoked(hash: string): Promise<boolean> {
    this.cache?.delete(hash);
    return this.options.broadcast.publish({ type: 'key_revoked', hash }).then(() => true, () => false);
  }

  /** Announces that a key's rate or name changed, so every process re-reads it on its next request (false: bus down, as above). */
  async changed(hash: string): Promise<boolean> {
    this.cache?.delete(hash);
    return this.options.broadcast.publish({ type: 'key_changed', hash }).then(() => true, () => false);
  }

  private seenWrites?: number;
  private checkedAt = -Infinity;

  /**
   * Reading SQLite's data_version takes and releases a file lock (two system calls), about 2 % of a proxied request's
   * main-thread time under load (issue 17's profile): it is read at most once per millisecond, so a CLI revocation
   * applies to every request that starts 1 ms or more after it committed.
   */
  private dropCacheOnExternalWrite(): void {
    if (!this.cache || !this.options.externalWrites) return;
    const now = performance.now();
    if (now - this.checkedAt < EXTERNAL_WRITE_CHECK_MS) return;
    this.checkedAt = now;
    const version = this.options.externalWrites();
    if (this.seenWrites !== undefined && version !== this.seenWrites) this.cache.clear();
    this.seenWrites = version;
  }

  // last_used_at is informational: written at most once a minute per key, off the request path.
  private touch(keyId: string): void {
    const now = Date.now();
    const last = this.touched.get(keyId);
    if (last !== undefined && now - last < TOUCH_EVERY_MS) return;
    this.touched.set(keyId, now);
    touchKey(this.db, keyId, now).catch(() => {});
  }
}
