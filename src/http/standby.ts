import type { FastifyInstance } from 'fastify';
import type { Logger } from 'pino';
import { BastionError } from '../errors.js';
import { createHttpApp } from './create-app.js';

export interface Standby {
  ports: { proxy: number; admin: number };
  close(): Promise<void>;
}

const RETRY_AFTER_S = '5';

/**
 * What both ports serve while the database is unreachable at start: /livez 200 (the process is fine, do not restart
 * it), /readyz 503, and every other request 503 STORAGE_UNAVAILABLE with Retry-After in the catalogue shape. Nothing
 * is served unchecked: no route exists here. runtime.ts replaces these listeners with the real ones, on the same
 * ports, once migrations have run.
 */
export async function startStandby(options: { host: string; adminHost: string; ports: { proxy: number; admin: number }; logger: Logger; bodyLimit: number }): Promise<Standby> {
  const build = (): FastifyInstance => {
    const app = createHttpApp({ logger: options.logger, bodyLimit: options.bodyLimit, trustProxy: false });
    const config = { auth: 'public' as const, limit: 'none' as const };
    app.get('/livez', { config }, async () => ({ status: 'ok' }));
    app.get('/readyz', { config }, async (_request, reply) => reply.code(503).send({ status: 'unavailable', checks: { storage: 'unreachable' } }));
    app.all('/*', { config }, async () => {
      throw new BastionError('STORAGE_UNAVAILABLE', { headers: { 'retry-after': RETRY_AFTER_S } });
    });
    return app;
  };
  const proxy = build();
  const admin = build();
  await proxy.listen({ host: options.host, port: options.ports.proxy });
  await admin.listen({ host: options.adminHost, port: options.ports.admin });
  const port = (app: FastifyInstance) => (app.server.address() as { port: number }).port;
  return {
    ports: { proxy: port(proxy), admin: port(admin) },
    async close() {
      await Promise.all([proxy, admin].map((app) => app.close()));
    },
  };
}
