import { LRUCache } from 'lru-cache';
import type { RateWindow, WindowResult } from './window.js';
import { MEMORY_BUDGETS, byteBounded } from '../memory/budgets.js';

/**
 * In-process sliding-window log. Timestamps of admitted requests are kept per key (at most `limit` of them); an LRU
 * bounded by bytes caps memory when many distinct keys appear (e.g. /demo/filter client IPs) or keys are busy. A log
 * is re-measured whenever its length changes (set again), so a growing log counts against the budget.
 */
export function memoryWindow(maxBytes: number = MEMORY_BUDGETS.rateWindows, now: () => number = Date.now): RateWindow {
  // The log lives in a holder replaced whenever the log changes: lru-cache re-measures an entry only on a new value.
  const logs = new LRUCache<string, { log: number[] }>(byteBounded<string, { log: number[] }>(maxBytes, (h, key) => 56 + 8 * h.log.length + 2 * key.length));
  const consumeNow = (key: string, limit: number, windowMs: number): WindowResult => {
      const t = now();
      const log = logs.get(key)?.log ?? [];
      let expired = 0;
      while (expired < log.length && log[expired] <= t - windowMs) expired++;
      if (expired > 0) log.splice(0, expired);
      const allowed = log.length < limit;
      if (allowed) log.push(t);
      if (allowed || expired > 0 || !logs.has(key)) logs.set(key, { log });
      const resetMs = log.length > 0 ? log[0] + windowMs - t : windowMs;
      return { allowed, limit, remaining: Math.max(0, limit - log.length), resetMs, windowMs };
  };
  return {
    consumeNow,
    async consume(key, limit, windowMs): Promise<WindowResult> {
      return consumeNow(key, limit, windowMs);
    },
  };
}
