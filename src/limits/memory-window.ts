import { LRUCache } from 'lru-cache';
import type { RateWindow, WindowResult } from './window.js';

/**
 * In-process sliding-window log. Timestamps of admitted requests are kept per key; a bounded LRU
 * caps memory when many distinct keys appear (e.g. /demo/filter client IPs).
 */
export function memoryWindow(maxKeys = 100_000, now: () => number = Date.now): RateWindow {
  const logs = new LRUCache<string, number[]>({ max: maxKeys });
  return {
    async consume(key, limit, windowMs): Promise<WindowResult> {
      const t = now();
      let log = logs.get(key);
      if (!log) {
        log = [];
        logs.set(key, log);
      }
      let expired = 0;
      while (expired < log.length && log[expired] <= t - windowMs) expired++;
      if (expired > 0) log.splice(0, expired);
      const allowed = log.length < limit;
      if (allowed) log.push(t);
      const resetMs = log.length > 0 ? log[0] + windowMs - t : windowMs;
      return { allowed, limit, remaining: Math.max(0, limit - log.length), resetMs, windowMs };
    },
  };
}
