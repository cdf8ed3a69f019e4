import { randomUUID } from 'node:crypto';
import { lazySerializers } from './lazy-serializer.js';
import Fastify, { LogController, type FastifyBaseLogger, type FastifyInstance, type FastifyRequest } from 'fastify';
import type { Logger } from 'pino';
import { BastionError } from '../errors.js';
import { clientErrorHandler, frameworkErrors } from './client-errors.js';
import { errorHandler } from './error-handler.js';
import { boundJsonDepth } from './json-depth.js';
import { isOpenAiPath, unknownV1Route } from './openai-errors.js';
import { registerAccessLog } from './logging.js';
import { validatorCompiler } from './validator.js';
import { REQUEST_GONE } from '../workers/dispatch.js';

export interface HttpAppOptions {
  logger: Logger;
  bodyLimit: number;
  trustProxy: boolean | number | string[];
}

/** `req_` + 24 hex digits of a random UUID (its version digit skipped), cut without a regular expression. */
function requestId(): string {
  const u = randomUUID();
  return 'req_' + u.slice(0, 8) + u.slice(9, 13) + u.slice(15, 18) + u.slice(19, 23) + u.slice(24, 29);
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
    genReqId: requestId,
    requestIdHeader: false,
    // Draining is answered by our own hook below (catalogue body, Retry-After, Connection: close), not Fastify's.
    return503OnClosing: false,
    forceCloseConnections: 'idle',
    routerOptions: { ignoreTrailingSlash: true },
    // Parser and router errors take the catalogue shape too (client-errors.ts).
    clientErrorHandler,
    frameworkErrors,
  });
  app.setValidatorCompiler(validatorCompiler);
  lazySerializers(app);
  boundJsonDepth(app);
  app.setErrorHandler(errorHandler);
  app.setNotFoundHandler((request, reply) => {
    // Under /v1/ an app's SDK reads the 404 (OpenAI's envelope and wording); elsewhere the catalogue's.
    errorHandler(new BastionError('NOT_FOUND', isOpenAiPath(request.url) ? { message: unknownV1Route(request) } : {}) as never, request, reply);
  });
  registerAccessLog(app);
  registerLifecycle(app);


  app.addHook('onSend', (request, reply, payload, done) => {
    reply.header('x-request-id', request.id);
    // Bastion's own overhead so far (upstream time is subtracted by the proxy routes that call one).
    const overhead = (reply.elapsedTime - (request.upstreamMs ?? 0)).toFixed(3);
    reply.header('x-bastion-overhead-ms', overhead);
    reply.header('server-timing', `bastion;dur=${overhead}`);
    done(null, payload);
  });
  return app;
}

/** Seconds a client is told to wait before retrying elsewhere while this replica drains. */
export const DRAIN_RETRY_AFTER_S = 5;
const PROBES = new Set(['/livez', '/readyz']);

/** Shutdown state shared by every plugin context of one listener (src/runtime.ts drives it). */
export interface Lifecycle {
  /** SIGTERM received: /readyz answers 503 and new requests 503 SHUTTING_DOWN. */
  draining: boolean;
  /** Requests being answered (probes and drain refusals included until their reply closes). */
  inFlight: number;
  /** Called whenever inFlight drops to 0 while draining. */
  onIdle?: () => void;
  /** Aborted when the drain begins: a stream that carries no answer in progress (an MCP event stream) ends at once. */
  readonly idleStreams: AbortController;
  /** Aborted when the grace period ends: open streams send their final event and end. */
  readonly streams: AbortController;
  /** Run once per request when its reply closes (sent, or the client went away): one listener serves them all. */
  readonly closed: ((request: FastifyRequest) => void)[];
}

/**
 * The closing hook (first onRequest hook, before authentication): while draining, the listener keeps accepting so
 * clients get a catalogue 503 they can retry elsewhere instead of "connection refused"; every such connection closes.
 */
function registerLifecycle(app: FastifyInstance): void {
  const lifecycle: Lifecycle = { draining: false, inFlight: 0, idleStreams: new AbortController(), streams: new AbortController(), closed: [] };
  app.decorate('lifecycle', lifecycle);
  // Callback-style: an async hook costs a promise and a microtask turn per request.
  app.addHook('onRequest', (request, reply, done) => {
    if (lifecycle.draining && !PROBES.has(request.routeOptions.url ?? '')) {
      reply.header('connection', 'close');
      done(new BastionError('SHUTTING_DOWN', { headers: { 'retry-after': String(DRAIN_RETRY_AFTER_S) } }));
      return;
    }
    lifecycle.inFlight++;
    // 'close' fires once the answer is sent or the client went away: either way nobody waits for this request any more.
    reply.raw.once('close', () => {
      lifecycle.inFlight--;
      request.goneController?.abort(REQUEST_GONE);
      request.gone = true;
      for (const closed of lifecycle.closed) closed(request);
      if (lifecycle.draining && lifecycle.inFlight === 0) lifecycle.onIdle?.();
    });
    // The parser bounds the request line with the headers (431); a target that fits there but is still absurd is a 414.
    done((request.raw.url?.length ?? 0) > MAX_URL_CHARS ? new BastionError('URI_TOO_LONG') : undefined);
  });
}

declare module 'fastify' {
  interface FastifyRequest {
    upstreamMs?: number;
    goneController?: AbortController;
    gone?: boolean;
  }
  interface FastifyInstance {
    lifecycle: Lifecycle;
  }
}
