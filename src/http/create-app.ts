import { randomUUID } from 'node:crypto';
import Fastify, { LogController, type FastifyBaseLogger, type FastifyInstance } from 'fastify';
import type { Logger } from 'pino';
import { BastionError } from '../errors.js';
import { clientErrorHandler, frameworkErrors } from './client-errors.js';
import { errorHandler } from './error-handler.js';
import { registerAccessLog } from './logging.js';
import { validatorCompiler } from './validator.js';

export interface HttpAppOptions {
  logger: Logger;
  bodyLimit: number;
  trustProxy: boolean | number | string[];
}

/** No route takes more than a few short query parameters. */
export const MAX_URL_CHARS = 8192;

/** What both listeners share: ids, limits, validation, errors, the access log and the overhead header. */
export function createHttpApp(options: HttpAppOptions): FastifyInstance {
  const app: FastifyInstance = Fastify({
    loggerInstance: options.logger as FastifyBaseLogger,
    // Fastify's own request lines are off: our access log (logging.ts) writes metadata only.
    logController: new LogController({ disableRequestLogging: true }),
    bodyLimit: options.bodyLimit,
    // A hop count is valid at run time (Fastify docs: "Integer: trust the nth hop"); the types omit it.
    trustProxy: options.trustProxy as boolean | string[],
    // randomUUID draws from a cached entropy pool: unguessable ids without a syscall per request.
    genReqId: () => 'req_' + randomUUID().replace(/-/g, '').slice(0, 24),
    requestIdHeader: false,
    return503OnClosing: true,
    forceCloseConnections: 'idle',
    routerOptions: { ignoreTrailingSlash: true },
    // Parser and router errors take the catalogue shape too (client-errors.ts).
    clientErrorHandler,
    frameworkErrors,
  });
  app.setValidatorCompiler(validatorCompiler);
  app.setErrorHandler(errorHandler);
  app.setNotFoundHandler((request, reply) => {
    errorHandler(new BastionError('NOT_FOUND') as never, request, reply);
  });
  registerAccessLog(app);

  // The parser bounds the request line with the headers (431); a target that fits there but is still absurd is a 414.
  app.addHook('onRequest', async (request) => {
    if ((request.raw.url?.length ?? 0) > MAX_URL_CHARS) throw new BastionError('URI_TOO_LONG');
  });

  app.addHook('onSend', async (request, reply, payload) => {
    reply.header('x-request-id', request.id);
    // Bastion's own overhead so far (upstream time is subtracted by the proxy routes that call one).
    const overhead = reply.elapsedTime - (request.upstreamMs ?? 0);
    reply.header('x-bastion-overhead-ms', overhead.toFixed(3));
    reply.header('server-timing', `bastion;dur=${overhead.toFixed(3)}`);
    return payload;
  });
  return app;
}

declare module 'fastify' {
  interface FastifyRequest {
    upstreamMs?: number;
  }
}
