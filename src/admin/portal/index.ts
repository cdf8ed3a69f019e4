import type { FastifyInstance } from 'fastify';
import { portalAuthRoutes } from './auth.js';
import { requireBearer } from './bearer.js';
import { portalBillingRoutes } from './billing.js';
import { portalKeyRoutes } from './keys.js';
import { portalLogoutAllRoutes } from './logout-all.js';
import { portalMeRoutes } from './me.js';
import { portalPasswordRoutes } from './password.js';
import { portalJudgeStatsRoutes } from './judge-stats.js';
import { portalStatsRoutes } from './stats.js';
import { portalTotpRoutes } from './totp.js';
import { portalWaitlistRoutes } from './waitlist.js';

/**
 * The customer portal (SPEC §4.4), registered under /portal. A route's `config.security` both documents it
 * (OpenAPI) and decides authentication here: only routes marked `public` skip the portal access token, so a route
 * that forgets to say is closed, not open.
 */
export async function portalRoutes(app: FastifyInstance): Promise<void> {
  app.addHook('onRequest', async (request, reply) => {
    if (request.is404 || request.routeOptions.config.security === 'public') return;
    await requireBearer(request, reply);
  });
  await app.register(portalAuthRoutes);
  await app.register(portalTotpRoutes);
  await app.register(portalPasswordRoutes);
  await app.register(portalMeRoutes);
  await app.register(portalKeyRoutes);
  await app.register(portalStatsRoutes);
  await app.register(portalJudgeStatsRoutes);
  await app.register(portalBillingRoutes);
  await app.register(portalWaitlistRoutes);
  await app.register(portalLogoutAllRoutes);
}
