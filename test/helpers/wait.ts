import { createServer } from 'node:net';

/**
 * Polls until `check` returns a value (not undefined/false) and returns it; fails after `tries` polls (about a minute:
 * analyses run in their own thread and services recover with backoff, both slow on a loaded machine). A check that
 * throws (a connection refused while a listener restarts) counts as not yet. Never asserts on time.
 */
export async function eventually<T>(check: () => Promise<T | undefined | false>, tries = 1200, gapMs = 50): Promise<T> {
  for (let i = 0; i < tries; i++) {
    const value = await check().catch(() => undefined);
    if (value !== undefined && value !== false) return value;
    await new Promise((r) => setTimeout(r, gapMs));
  }
  throw new Error('condition not reached');
}

/** A loopback port nobody listens on right now (for a private redis-server and the like). */
export async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const port = (s.address() as { port: number }).port;
      s.close(() => resolve(port));
    });
  });
}
