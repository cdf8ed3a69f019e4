import { Redis } from 'ioredis';

/**
 * Redis connection shared by the limiter, quota counters, key revocation and ERS.
 * Commands fail fast while disconnected (no offline queue) so a dead Redis turns into a clear 503,
 * never into requests hanging or silently bypassing a limit.
 */
export function createRedis(url: string): Redis {
  const client = new Redis(url, {
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
