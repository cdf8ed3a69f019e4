import type { FastifyRequest } from 'fastify';
import type { ValidationIssue } from '../errors.js';
import { MAX_ERROR_BODY_BYTES } from './validation.js';

/**
 * On /v1/* (the OpenAI-compatible surface) every error Bastion itself raises uses OpenAI's envelope
 * `{"error":{"message","type","param","code"}}`, so the official SDKs show the reason instead of "(no body)":
 * `code` is Bastion's catalogue code, `param` the location of the first validation problem (`messages[0].function_call`),
 * `type` OpenAI's error class for the status. Catalogue extras (limit_bytes, upgrade_url…) stay inside `error`.
 * Bastion's own routes keep the catalogue shape and the validation-error object. Upstream errors pass through verbatim.
 */
export function isOpenAiPath(url: string | undefined): boolean {
  const path = (url ?? '').split('?', 1)[0];
  return path === '/v1' || path.startsWith('/v1/');
}

export function openAiErrorType(status: number, code: string): string {
  if (code === 'BASTION_ERR_QUOTA_EXCEEDED') return 'insufficient_quota';
  if (status === 401) return 'authentication_error';
  if (status === 403) return 'permission_error';
  if (status === 404) return 'not_found_error';
  if (status === 429) return 'rate_limit_error';
  if (status >= 500) return 'server_error';
  return 'invalid_request_error';
}

export interface OpenAiError {
  error: { message: string; type: string; param: string | null; code: string; [extra: string]: unknown };
}

/** A catalogue body `{"error":{"code","message",…}}` in OpenAI's envelope. */
export function fromCatalogue(status: number, body: { error: Record<string, unknown> }): OpenAiError {
  const { code, message, ...extra } = body.error;
  const wrapped: OpenAiError = { error: { message: String(message), type: openAiErrorType(status, String(code)), param: null, code: String(code), ...extra } };
  return Buffer.byteLength(JSON.stringify(wrapped)) <= MAX_ERROR_BODY_BYTES ? wrapped : { error: { ...wrapped.error, message: String(message).slice(0, 512) } };
}

/** `['body','messages',0,'function_call']` → `messages[0].function_call` (OpenAI's own spelling of a parameter). */
export function paramOf(loc: (string | number)[]): string | null {
  const parts = loc.slice(1);
  if (parts.length === 0) return null;
  return parts.reduce<string>((out, part, i) => (typeof part === 'number' ? `${out}[${part}]` : i === 0 ? part : `${out}.${part}`), '').slice(0, 256);
}

/** A 422 validation-error body in OpenAI's envelope: the first problem's message and location. */
export function fromValidation(detail: ValidationIssue[]): OpenAiError {
  const first = detail[0] ?? { loc: ['body'], msg: 'Request validation failed', type: 'value_error' };
  const param = paramOf(first.loc);
  const more = detail.length > 1 ? ` (and ${detail.length - 1} more problem${detail.length > 2 ? 's' : ''})` : '';
  return {
    error: {
      message: `${param ? `${param}: ` : ''}${first.msg}${more}`.slice(0, 512),
      type: 'invalid_request_error',
      param,
      code: 'BASTION_ERR_VALIDATION',
    },
  };
}

/** The 404 of an unknown path under /v1/, worded as OpenAI words it (the path is clipped, never logged). */
export function unknownV1Route(request: FastifyRequest): string {
  const path = (request.url ?? '').split('?', 1)[0].slice(0, 128);
  return `Invalid URL (${request.method} ${path}): Bastion proxies /v1/chat/completions, /v1/responses, /v1/completions, /v1/embeddings, /v1/moderations, /v1/models and the Anthropic /v1/messages.`;
}
