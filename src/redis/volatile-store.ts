import type { Redis } from 'ioredis';
import { acceptSequence, REPLAY_WINDOW, type WindowState } from '../tunnels/channel.js';

/**
 * Volatile storage for tunnel secrets (issue 14): handshake ephemeral keys (10 minutes) and tunnel keys (the tunnel's
 * TTL), never the durable database. Embedded mode: this process's memory. Scale-out: Redis with a TTL on every key,
 * read on every use and never cached by a replica, so deleting a key (crypto-shredding) holds on every replica at once.
 * Also the per-tunnel send counter and receive window, which replicas must share for replay protection.
 */
export interface VolatileStore {
  put(key: string, value: string, ttlMs: number): Promise<void>;
  get(key: string): Promise<string | undefined>;
  /** Reads and deletes in one step: at most one caller gets the value. */
  take(key: string): Promise<string | undefined>;
  del(keys: string[]): Promise<void>;
  /** 1, 2, 3, … per key; the key lives `ttlMs`. */
  next(key: string, ttlMs: number): Promise<number>;
  /** Records a received sequence number; false when it is a replay or older than the window. */
  accept(key: string, seq: number, ttlMs: number): Promise<boolean>;
}

interface Entry {
  value: string;
  expiresAt: number;
}

/** `now` is injectable so tests can move past the 10-minute handshake retention without waiting. */
export function memoryVolatileStore(now: () => number = Date.now): VolatileStore {
  const entries = new Map<string, Entry>();
  const live = (key: string) => {
    const e = entries.get(key);
    if (e && e.expiresAt <= now()) entries.delete(key);
    return entries.get(key);
  };
  // Expired entries must not linger in memory either: a sweep on every write bounds their lifetime.
  const sweep = () => {
    const t = now();
    for (const [k, e] of entries) if (e.expiresAt <= t) entries.delete(k);
  };
  return {
    async put(key, value, ttlMs) {
      sweep();
      entries.set(key, { value, expiresAt: now() + ttlMs });
    },
    async get(key) {
      return live(key)?.value;
    },
    async take(key) {
      const value = live(key)?.value;
      entries.delete(key);
      return value;
    },
    async del(keys) {
      for (const k of keys) entries.delete(k);
    },
    async next(key, ttlMs) {
      const n = Number(live(key)?.value ?? 0) + 1;
      entries.set(key, { value: String(n), expiresAt: now() + ttlMs });
      return n;
    },
    async accept(key, seq, ttlMs) {
      const raw = live(key)?.value;
      const state: WindowState = raw ? (JSON.parse(raw) as WindowState) : { highest: 0, seen: [] };
      const next = acceptSequence(state, seq);
      if (!next) return false;
      entries.set(key, { value: JSON.stringify(next), expiresAt: now() + ttlMs });
      return true;
    },
  };
}

// The same window as acceptSequence, atomically in Redis: a sorted set of the sequence numbers seen in the window.
const ACCEPT = `
local seq = tonumber(ARGV[1])
local w = tonumber(ARGV[2])
local top = redis.call('ZREVRANGE', KEYS[1], 0, 0, 'WITHSCORES')
local hi = 0
if top[2] then hi = tonumber(top[2]) end
if seq <= hi - w then return 0 end
if redis.call('ZSCORE', KEYS[1], ARGV[1]) then return 0 end
redis.call('ZADD', KEYS[1], seq, ARGV[1])
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', math.max(hi, seq) - w)
redis.call('PEXPIRE', KEYS[1], ARGV[3])
return 1`;

const NEXT = `
local n = redis.call('INCR', KEYS[1])
redis.call('PEXPIRE', KEYS[1], ARGV[1])
return n`;

export function redisVolatileStore(redis: Redis, prefix: string): VolatileStore {
  const k = (key: string) => `${prefix}tunnels:${key}`;
  return {
    async put(key, value, ttlMs) {
      await redis.set(k(key), value, 'PX', Math.max(1, Math.ceil(ttlMs)));
    },
    async get(key) {
      return (await redis.get(k(key))) ?? undefined;
    },
    async take(key) {
      return (await redis.getdel(k(key))) ?? undefined;
    },
    async del(keys) {
      if (keys.length > 0) await redis.del(...keys.map(k));
    },
    async next(key, ttlMs) {
      return Number(await redis.eval(NEXT, 1, k(key), Math.max(1, Math.ceil(ttlMs))));
    },
    async accept(key, seq, ttlMs) {
      return Number(await redis.eval(ACCEPT, 1, k(key), seq, REPLAY_WINDOW, Math.max(1, Math.ceil(ttlMs)))) === 1;
    },
  };
}
