import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { BastionError, RequestValidationError, errorCode, validationBody, type ErrorName } from '../errors.js';
import { toValidationIssues } from './validation.js';

// Fastify's own client errors, mapped onto the catalogue. Their messages may quote the body, so none is echoed.
const FASTIFY_CODES: Record<string, ErrorName> = {
  FST_ERR_CTP_BODY_TOO_LARGE: 'PAYLOAD_TOO_LARGE',
  FST_ERR_CTP_INVALID_MEDIA_TYPE: 'UNSUPPORTED_MEDIA_TYPE',
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: 'PAYLOAD_TOO_LARGE',
};

function sendCatalogue(reply: FastifyReply, err: BastionError): FastifyReply {
  for (const [name, value] of Object.entries(err.headers)) reply.header(name, value);
  return reply.code(err.statusCode).send(err.toBody());
}

/**
 * The single error handler of both listeners. Logs metadata (code, status, error class) only:
 * never the message of a client error, which can contain request content.
 */
export function errorHandler(error: FastifyError, request: FastifyRequest, reply: FastifyReply): FastifyReply {
  if (error instanceof BastionError || (error as { name?: string }).name === 'BastionError') {
    request.errorCode = error.code;
    return sendCatalogue(reply, error as unknown as BastionError);
  }
  if (error instanceof RequestValidationError) {
    request.errorCode = errorCode('VALIDATION');
    return reply.code(422).send(validationBody(error.issues));
  }
  if (error.validation) {
    request.errorCode = errorCode('VALIDATION');
    return reply.code(422).send(validationBody(toValidationIssues(error.validation, error.validationContext ?? 'body')));
  }
  // Malformed JSON or an empty JSON body: a 422 on the body as a whole.
  if (error.code === 'FST_ERR_CTP_EMPTY_JSON_BODY' || error.code === 'FST_ERR_CTP_INVALID_JSON_BODY' || error instanceof SyntaxError) {
    request.errorCode = errorCode('VALIDATION');
    const type = error.code === 'FST_ERR_CTP_EMPTY_JSON_BODY' ? 'missing' : 'json_invalid';
    return reply.code(422).send(validationBody([{ loc: ['body'], msg: type === 'missing' ? 'Field required' : 'Invalid JSON', type }]));
  }
  const mapped = error.code ? FASTIFY_CODES[error.code] : undefined;
  if (mapped) {
    request.errorCode = errorCode(mapped);
    return sendCatalogue(reply, new BastionError(mapped));
  }
  if (error.statusCode && error.statusCode >= 400 && error.statusCode < 500) {
    request.errorCode = 'BASTION_ERR_BAD_REQUEST';
    return reply.code(error.statusCode).send({ error: { code: 'BASTION_ERR_BAD_REQUEST', message: 'The request could not be processed.' } });
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
