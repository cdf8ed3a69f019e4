import { Ajv, type ValidateFunction } from 'ajv';
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

/**
 * Compiled validators by schema text: Fastify hands each listener its own copies of the route schemas, so without
 * this every listener a process starts (the proxy, the admin API, and in tests many gateways) compiles them all
 * again. Bounded by the number of distinct schemas the routes declare.
 */
const compiled = new Map<string, ValidateFunction>();

export const validatorCompiler: FastifySchemaCompiler<object> = ({ schema, httpPart }) => {
  const body = httpPart === 'body';
  const key = `${body ? 'b' : 't'}${JSON.stringify(schema)}`;
  let validate = compiled.get(key);
  if (!validate) {
    validate = (body ? bodyAjv : textAjv).compile(schema);
    compiled.set(key, validate);
  }
  return validate;
};
