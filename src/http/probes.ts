import type { FastifyInstance } from 'fastify';

/**
 * Kubernetes probes, unauthenticated and unmetered on both listeners.
 * /livez: the process is serving. /readyz: storage, and Redis when configured, answer and the listener is not
 * draining — otherwise 503.
 */
export async function probeRoutes(app: FastifyInstance): Promise<void> {
  const config = { auth: 'public' as const, limit: 'none' as const };
  app.get('/livez', { config, schema: { hide: true } }, async () => ({ status: 'ok' }));
  app.get('/readyz', { config, schema: { hide: true } }, async (_request, reply) => {
    const checks = await readiness(app);
    // SIGTERM: readiness fails first, so the load balancer stops sending traffic while in-flight requests finish.
    if (app.lifecycle.draining) checks.shutdown = 'draining';
    const ready = Object.values(checks).every((c) => c === 'ok');
    return reply.code(ready ? 200 : 503).send({ status: ready ? 'ok' : 'unavailable', checks });
  });
}

export async function readiness(app: FastifyInstance): Promise<Record<string, string>> {
  const { storage, redis } = app.services;
  const checks: Record<string, string> = {};
  checks.storage = await storage.ping().then(() => 'ok', () => 'unreachable');
  if (redis) checks.redis = await redis.ping().then(() => 'ok', () => 'unreachable');
  return checks;
}
