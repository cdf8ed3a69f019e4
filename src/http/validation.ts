import type { FastifySchemaValidationError } from 'fastify';
import { validationBody, type ValidationIssue } from '../errors.js';

// An error answer costs the client's bytes, not ours: at most 10 issues, short fields, ≤ 4 KB in all (issue 10).
export const MAX_ISSUES = 10;
export const MAX_ERROR_BODY_BYTES = 4096;
const MAX_FIELD_CHARS = 128;

// Where the invalid value was, in FastAPI's `loc` vocabulary.
const CONTEXT_LOC: Record<string, string> = { body: 'body', querystring: 'query', params: 'path', headers: 'header' };

function typeOf(e: FastifySchemaValidationError): string {
  const p = e.params as Record<string, unknown>;
  switch (e.keyword) {
    case 'required':
      return 'missing';
    case 'additionalProperties':
      return 'extra_forbidden';
    case 'type':
      return `${String(p.type).split(',')[0]}_type`;
    case 'maxLength':
      return 'string_too_long';
    case 'minLength':
      return 'string_too_short';
    case 'maxItems':
      return 'too_long';
    case 'minItems':
      return 'too_short';
    case 'maximum':
      return 'less_than_equal';
    case 'minimum':
      return 'greater_than_equal';
    case 'enum':
    case 'const':
    case 'anyOf':
      return 'enum';
    case 'pattern':
      return 'string_pattern_mismatch';
    default:
      return 'value_error';
  }
}

function messageOf(e: FastifySchemaValidationError): string {
  if (e.keyword === 'required') return 'Field required';
  if (e.keyword === 'additionalProperties') return 'Extra inputs are not permitted';
  if (e.keyword === 'enum') return `Input should be one of ${((e.params as { allowedValues?: unknown[] }).allowedValues ?? []).join(', ')}`;
  return e.message ?? 'Invalid value';
}

const SIZE = new Set(['maxItems', 'maxLength']);

/** Converts Ajv errors into the validation-error `detail` list (never echoes the input value). */
export function toValidationIssues(errors: FastifySchemaValidationError[], context: string): ValidationIssue[] {
  // An anyOf failure already says the value matched no alternative; its per-branch errors only add noise.
  const anyOfPaths = new Set(errors.filter((e) => e.keyword === 'anyOf').map((e) => e.instancePath));
  // Except a size bound: an array or string of the right type that is too long is better told as too long.
  const relevant = errors
    .filter((e) => e.keyword === 'anyOf' || !anyOfPaths.has(e.instancePath))
    .map((e) => (e.keyword === 'anyOf' ? (errors.find((x) => x.instancePath === e.instancePath && SIZE.has(x.keyword)) ?? e) : e));
  return relevant.map((e) => {
    const loc: (string | number)[] = [CONTEXT_LOC[context] ?? context];
    for (const part of e.instancePath.split('/').slice(1)) {
      const decoded = part.replace(/~1/g, '/').replace(/~0/g, '~');
      loc.push(/^\d+$/.test(decoded) ? Number(decoded) : decoded);
    }
    const p = e.params as Record<string, unknown>;
    if (e.keyword === 'required') loc.push(String(p.missingProperty));
    if (e.keyword === 'additionalProperties') loc.push(String(p.additionalProperty));
    return { loc, msg: messageOf(e), type: typeOf(e) };
  });
}

const clip = (text: string) => (text.length > MAX_FIELD_CHARS ? text.slice(0, MAX_FIELD_CHARS - 1) + '…' : text);

/**
 * The 422 body, bounded: the first MAX_ISSUES issues, every string clipped (a `loc` can name an unknown field,
 * whose name the client chose), then issues dropped from the end until the JSON fits in MAX_ERROR_BODY_BYTES.
 */
export function boundedValidationBody(issues: ValidationIssue[]): { detail: ValidationIssue[] } {
  const detail = issues.slice(0, MAX_ISSUES).map((issue) => ({
    loc: issue.loc.slice(0, 16).map((part) => (typeof part === 'string' ? clip(part) : part)),
    msg: clip(issue.msg),
    type: clip(issue.type),
  }));
  while (detail.length > 1 && Buffer.byteLength(JSON.stringify({ detail })) > MAX_ERROR_BODY_BYTES) detail.pop();
  return validationBody(detail);
}
