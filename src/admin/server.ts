import cookie from '@fastify/cookie';
import type { FastifyInstance } from 'fastify';
import { createHttpApp } from '../http/create-app.js';
import { registerOpenApi } from '../http/openapi.js';
import { probeRoutes } from '../http/probes.js';
import type { Services } from '../services.js';
import { operatorBillingRoutes } from './billing/operator.js';
import { paymentRoutes } from './payments/routes.js';
import { mcpServerRoutes } from './mcp-servers/routes.js';
import { flowRoutes } from './flows/routes.js';
import { agentRoutes } from './agents/routes.js';
import { applyRouteEntitlements } from './entitlements.js';
import { financialRoutes } from './financial/routes.js';
import { neutralizerRoutes } from './neutralizer/routes.js';
import { decoratePortalAuth } from './portal/context.js';
import { tenantPolicyRoutes } from './policy/routes.js';
import { portalRoutes } from './portal/index.js';
import { publishAdminRateLimitPolicy } from './rate-limit-policy.js';
import { ruleRoutes } from './rules/routes.js';
import { tenantRuleRoutes } from './rules/tenant-routes.js';
import { sessionRoutes } from './session/index.js';
import { tenantImpactRoutes } from './tenant/impact.js';
import { metricsRoute } from './metrics/route.js';
import { siteRoutes } from './site/routes.js';
import { consoleRoutes } from './console/index.js';
import { registerCsrf } from './console/csrf.js';
import { registerRequestMetrics } from '../telemetry/observe.js';
import { registerTracing } from '../telemetry/tracing.js';
import { syndicateRoutes } from './syndicates/routes.js';
import { tunnelPeerRoutes } from './tunnels/peer.js';
import { tunnelRoutes } from './tunnels/routes.js';

/**
 * The admin listener (BASTION_ADMIN_PORT): portal, agents, financial, tunnels and operator routes.
 * Kept on its own port so a sidecar can expose the data plane to the app and the admin API to operators only.
 */
export async function buildAdminServer(services: Services): Promise<FastifyInstance> {
  const app = createHttpApp({ logger: services.logger, bodyLimit: services.config.bodyLimitBytes, trustProxy: services.config.trustProxy });
  app.decorate('services', services);
  decoratePortalAuth(app, services);
  registerRequestMetrics(app, 'admin');
  await registerTracing(app, 'admin');
  app.addHook('onSend', publishAdminRateLimitPolicy);
  await registerOpenApi(app, 'Bastion admin API');
  await app.register(cookie);
  // After the cookie parser, before any route: CSRF tokens for the web console and its cookie-authenticated posts.
  await registerCsrf(app);
  // Before any route: config/plans.json route_entitlements guard every matching route registered below.
  applyRouteEntitlements(app);
  await app.register(probeRoutes);
  await app.register(portalRoutes, { prefix: '/portal' });
  await app.register(sessionRoutes, { prefix: '/auth' });
  await app.register(operatorBillingRoutes, { prefix: '/admin/billing' });
  await app.register(ruleRoutes, { prefix: '/admin/rules' });
  await app.register(tenantRuleRoutes, { prefix: '/rules' });
  await app.register(tenantPolicyRoutes, { prefix: '/admin/tenants' });
  await app.register(financialRoutes, { prefix: '/financial' });
  await app.register(tenantImpactRoutes, { prefix: '/tenant' });
  await app.register(neutralizerRoutes, { prefix: '/threat/neutralizer' });
  await app.register(agentRoutes, { prefix: '/agents' });
  await app.register(paymentRoutes, { prefix: '/mcp' });
  await app.register(mcpServerRoutes, { prefix: '/mcp/servers' });
  await app.register(flowRoutes, { prefix: '/flows' });
  await app.register(syndicateRoutes, { prefix: '/syndicates' });
  await app.register(tunnelRoutes, { prefix: '/tunnels' });
  await app.register(tunnelPeerRoutes, { prefix: '/tunnels' });
  await app.register(metricsRoute);
  await app.register(siteRoutes);
  await app.register(consoleRoutes, { prefix: '/console' });
  return app;
}
