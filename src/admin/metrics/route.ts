import type { FastifyInstance, FastifyRequest } from 'fastify';
import { secretsEqual } from '../../auth/key-material.js';
import { BastionError } from '../../errors.js';
import { metricsOf } from '../../telemetry/metrics.js';

/**
 * GET /metrics (admin listener): the Prometheus text exposition of src/telemetry/metrics.ts. Public unless
 * BASTION_METRICS_TOKEN is set, then `Authorization: Bearer <token>` (constant-time compare). 404 when disabled.
 */
export async function metricsRoute(app: FastifyInstance): Promise<void> {
  if (!app.services.config.metricsEnabled) return;
  app.get(
    '/metrics',
    {
      config: { auth: 'public', limit: 'none' },
      schema: {
        summary: 'Prometheus metrics',
        description:
          'Prometheus text format (version 0.0.4): request counts by route pattern, latency, verdicts, layer timings, pool, ' +
          'limits, upstream errors, evolved rules and dependency health (docs/OPERATIONS.md lists every series). ' +
          'When BASTION_METRICS_TOKEN is set, send `Authorization: Bearer <token>`; 401 otherwise.',
        tags: ['operations'],
        produces: ['text/plain'],
        response: { 200: { description: 'Prometheus text exposition', content: { 'text/plain': { schema: { type: 'string' } } } } },
      },
    },
    async (request, reply) => {
      requireMetricsToken(request);
      const { registry } = metricsOf(app.services);
      const body = await registry.metrics();
      return reply.type(registry.contentType).header('cache-control', 'no-store').send(body);
    },
  );
}

function requireMetricsToken(request: FastifyRequest): void {
  const expected = request.server.services.config.metricsToken;
  if (!expected) return;
  const header = request.headers.authorization;
  const presented = typeof header === 'string' && header.startsWith('Bearer ') ? header.slice(7) : undefined;
  if (presented === undefined || !secretsEqual(presented, expected)) {
    throw new BastionError('METRICS_UNAUTHENTICATED', { headers: { 'www-authenticate': 'Bearer realm="bastion-metrics"' } });
  }
}
