import type { FastifySchemaValidationError } from 'fastify';
import type { ValidationIssue } from '../errors.js';

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

/** Converts Ajv errors into the validation-error `detail` list (never echoes the input value). */
export function toValidationIssues(errors: FastifySchemaValidationError[], context: string): ValidationIssue[] {
  // An anyOf failure already says the value matched no alternative; its per-branch errors only add noise.
  const anyOfPaths = new Set(errors.filter((e) => e.keyword === 'anyOf').map((e) => e.instancePath));
  const relevant = errors.filter((e) => e.keyword === 'anyOf' || !anyOfPaths.has(e.instancePath));
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
