import { LRUCache } from 'lru-cache';
import { defaultPolicy, effectivePolicy } from '../config/tenant-policy.js';
import type { TenantPolicy } from '../inspect/types.js';
import { RESYNC, type BroadcastMessage } from '../redis/broadcast.js';
import type { Services } from '../services.js';
import { readTenantPolicy } from '../storage/tenant-policies.js';
import { MEMORY_BUDGETS, byteBounded } from '../memory/budgets.js';

export const POLICY_CHANGED = 'tenant_policy_changed';

/**
 * The effective detection policy of each tenant, as the data plane applies it: process defaults (environment)
 * overridden by the tenant's stored policy. Cached per tenant for at most BASTION_POLICY_CACHE_TTL_MS; a change made
 * through the admin API is published on the broadcast bus (Redis pub/sub between replicas, in-process otherwise) and
 * drops the entry everywhere at once. A storage failure propagates (5xx): it never falls back to the defaults, which
 * could be weaker than what the tenant chose.
 */
export class TenantPolicies {
  private readonly cache: LRUCache<string, TenantPolicy>;
  private readonly loading = new Map<string, Promise<TenantPolicy>>();
  private generation = 0;
  readonly defaults: TenantPolicy;

  constructor(private readonly services: Pick<Services, 'config' | 'storage' | 'broadcast'>) {
    this.defaults = defaultPolicy(services.config);
    this.cache = new LRUCache({ ...byteBounded<string, TenantPolicy>(MEMORY_BUDGETS.tenantPolicies), ttl: Math.max(1, services.config.policyCacheTtlMs) });
    services.broadcast.subscribe((message: BroadcastMessage) => {
      if (message.type === POLICY_CHANGED) this.drop(typeof message.tenant === 'string' ? message.tenant : undefined);
      if (message.type === RESYNC) this.drop(undefined);
    });
  }

  private drop(tenantId: string | undefined): void {
    this.generation++;
    if (tenantId === undefined) this.cache.clear();
    else this.cache.delete(tenantId);
  }

  async get(tenantId: string | undefined): Promise<TenantPolicy> {
    if (tenantId === undefined) return this.defaults;
    if (this.services.config.policyCacheTtlMs > 0) {
      const hit = this.cache.get(tenantId);
      if (hit) return hit;
    }
    const inflight = this.loading.get(tenantId);
    if (inflight) return inflight;
    const generation = this.generation;
    const load = readTenantPolicy(this.services.storage.db, tenantId)
      .then((stored) => {
        const policy = effectivePolicy(this.defaults, stored);
        // A change announced while this read ran may not be in it: use it for this request, do not cache it.
        if (generation === this.generation && this.services.config.policyCacheTtlMs > 0) this.cache.set(tenantId, policy);
        return policy;
      })
      .finally(() => this.loading.delete(tenantId));
    this.loading.set(tenantId, load);
    return load;
  }

  /**
   * After a write: this replica drops its copy at once, every other one when the message arrives. Returns false when
   * the message could not be published (Redis down): other replicas then pick the change up within the TTL.
   */
  async changed(tenantId: string): Promise<boolean> {
    this.drop(tenantId);
    try {
      await this.services.broadcast.publish({ type: POLICY_CHANGED, tenant: tenantId });
      return true;
    } catch {
      return false;
    }
  }
}

const instances = new WeakMap<object, TenantPolicies>();

/** One instance per Services (shared by the data-plane and admin listeners of a process). */
export function tenantPolicies(services: Pick<Services, 'config' | 'storage' | 'broadcast'>): TenantPolicies {
  let instance = instances.get(services);
  if (!instance) instances.set(services, (instance = new TenantPolicies(services)));
  return instance;
}
