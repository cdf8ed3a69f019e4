import type { FastifyInstance } from 'fastify';
import { createHttpApp } from '../http/create-app.js';
import { registerOpenApi } from '../http/openapi.js';
import { probeRoutes } from '../http/probes.js';
import type { Services } from '../services.js';
import { admitApiKey } from '../http/hooks/admit.js';
import { writeRateLimitHeaders } from '../http/hooks/rate-limit.js';
import { chatRoute } from './routes/chat.js';
import { embeddingsRoute } from './routes/embeddings.js';
import { feedbackRoute } from './routes/feedback.js';
import { filterRoutes } from './routes/filter.js';
import { modelsRoute } from './routes/models.js';
import { healthRoute } from './routes/health.js';
import { responsesRoute } from './routes/responses.js';
import { messagesRoute } from './routes/messages.js';
import { completionsRoute } from './routes/completions.js';
import { passthroughRoutes } from './routes/passthrough.js';
import { tenantPolicies } from '../policy/tenant-policies.js';
import { registerRequestMetrics } from '../telemetry/observe.js';
import { registerExchangeStats } from '../screening/exchange.js';
import { registerTracing } from '../telemetry/tracing.js';
import { extRoutes } from './ext/routes.js';
import { mcpRoutes } from '../mcp/route.js';
import { mcpProxyRoutes } from '../mcp/proxy/route.js';
import { mcpWrapRoutes } from '../mcp/proxy/wrap-route.js';

/**
 * The data plane listener (BASTION_PORT): /filter, /v1/*, /health.
 * Lifecycle: onRequest authenticates and meters → validation → handler inspects and answers or forwards.
 */
export async function buildProxyServer(services: Services): Promise<FastifyInstance> {
  const app = createHttpApp({ logger: services.logger, bodyLimit: services.config.bodyLimitBytes, trustProxy: services.config.trustProxy });
  app.decorate('services', services);
  registerRequestMetrics(app, 'proxy');
  // Each guarded exchange counts once in the portal's statistics and bastion_screened_total, when its reply closes.
  registerExchangeStats(app);
  await registerTracing(app, 'proxy');
  // Subscribed to policy changes from the start, so a change published before the first request is not missed.
  tenantPolicies(services);
  await registerOpenApi(app, 'Bastion data plane');

  // The API key and its rate window (routes with their own admission — /mcp by key or payment proof, OIDC, public
  // probes — pass through to their handlers).
  app.addHook('onRequest', admitApiKey);
  app.addHook('onSend', writeRateLimitHeaders);

  await app.register(probeRoutes);
  await app.register(healthRoute);
  await app.register(filterRoutes);
  await app.register(feedbackRoute);
  await app.register(chatRoute);
  await app.register(modelsRoute);
  await app.register(embeddingsRoute);
  await app.register(responsesRoute);
  await app.register(messagesRoute);
  await app.register(completionsRoute);
  await app.register(passthroughRoutes);
  await app.register(extRoutes);
  await app.register(mcpRoutes);
  await app.register(mcpProxyRoutes);
  await app.register(mcpWrapRoutes);
  return app;
}
