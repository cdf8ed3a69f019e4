import cors from '@fastify/cors';
import type { FastifyInstance } from 'fastify';
import { BastionError } from '../../errors.js';
import { sessionAuthRoutes } from './routes.js';

/**
 * /auth/* behind credential-aware CORS (SPEC §4.2, §5 rule 2). An Origin in BASTION_CORS_ORIGINS gets
 * `Access-Control-Allow-Origin: <origin>` with credentials; any other Origin is 403, preflight included, so a foreign
 * page can neither read /auth/me nor post a login. Requests without an Origin (same-origin GET, curl) pass.
 */
export async function sessionRoutes(app: FastifyInstance): Promise<void> {
  const allowed = new Set(app.services.config.corsOrigins);
  await app.register(cors, {
    origin: (origin, callback) => {
      if (origin === undefined) return callback(null, false);
      if (allowed.has(origin)) return callback(null, true);
      callback(new BastionError('ORIGIN_FORBIDDEN'), false);
    },
    credentials: true,
    methods: ['GET', 'POST'],
    allowedHeaders: ['content-type'],
    maxAge: 600,
  });
  await app.register(sessionAuthRoutes);
}
