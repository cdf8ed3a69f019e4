import { LRUCache } from 'lru-cache';
import { MEMORY_BUDGETS, approxBytes, byteBounded } from '../../memory/budgets.js';
import { RESYNC, type BroadcastMessage } from '../../redis/broadcast.js';
import type { Services } from '../../services.js';
import { listPins, otherServersToolNames, type PinRow } from '../../storage/mcp-pins.js';
import { findMcpServer, openCredential, type McpServerRow } from '../../storage/mcp-servers.js';

export const MCP_REGISTRY_CHANGED = 'mcp_registry_changed';

/** A registered server as the relay uses it: its row and its credential opened once (or why it does not open). */
export interface CachedServer {
  row: McpServerRow;
  credential: string | undefined | Error;
}

/** How often at most the SQLite data version is read (another process, the CLI, may have written). */
const EXTERNAL_WRITE_CHECK_MS = 1;

/**
 * The MCP proxy's registry as the data plane reads it on every message: a tenant's server (row and opened
 * credential), the pinned tools of that server and the tool names of the tenant's other servers. Read from the
 * database once and kept for at most BASTION_POLICY_CACHE_TTL_MS; every write (a tools/list that pins, an approval, a
 * server registered, changed or removed) calls `changed`, which drops the entries of that tenant here at once and on
 * every replica over the broadcast bus. A CLI write to SQLite is seen through the database's data version, one to
 * PostgreSQL through Redis (the CLI publishes the same message). A storage failure propagates: nothing is assumed.
 */
export class McpRegistryCache {
  private readonly servers: LRUCache<string, { value: CachedServer | null }>;
  private readonly pinSets: LRUCache<string, ReadonlyMap<string, PinRow>>;
  private readonly others: LRUCache<string, readonly string[]>;
  private readonly enabled: boolean;
  private generation = 0;
  private checkedAt = -Infinity;
  private seenWrites: number | undefined;

  constructor(private readonly services: Pick<Services, 'config' | 'storage' | 'broadcast'>) {
    const ttl = Math.max(1, services.config.policyCacheTtlMs);
    this.enabled = services.config.policyCacheTtlMs > 0;
    const budget = MEMORY_BUDGETS.mcpPins;
    this.servers = new LRUCache({ ...byteBounded(budget / 8, (v, k) => approxBytes(v.value?.row ?? null) + 2 * k.length), ttl });
    this.pinSets = new LRUCache({ ...byteBounded(budget / 2, (v, k) => 2 * k.length + approxBytes([...v.values()], 3)), ttl });
    this.others = new LRUCache({ ...byteBounded(budget / 8, (v, k) => 2 * k.length + approxBytes(v)), ttl });
    services.broadcast.subscribe((message: BroadcastMessage) => {
      if (message.type === MCP_REGISTRY_CHANGED && typeof message.tenant === 'string') this.drop(message.tenant);
      if (message.type === RESYNC) this.drop(undefined);
    });
  }

  async server(tenantId: string, name: string): Promise<CachedServer | undefined> {
    const key = `${tenantId}\0${name}`;
    return (
      (await this.cached(this.servers, key, async () => {
        const row = await findMcpServer(this.services.storage.db, tenantId, name);
        if (!row) return { value: null };
        let credential: CachedServer['credential'];
        try {
          credential = openCredential(this.services.config.masterKey, row);
        } catch (err) {
          credential = err instanceof Error ? err : new Error(String(err));
        }
        return { value: { row, credential } };
      })).value ?? undefined
    );
  }

  /** The pinned tools of a tenant's server, by tool name. */
  async pins(tenantId: string, server: string): Promise<ReadonlyMap<string, PinRow>> {
    return this.cached(this.pinSets, `${tenantId}\0${server}`, async () => new Map((await listPins(this.services.storage.db, tenantId, server)).map((p) => [p.tool_name, p])));
  }

  /** Approved tool names of the tenant's other servers (for the shadowing check). */
  async otherToolNames(tenantId: string, server: string): Promise<readonly string[]> {
    return this.cached(this.others, `${tenantId}\0${server}`, () => otherServersToolNames(this.services.storage.db, tenantId, server));
  }

  /** After a write for this tenant: dropped here at once, elsewhere when the message arrives (false: not published). */
  async changed(tenantId: string): Promise<boolean> {
    this.drop(tenantId);
    try {
      await this.services.broadcast.publish({ type: MCP_REGISTRY_CHANGED, tenant: tenantId });
      return true;
    } catch {
      return false;
    }
  }

  private async cached<V extends {}>(cache: LRUCache<string, V>, key: string, load: () => Promise<V>): Promise<V> {
    this.dropOnExternalWrite();
    if (this.enabled) {
      const hit = cache.get(key);
      if (hit !== undefined) return hit;
    }
    const generation = this.generation;
    const value = await load();
    // A change announced while this read ran may not be in it: use it for this request, do not keep it.
    if (this.enabled && generation === this.generation) cache.set(key, value);
    return value;
  }

  private drop(tenantId: string | undefined): void {
    this.generation++;
    for (const cache of [this.servers, this.pinSets, this.others] as { clear(): void; keys(): Iterable<string>; delete(key: string): boolean }[]) {
      if (tenantId === undefined) cache.clear();
      else for (const key of [...cache.keys()]) if (key.startsWith(`${tenantId}\0`)) cache.delete(key);
    }
  }

  private dropOnExternalWrite(): void {
    const version = this.services.storage.externalWrites;
    if (!version) return;
    const now = performance.now();
    if (now - this.checkedAt < EXTERNAL_WRITE_CHECK_MS) return;
    this.checkedAt = now;
    const seen = version();
    if (this.seenWrites !== undefined && seen !== this.seenWrites) this.drop(undefined);
    this.seenWrites = seen;
  }
}

const instances = new WeakMap<object, McpRegistryCache>();

/** One instance per Services (shared by the data-plane and admin listeners of a process). */
export function mcpRegistry(services: Pick<Services, 'config' | 'storage' | 'broadcast'>): McpRegistryCache {
  let instance = instances.get(services);
  if (!instance) instances.set(services, (instance = new McpRegistryCache(services)));
  return instance;
}
