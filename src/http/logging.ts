import type { FastifyInstance } from 'fastify';
import pino, { type DestinationStream, type Logger } from 'pino';

/**
 * pino with metadata only. Request objects are never passed to the logger: the one access-log line per
 * request is built field by field in `onResponse` (route pattern, not URL, so a query string never lands in a log).
 */
export function createLogger(level: string, stream?: DestinationStream): Logger {
  return pino({ level, base: { service: 'bastion' } }, stream ?? pino.destination({ fd: 1, sync: false }));
}

export function registerAccessLog(app: FastifyInstance): void {
  app.addHook('onResponse', (request, reply, done) => {
    request.log.info(
      {
        method: request.method,
        route: request.routeOptions.url ?? 'unmatched',
        status: reply.statusCode,
        reqBytes: Number(request.headers['content-length'] ?? 0),
        resBytes: Number(reply.getHeader('content-length') ?? 0),
        ms: Math.round(reply.elapsedTime * 1000) / 1000,
        tenant: request.tenantId,
        key: request.keyPrefix,
        code: request.errorCode,
        verdict: request.verdictSummary,
      },
      'request',
    );
    done();
  });
}

declare module 'fastify' {
  interface FastifyRequest {
    tenantId?: string;
    keyPrefix?: string;
    /** e.g. `block/HIGH` — metadata about the inspection outcome, never content. */
    verdictSummary?: string;
  }
}
