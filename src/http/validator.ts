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

/**
 * Each route's validator is compiled on its first request, not at start-up: a process compiles only the schemas of
 * the routes it answers (a sidecar answers a handful of the ~150), and a gateway starts a quarter of a second sooner.
 * The wrapper is what Fastify sees: it passes the parent data on (Ajv mutates a root value through it) and carries
 * the compiled function's errors.
 */
export const validatorCompiler: FastifySchemaCompiler<object> = ({ schema, httpPart }) => {
  const body = httpPart === 'body';
  const key = `${body ? 'b' : 't'}${JSON.stringify(schema)}`;
  let validate = compiled.get(key);
  if (validate) return validate;
  const lazy = Object.assign(
    (data: unknown, parent?: Parameters<ValidateFunction>[1]) => {
      if (!validate) {
        validate = compiled.get(key) ?? (body ? bodyAjv : textAjv).compile(schema);
        compiled.set(key, validate);
      }
      const valid = validate(data, parent);
      lazy.errors = validate.errors;
      return valid;
    },
    { errors: null as ValidateFunction['errors'], schemaEnv: true },
  );
  return lazy;
};
