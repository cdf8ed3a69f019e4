import fc from 'fast-check';
import { NASTY_STRINGS, hostile, mutatedOrValid, validish, type Schema, type Sizes } from './schema-arbitrary.js';

/** One operation of an OpenAPI document, reduced to what the fuzzer needs. */
export interface RouteSpec {
  listener: 'proxy' | 'admin';
  method: string;
  path: string;
  /** Security scheme name, or 'public'. */
  security: string;
  body?: Schema;
  params: { name: string; in: 'path' | 'query' | 'header'; required: boolean; schema: Schema }[];
  /** Status codes (and ranges such as '5XX') the document lists. */
  documented: string[];
}

/** A concrete request, ready for fastify.inject. */
export interface FuzzRequest {
  method: string;
  url: string;
  headers: Record<string, string>;
  payload?: string;
  /** Whether it carried this route's valid credential (for the report). */
  authed: boolean;
  /** Which family made it, for reproducing a failure. */
  family: string;
  /** Client address: varied so per-IP attempt windows do not turn most inputs into 429s before validation. */
  remoteAddress: string;
}

interface OpenApi {
  paths: Record<string, Record<string, { security?: Record<string, unknown>[]; requestBody?: { content?: Record<string, { schema: Schema }> }; parameters?: { name: string; in: string; required?: boolean; schema: Schema }[]; responses?: Record<string, unknown> }>>;
}

export function routesOf(doc: OpenApi, listener: RouteSpec['listener']): RouteSpec[] {
  const out: RouteSpec[] = [];
  for (const [path, methods] of Object.entries(doc.paths)) {
    for (const [method, op] of Object.entries(methods)) {
      out.push({
        listener,
        method: method.toUpperCase(),
        path,
        security: Object.keys(op.security?.[0] ?? {})[0] ?? 'public',
        body: op.requestBody?.content?.['application/json']?.schema,
        params: (op.parameters ?? []).map((p) => ({ name: p.name, in: p.in as 'path', required: Boolean(p.required), schema: p.schema })),
        documented: Object.keys(op.responses ?? {}),
      });
    }
  }
  return out;
}

/** How a request authenticates for each scheme; `valid` values come from the harness, the rest are forgeries. */
export type Credentials = Record<string, Record<string, string>>;

const FORGED: Record<string, string>[] = [
  {},
  { 'x-api-key': 'bst_live_' + 'A'.repeat(40) },
  { 'x-api-key': '' },
  { 'x-admin-key': 'wrong-admin-key-0123456789abcdef' },
  { authorization: 'Bearer eyJhbGciOiJub25lIn0.eyJzdWIiOiJ4In0.' },
  { authorization: 'Bearer ' + 'x'.repeat(3000) },
  { authorization: 'Basic Og==' },
  { cookie: 'bastion_session=forged; service_refresh=forged' },
];

/** Body texts that are not the JSON object the route expects at all. */
const RAW_BODIES = ['', '{', '[]', 'null', '"text"', '12', '{"a":1,"a":2}', '{"__proto__":{"polluted":1}}', '\ufeff{}', 'x'.repeat(2048), '[' + '['.repeat(5000)];

/** Percent-encodes a path segment byte by byte, so lone surrogates travel as their UTF-8 replacement. */
function encodeSegment(text: string): string {
  let out = '';
  for (const b of Buffer.from(text, 'utf8')) out += /[A-Za-z0-9\-._~]/.test(String.fromCharCode(b)) ? String.fromCharCode(b) : `%${b.toString(16).toUpperCase().padStart(2, '0')}`;
  return out;
}

/** Ids that exist in the harness's database, by path parameter name, so handlers get past their 404s too. */
export type KnownIds = Record<string, string[]>;

function pathArbitrary(route: RouteSpec, sizes: Sizes, known: KnownIds): fc.Arbitrary<string> {
  const parts = route.params.filter((p) => p.in === 'path');
  if (!parts.length) return fc.constant(route.path);
  const values = parts.map((p) => {
    const choices: fc.WeightedArbitrary<unknown>[] = [
      { weight: 3, arbitrary: validish(p.schema) },
      { weight: 2, arbitrary: fc.constantFrom(...NASTY_STRINGS, 'a/b', '..', '%', '%ZZ', '1;DROP TABLE x') },
      { weight: 1, arbitrary: hostile(p.schema, { ...sizes, hugeString: Math.min(sizes.hugeString, 4000) }) },
    ];
    if (known[p.name]?.length) choices.push({ weight: 3, arbitrary: fc.constantFrom(...known[p.name]) });
    return fc.oneof(...choices);
  });
  return fc.tuple(...values).map((vals) =>
    parts.reduce((path, p, i) => {
      const v = vals[i];
      // A raw '%' or '%ZZ' is sent as is: a malformed escape must be a 4xx, not a crash.
      const text = v === '%' || v === '%ZZ' ? v : encodeSegment(typeof v === 'string' ? v : JSON.stringify(v) ?? '');
      return path.replace(`{${p.name}}`, text);
    }, route.path),
  );
}

