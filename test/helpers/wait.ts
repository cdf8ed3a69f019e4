import { createServer } from 'node:net';

/** Polls `check` every 200 ms until it holds or `seconds` pass (then false): for recovery that takes a backoff or two. */
export async function eventually(check: () => Promise<boolean>, seconds = 20): Promise<boolean> {
  const until = Date.now() + seconds * 1000;
  while (Date.now() < until) {
    if (await check().catch(() => false)) return true;
    await new Promise((r) => setTimeout(r, 200));
  }
  return false;
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
