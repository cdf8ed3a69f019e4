import { createHmac } from 'node:crypto';
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import canonicalize from 'canonicalize';
import type { Redis } from 'ioredis';
import { sameDigest } from '../agents/activity-chain.js';

/**
 * The activity log's anchor: for each tenant, the newest sequence number and hash known to be committed, MAC'd under
 * the chain key, kept in a file outside the database. Whoever can write the database can delete every record and the
 * head row, or put back an older genuine head and delete what came after; the chain alone cannot tell (it is
 * consistent), but the anchor remembers how far it had got. It only moves forward, and only to a head that was
 * committed and carried a valid MAC (the head read when the next record is appended, or by verify-log), so it is
 * never ahead of the database: a rollback or a lost transaction is never mistaken for tampering.
 */
export interface Anchor {
  seq: number;
  hash: string;
  mac: string;
}

export function anchorMac(key: Buffer, tenantId: string, seq: number, hash: string): string {
  return createHmac('sha256', key).update(canonicalize({ purpose: 'anchor', tenant_id: tenantId, seq, hash })!, 'utf8').digest('hex');
}

export const anchorIntact = (key: Buffer, tenantId: string, a: Anchor): boolean =>
  Number.isSafeInteger(a.seq) && a.seq > 0 && typeof a.hash === 'string' && typeof a.mac === 'string' && sameDigest(a.mac, anchorMac(key, tenantId, a.seq, a.hash));

/** Where anchors are kept: a file (one instance, or a shared volume) or Redis (every replica). */
export interface AnchorStore {
  /** The tenant's anchor, or undefined; throws when the store cannot be read (reported, never overwritten). */
  get(tenantId: string): Promise<Anchor | undefined>;
  /** Moves a tenant's anchor forward to `anchor` (never back). */
  advance(tenantId: string, anchor: Anchor): Promise<void>;
}

/** A JSON file of anchors by tenant, replaced atomically (write then rename); advances are serialised in-process. */
export class AnchorFile implements AnchorStore {
  private queue: Promise<unknown> = Promise.resolve();

  constructor(readonly path: string) {}

  /** The anchors as stored; a missing file holds none; an unreadable one throws (verify-log reports it, nothing overwrites it). */
  read(): Record<string, Anchor> {
    let text: string;
    try {
      text = readFileSync(this.path, 'utf8');
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return {};
      throw err;
    }
    const parsed = JSON.parse(text) as unknown;
    if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) throw new Error('activity anchor file is not an object');
    return parsed as Record<string, Anchor>;
  }

  async get(tenantId: string): Promise<Anchor | undefined> {
    return this.read()[tenantId];
  }

  advance(tenantId: string, anchor: Anchor): Promise<void> {
    const step = this.queue.then(() => {
      const all = this.read();
      if ((all[tenantId]?.seq ?? 0) >= anchor.seq) return;
      all[tenantId] = anchor;
      mkdirSync(dirname(this.path), { recursive: true });
      const tmp = `${this.path}.${process.pid}.tmp`;
      writeFileSync(tmp, JSON.stringify(all), { mode: 0o600 });
      renameSync(tmp, this.path);
    });
    this.queue = step.catch(() => undefined);
    return step;
  }
}

/**
 * The anchor file: BASTION_ACTIVITY_ANCHOR_FILE, else next to an SQLite database file (unless Redis holds the anchors:
 * useRedisAnchor). A PostgreSQL deployment without Redis names the file; without either, no anchor.
 */
export function anchorPath(databaseUrl: string, configured: string | undefined): string | undefined {
  if (configured) return resolve(configured);
  if (!databaseUrl.startsWith('sqlite:') || databaseUrl === 'sqlite::memory:') return undefined;
  return `${resolve(databaseUrl.slice('sqlite:'.length))}.activity-anchor.json`;
}

// Compare-and-set in one step, so replicas advancing at once never move an anchor back.
const ADVANCE = `local cur = redis.call('GET', KEYS[1])
if cur and tonumber(cjson.decode(cur).seq) >= tonumber(ARGV[1]) then return 0 end
redis.call('SET', KEYS[1], ARGV[2])
return 1`;

/** Anchors in Redis (`{prefix}activity-anchor:{tenant}`), shared by every replica and the CLI. */
export class RedisAnchor implements AnchorStore {
  constructor(
    private readonly redis: Redis,
    private readonly prefix: string,
  ) {}

  async get(tenantId: string): Promise<Anchor | undefined> {
    const text = await this.redis.get(`${this.prefix}activity-anchor:${tenantId}`);
    if (text === null) return undefined;
    const parsed = JSON.parse(text) as unknown;
    if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) throw new Error('activity anchor is not an object');
    return parsed as Anchor;
  }

  async advance(tenantId: string, anchor: Anchor): Promise<void> {
    await this.redis.eval(ADVANCE, 1, `${this.prefix}activity-anchor:${tenantId}`, String(anchor.seq), JSON.stringify(anchor));
  }
}

/** Redis when configured and no file is named: every replica and the CLI then share one anchor per tenant. */
export function useRedisAnchor(config: { redisUrl?: string; activityAnchorFile?: string }): boolean {
  return Boolean(config.redisUrl) && !config.activityAnchorFile;
}
