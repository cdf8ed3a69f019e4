import type { FastifyInstance } from 'fastify';
import { createHttpApp } from '../http/create-app.js';
import { registerOpenApi } from '../http/openapi.js';
import { probeRoutes } from '../http/probes.js';
import type { Services } from '../services.js';

/**
 * The admin listener (BASTION_ADMIN_PORT): portal, agents, financial, tunnels and operator routes.
 * Kept on its own port so a sidecar can expose the data plane to the app and the admin API to operators only.
 */
export async function buildAdminServer(services: Services): Promise<FastifyInstance> {
  const app = createHttpApp({ logger: services.logger, bodyLimit: services.config.bodyLimitBytes, trustProxy: services.config.trustProxy });
  app.decorate('services', services);
  await registerOpenApi(app, 'Bastion admin API');
  await app.register(probeRoutes);
  return app;
}
