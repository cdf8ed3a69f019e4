import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import { readiness } from '../../http/probes.js';

const HealthResponse = Type.Object({
  status: Type.Union([Type.Literal('ok'), Type.Literal('degraded')]),
  version: Type.String(),
  tenant_id: Type.String(),
  checks: Type.Record(Type.String(), Type.String()),
});

/** GET /health: authenticated, consumes no window (SPEC §8 rule 1), reports dependencies. */
export async function healthRoute(app: FastifyInstance): Promise<void> {
  app.get(
    '/health',
    {
      config: { limit: 'none', security: 'apiKey' },
      schema: { summary: 'Gateway health for the calling key', response: { 200: HealthResponse } },
    },
    async (request) => {
      const checks = await readiness(app);
      const ok = Object.values(checks).every((c) => c === 'ok');
      return { status: ok ? 'ok' : 'degraded', version: '7.9.0', tenant_id: request.principal!.tenantId, checks };
    },
  );
}
