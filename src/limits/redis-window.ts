import { randomBytes } from 'node:crypto';
import type { Redis } from 'ioredis';
import { BastionError } from '../errors.js';
import type { RateWindow, WindowResult } from './window.js';

// One atomic script per request: prune, count, admit, and report the instant the oldest entry leaves.
// The clock is Redis's own (TIME), so replicas with skewed clocks still share one window.
const SLIDING_WINDOW = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local limit = tonumber(ARGV[1])
local win = tonumber(ARGV[2])
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now - win)
local count = redis.call('ZCARD', KEYS[1])
local allowed = 0
if count < limit then
  redis.call('ZADD', KEYS[1], now, ARGV[3])
  redis.call('PEXPIRE', KEYS[1], win)
  count = count + 1
  allowed = 1
end
local oldest = redis.call('ZRANGE', KEYS[1], 0, 0, 'WITHSCORES')
local reset = win
if oldest[2] then reset = tonumber(oldest[2]) + win - now end
return {allowed, limit - count, reset}
`;

type SlidingWindowCommand = (key: string, limit: number, windowMs: number, member: string) => Promise<[number, number, number]>;

export function redisWindow(redis: Redis, prefix: string): RateWindow {
  // defineCommand sends EVALSHA and falls back to EVAL once, instead of shipping the script every time.
  redis.defineCommand('bastionSlidingWindow', { numberOfKeys: 1, lua: SLIDING_WINDOW });
  const run = (redis as unknown as { bastionSlidingWindow: SlidingWindowCommand }).bastionSlidingWindow.bind(redis);
  const instance = randomBytes(6).toString('hex');
  let seq = 0;
  return {
    async consume(key, limit, windowMs): Promise<WindowResult> {
      const member = `${instance}:${++seq}`;
      let reply: [number, number, number];
      try {
        reply = await run(`${prefix}rl:${key}`, limit, windowMs, member);
      } catch (cause) {
        throw new BastionError('LIMITER_UNAVAILABLE', { headers: { 'retry-after': '5' }, cause });
      }
      const [allowed, remaining, resetMs] = reply;
      return { allowed: allowed === 1, limit, remaining: Math.max(0, remaining), resetMs: Math.max(0, resetMs), windowMs };
    },
  };
}
