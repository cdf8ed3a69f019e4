import { createRequire } from 'node:module';
import type { Redis } from 'ioredis';

// Loaded when a Redis URL is configured, not at start: the embedded default never needs the client (~15 MB resident).
const load = createRequire(import.meta.url);

/**
 * Redis connection shared by the limiter, quota counters, key revocation and ERS.
 * Commands fail fast while disconnected (no offline queue) so a dead Redis turns into a clear 503,
 * never into requests hanging or silently bypassing a limit.
 */
export function createRedis(url: string): Redis {
  const { Redis: RedisClient } = load('ioredis') as typeof import('ioredis');
  const client = new RedisClient(url, {
    lazyConnect: true,
    enableOfflineQueue: false,
    maxRetriesPerRequest: 1,
    commandTimeout: 1000,
    connectTimeout: 2000,
    retryStrategy: (times) => Math.min(100 * 2 ** Math.min(times, 5), 2000),
  });
  // Errors surface on the commands that fail; the 'error' event must not crash the process.
  client.on('error', () => {});
  return client;
}

/** Connects, tolerating a Redis that is down at boot: /readyz reports it and limited routes answer 503. */
export async function connectRedis(client: Redis): Promise<boolean> {
  try {
    await client.connect();
    return true;
  } catch {
    return false;
  }
}

export async function closeRedis(client: Redis): Promise<void> {
  try {
    await client.quit();
  } catch {
    client.disconnect();
  }
}
