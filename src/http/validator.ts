import { Ajv } from 'ajv';
import addFormats from 'ajv-formats';
import type { FastifySchemaCompiler } from 'fastify';

/**
 * `allErrors: false`: validation stops at the first error, so a 100,000-element array costs one check (its
 * `maxItems`, which Ajv evaluates before the items) instead of one error per element.
 * Two Ajv instances: bodies are validated as sent (no type coercion, unknown fields refused, so a typo such
 * as `"stict": true` is a 422 rather than a silent pass); query strings and path params are coerced from text.
 */
function makeAjv(coerce: boolean): Ajv {
  const ajv = new Ajv({ coerceTypes: coerce, useDefaults: true, removeAdditional: false, allErrors: false, strict: false });
  (addFormats as unknown as (a: Ajv) => void)(ajv);
  return ajv;
}

const bodyAjv = makeAjv(false);
const textAjv = makeAjv(true);

export const validatorCompiler: FastifySchemaCompiler<object> = ({ schema, httpPart }) =>
  (httpPart === 'body' ? bodyAjv : textAjv).compile(schema);
