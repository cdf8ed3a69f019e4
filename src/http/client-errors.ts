import { STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { BastionError, type ErrorName } from '../errors.js';
import { rateLimitHeaders } from '../limits/headers.js';
import { errorHandler } from './error-handler.js';

/**
 * SPEC §8 asks for RateLimit-Policy on every response. These answers come before any route or credential, so they
 * publish what an anonymous client has: the process default minute rate (policy only, no counters).
 */
function anonymousPolicy(app: FastifyInstance | undefined): Record<string, string> {
  const quota = app?.services?.config.defaultRatePerMinute;
  return quota ? rateLimitHeaders([{ name: 'requests-per-minute', quota, windowSeconds: 60 }]) : {};
}

/**
 * Errors Node's HTTP parser raises before Fastify has a request (malformed request line, bytes after a body the
 * parser cannot frame, oversized headers, header timeout). The socket cannot be reused after one of these, so the
 * answer says `Connection: close`: a keep-alive client then opens a new connection instead of writing its next request
 * into a socket that is about to close (ECONNRESET). The body is the catalogue shape; nothing from the request is
 * echoed or logged.
 */
export function clientErrorHandler(this: FastifyInstance, err: NodeJS.ErrnoException, socket: Socket): void {
  if (err.code === 'ECONNRESET' || socket.destroyed) return;
  const name: ErrorName =
    err.code === 'ERR_HTTP_REQUEST_TIMEOUT' ? 'REQUEST_TIMEOUT' : err.code === 'HPE_HEADER_OVERFLOW' ? 'HEADERS_TOO_LARGE' : 'BAD_REQUEST';
  const error = new BastionError(name);
  this.log.info({ errorCode: error.code, status: error.statusCode, parserCode: err.code }, 'client error');
  if (!socket.writable) {
    socket.destroy();
    return;
  }
  const body = JSON.stringify(error.toBody());
  const policy = Object.entries(anonymousPolicy(this)).map(([name, value]) => `${name}: ${value}\r\n`).join('');
  const head =
    `HTTP/1.1 ${error.statusCode} ${STATUS_CODES[error.statusCode]}\r\n` +
    'Content-Type: application/json; charset=utf-8\r\n' +
    policy +
    `Content-Length: ${Buffer.byteLength(body)}\r\n` +
    'Connection: close\r\n\r\n';
  // end() flushes the answer before closing; destroy() right away could drop it and look like a reset.
  socket.end(head + body, () => socket.destroy());
}

/**
 * Errors Fastify's router raises before routing (a path that is not valid percent-encoding, a path parameter over
 * maxParamLength → 414): answered by the shared error handler, so they take the catalogue shape too.
 */
export function frameworkErrors(error: FastifyError, request: FastifyRequest, reply: FastifyReply): void {
  // No route, so no onSend hooks: the shared headers are set here.
  reply.header('x-request-id', request.id);
  reply.headers(anonymousPolicy(request.server));
  errorHandler(error, request, reply);
}