function queryArbitrary(route: RouteSpec, sizes: Sizes): fc.Arbitrary<string> {
  const params = route.params.filter((p) => p.in === 'query');
  const one = (p: RouteSpec['params'][number]) =>
    fc.option(fc.oneof({ weight: 3, arbitrary: validish(p.schema) }, { weight: 1, arbitrary: hostile(p.schema, { ...sizes, hugeString: 2000 }) }), { nil: undefined, freq: 3 });
  const extra = fc.option(fc.tuple(fc.constantFrom('api_key', 'x', 'limit[]', '__proto__', ''), fc.string({ maxLength: 12 })), { nil: undefined, freq: 2 });
  return fc.tuple(fc.tuple(...params.map(one)), extra).map(([vals, ex]) => {
    const q = new URLSearchParams();
    params.forEach((p, i) => {
      const v = (vals as unknown[])[i];
      if (v !== undefined) q.append(p.name, typeof v === 'string' ? v : JSON.stringify(v) ?? '');
    });
    if (ex) q.append(ex[0], ex[1]);
    const s = q.toString();
    return s ? `?${s}` : '';
  });
}

function bodyArbitrary(route: RouteSpec, sizes: Sizes): fc.Arbitrary<{ payload?: string; family: string; contentType?: string }> {
  const json = (family: string) => (v: unknown) => ({ payload: JSON.stringify(v) ?? 'null', family });
  if (!route.body) {
    return fc.oneof(
      { weight: 6, arbitrary: fc.constant({ family: 'no-body' }) },
      { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 2 }).map(json('unexpected-body')) },
      { weight: 1, arbitrary: fc.constantFrom(...RAW_BODIES).map((payload) => ({ payload, family: 'unexpected-raw' })) },
    );
  }
  return fc.oneof(
    { weight: 4, arbitrary: validish(route.body).map(json('valid')) },
    { weight: 4, arbitrary: mutatedOrValid(route.body, sizes).map(json('mutated')) },
    { weight: 2, arbitrary: hostile(route.body, sizes).map(json('hostile')) },
    { weight: 1, arbitrary: fc.constantFrom(...RAW_BODIES).map((payload) => ({ payload, family: 'raw' })) },
    {
      weight: 1,
      arbitrary: fc.tuple(validish(route.body), fc.constantFrom('text/plain', 'application/x-www-form-urlencoded', 'application/json; charset=latin1', 'multipart/form-data; boundary=x', '')).map(([v, contentType]) => ({ payload: JSON.stringify(v), family: 'content-type', contentType })),
    },
    { weight: 1, arbitrary: fc.constant({ family: 'missing-body' }) },
  );
}

/** Requests for one route: valid credentials about half the time, forged or none otherwise. */
export function requestArbitrary(route: RouteSpec, credentials: Credentials, sizes: Sizes, known: KnownIds = {}): fc.Arbitrary<FuzzRequest> {
  const valid = credentials[route.security];
  const auth = valid
    ? fc.oneof({ weight: 1, arbitrary: fc.constant({ headers: valid, authed: true }) }, { weight: 1, arbitrary: fc.constantFrom(...FORGED).map((headers) => ({ headers, authed: false })) })
    : fc.constantFrom(...FORGED).map((headers) => ({ headers, authed: false }));
  const client = fc.oneof(
    { weight: 1, arbitrary: fc.constant('127.0.0.1') },
    { weight: 6, arbitrary: fc.ipV4() },
    { weight: 1, arbitrary: fc.ipV6() },
  );
  return fc.tuple(pathArbitrary(route, sizes, known), queryArbitrary(route, sizes), bodyArbitrary(route, sizes), auth, client).map(([path, query, body, a, remoteAddress]) => {
    const headers: Record<string, string> = { ...a.headers };
    if (body.payload !== undefined) headers['content-type'] = body.contentType ?? 'application/json';
    if (body.contentType === '') delete headers['content-type'];
    return { method: route.method, url: path + query, headers, payload: body.payload, authed: a.authed, family: body.family, remoteAddress };
  });
}
