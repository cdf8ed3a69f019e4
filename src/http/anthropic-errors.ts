import type { ValidationIssue } from '../errors.js';
import { paramOf } from './openai-errors.js';
import { MAX_ERROR_BODY_BYTES } from './validation.js';

/**
 * On the Anthropic routes (/v1/messages…) every error Bastion itself raises uses Anthropic's envelope
 * `{"type":"error","error":{"type","message"},"request_id"}`, so the Anthropic SDK raises its own error classes with the
 * reason. The status stays the catalogue's; `error.type` is Anthropic's class for it and `error.code` Bastion's catalogue
 * code. Upstream errors pass through verbatim.
 */
export function isAnthropicPath(url: string | undefined): boolean {
  const path = (url ?? '').split('?', 1)[0];
  return path === '/v1/messages' || path.startsWith('/v1/messages/');
}

export function anthropicErrorType(status: number, code: string): string {
  if (code === 'BASTION_ERR_QUOTA_EXCEEDED') return 'rate_limit_error';
  if (status === 401) return 'authentication_error';
  if (status === 402) return 'billing_error';
  if (status === 403) return 'permission_error';
  if (status === 404) return 'not_found_error';
  if (status === 413) return 'request_too_large';
  if (status === 429) return 'rate_limit_error';
  if (status === 503) return 'overloaded_error';
  if (status === 504) return 'timeout_error';
  if (status >= 500) return 'api_error';
  return 'invalid_request_error';
}

export interface AnthropicError {
  type: 'error';
  error: { type: string; message: string; code: string; [extra: string]: unknown };
  request_id?: string;
}

/** A catalogue body `{"error":{"code","message",…}}` in Anthropic's envelope. */
export function anthropicFromCatalogue(status: number, body: { error: Record<string, unknown> }, requestId: string): AnthropicError {
  const { code, message, ...extra } = body.error;
  const error = { type: anthropicErrorType(status, String(code)), message: String(message), code: String(code), ...extra };
  const wrapped: AnthropicError = { type: 'error', error, request_id: requestId };
  return Buffer.byteLength(JSON.stringify(wrapped)) <= MAX_ERROR_BODY_BYTES ? wrapped : { ...wrapped, error: { type: error.type, message: String(message).slice(0, 512), code: error.code } };
}

/** A validation-error body (answered 400, as Anthropic does) in Anthropic's envelope: the first problem's location and message. */
export function anthropicFromValidation(detail: ValidationIssue[], requestId: string): AnthropicError {
  const first = detail[0] ?? { loc: ['body'], msg: 'Request validation failed', type: 'value_error' };
  const param = paramOf(first.loc);
  const more = detail.length > 1 ? ` (and ${detail.length - 1} more problem${detail.length > 2 ? 's' : ''})` : '';
  const message = `${param ? `${param}: ` : ''}${first.msg}${more}`.slice(0, 512);
  return { type: 'error', error: { type: 'invalid_request_error', message, code: 'BASTION_ERR_VALIDATION' }, request_id: requestId };
}

/** An `error` event as Anthropic ends a stream that cannot complete. */
export function anthropicErrorEvent(type: string, message: string): string {
  return `event: error\ndata: ${JSON.stringify({ type: 'error', error: { type, message } })}\n\n`;
}
