import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { BastionError, RequestValidationError, errorCode, type ErrorName } from '../errors.js';
import { isStorageUnreachable } from '../storage/unreachable.js';
import { MAX_ERROR_BODY_BYTES, boundedValidationBody, toValidationIssues } from './validation.js';
import { fromCatalogue, fromValidation, isOpenAiPath } from './openai-errors.js';
import { anthropicFromCatalogue, anthropicFromValidation, isAnthropicPath } from './anthropic-errors.js';

// Fastify's own client errors, mapped onto the catalogue. Their messages may quote the body, so none is echoed.
const FASTIFY_CODES: Record<string, ErrorName> = {
  FST_ERR_CTP_BODY_TOO_LARGE: 'PAYLOAD_TOO_LARGE',
  FST_ERR_CTP_INVALID_MEDIA_TYPE: 'UNSUPPORTED_MEDIA_TYPE',
  // The body ended before its Content-Length (a client that gave up): malformed, not too large.
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: 'BAD_REQUEST',
  FST_ERR_BAD_URL: 'BAD_REQUEST',
  FST_ERR_MAX_PARAM_LENGTH: 'URI_TOO_LONG',
  // @fastify/csrf-protection (web console, issue 16): no secret cookie, or a token that does not match it.
  FST_CSRF_MISSING_SECRET: 'CSRF_INVALID',
  FST_CSRF_INVALID_TOKEN: 'CSRF_INVALID',
};

// Any other client error Fastify raises, by status; what is not listed becomes a plain 400.
const STATUS_CODES_4XX: Record<number, ErrorName> = {
  404: 'NOT_FOUND',
  405: 'METHOD_NOT_ALLOWED',
  408: 'REQUEST_TIMEOUT',
  413: 'PAYLOAD_TOO_LARGE',
  414: 'URI_TOO_LONG',
  415: 'UNSUPPORTED_MEDIA_TYPE',
  431: 'HEADERS_TOO_LARGE',
};

function sendCatalogue(reply: FastifyReply, err: BastionError): FastifyReply {
  for (const [name, value] of Object.entries(err.headers)) reply.header(name, value);
  const body = err.toBody();
  // Every error answer stays within MAX_ERROR_BODY_BYTES: extras that would not fit are dropped, never the code.
  const fits = Buffer.byteLength(JSON.stringify(body)) <= MAX_ERROR_BODY_BYTES;
  const bounded = fits ? body : { error: { code: err.code, message: err.message.slice(0, 512) } };
  // /v1/messages speaks Anthropic's error envelope (anthropic-errors.ts), the rest of /v1/* OpenAI's (openai-errors.ts).
  const url = reply.request.url;
  if (isAnthropicPath(url)) return reply.code(err.statusCode).send(anthropicFromCatalogue(err.statusCode, bounded, reply.request.id));
  return reply.code(err.statusCode).send(isOpenAiPath(url) ? fromCatalogue(err.statusCode, bounded) : bounded);
}

function sendValidation(reply: FastifyReply, issues: Parameters<typeof boundedValidationBody>[0]): FastifyReply {
  const body = boundedValidationBody(issues);
  // Anthropic answers a malformed request 400 invalid_request_error (its SDK raises BadRequestError): so do its routes here.
  if (isAnthropicPath(reply.request.url)) return reply.code(400).send(anthropicFromValidation(body.detail, reply.request.id));
  return reply.code(422).send(isOpenAiPath(reply.request.url) ? fromValidation(body.detail) : body);
}

/**
 * The single error handler of both listeners. Logs metadata (code, status, error class) only:
 * never the message of a client error, which can contain request content.
 */
export function errorHandler(error: FastifyError, request: FastifyRequest, reply: FastifyReply): FastifyReply {
  if (error instanceof BastionError || (error as { name?: string }).name === 'BastionError') {
    request.errorCode = error.code;
    // An upstream that failed: the log line names it (origin) and why, as the answer does.
    const { upstream, cause } = (error as unknown as BastionError).extra ?? {};
    if (typeof upstream === 'string' || (typeof cause === 'string' && error.code.startsWith('BASTION_ERR_UPSTREAM'))) {
      request.log.warn({ code: error.code, upstream, cause }, 'upstream call failed');
    }
    return sendCatalogue(reply, error as unknown as BastionError);
  }
  if (error instanceof RequestValidationError) {
    request.errorCode = errorCode('VALIDATION');
    return sendValidation(reply, error.issues);
  }
  if (error.validation) {
    request.errorCode = errorCode('VALIDATION');
    return sendValidation(reply, toValidationIssues(error.validation, error.validationContext ?? 'body'));
  }
  // Malformed JSON or an empty JSON body: a 422 on the body as a whole.
  if (error.code === 'FST_ERR_CTP_EMPTY_JSON_BODY' || error.code === 'FST_ERR_CTP_INVALID_JSON_BODY' || error instanceof SyntaxError) {
    request.errorCode = errorCode('VALIDATION');
    const type = error.code === 'FST_ERR_CTP_EMPTY_JSON_BODY' ? 'missing' : 'json_invalid';
    return sendValidation(reply, [{ loc: ['body'], msg: type === 'missing' ? 'Field required' : 'Invalid JSON', type }]);
  }
  const mapped = error.code ? FASTIFY_CODES[error.code] : undefined;
  if (mapped) {
    request.errorCode = errorCode(mapped);
    return sendCatalogue(reply, new BastionError(mapped));
  }
  if (error.statusCode && error.statusCode >= 400 && error.statusCode < 500) {
    const name = STATUS_CODES_4XX[error.statusCode] ?? 'BAD_REQUEST';
    request.errorCode = errorCode(name);
    return sendCatalogue(reply, new BastionError(name));
  }
  // The database went away mid-request (any route, any query): fail closed with a retryable 503, not a 500.
  if (isStorageUnreachable(error)) {
    request.errorCode = errorCode('STORAGE_UNAVAILABLE');
    request.log.warn({ dependency: 'storage', errorClass: error.name, code: error.code }, 'storage unreachable');
    return sendCatalogue(reply, new BastionError('STORAGE_UNAVAILABLE', { headers: { 'retry-after': '5' } }));
  }
  request.errorCode = errorCode('INTERNAL');
  request.log.error({ errorClass: error.name, code: error.code, stack: stackFrames(error) }, 'unhandled error');
  return sendCatalogue(reply, new BastionError('INTERNAL'));
}

/** Stack frames without the first line, which carries the message (and so possibly content). */
function stackFrames(error: Error): string | undefined {
  return error.stack?.split('\n').slice(1, 8).join('\n');
}

declare module 'fastify' {
  interface FastifyRequest {
    errorCode?: string;
  }
}
