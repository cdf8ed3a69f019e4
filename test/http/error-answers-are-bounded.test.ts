import t, { type Test } from 'tap';
import { startTestGateway } from '../helpers/gateway.js';
import { call, type Reply } from '../helpers/http.js';

interface Detail {
  detail: { loc: (string | number)[]; msg: string; type: string }[];
}

const MAX_BODY_BYTES = 4096;
const MAX_ISSUES = 10;

/** The answer is a 422 validation-error object with at most 10 issues in at most 4 KB. */
function assertSmall422(t: Test, res: Reply): void {
  t.equal(res.status, 422);
  t.ok(Buffer.byteLength(res.body) <= MAX_BODY_BYTES, `body is ${Buffer.byteLength(res.body)} bytes (≤ ${MAX_BODY_BYTES})`);
  const detail = res.json<Detail>().detail;
  t.ok(detail.length >= 1 && detail.length <= MAX_ISSUES, `${detail.length} issues (1–${MAX_ISSUES})`);
}

interface OpenAiError {
  error: { message: string; type: string; param: string | null; code: string };
}

/** On /v1/* the same bound, in OpenAI's error envelope (issue 11). */
function assertSmallOpenAi422(t: Test, res: Reply): OpenAiError['error'] {
  t.equal(res.status, 422);
  t.ok(Buffer.byteLength(res.body) <= MAX_BODY_BYTES, `body is ${Buffer.byteLength(res.body)} bytes (≤ ${MAX_BODY_BYTES})`);
  const error = res.json<OpenAiError>().error;
  t.equal(error.code, 'BASTION_ERR_VALIDATION');
  return error;
}

t.test('a huge or hostile body gets a small 422, never one error per element (issue 10, defect 2)', async (t) => {
  const gw = await startTestGateway(t, { config: { bodyLimitBytes: 2 * 1024 * 1024 } });
  const key = await gw.key('acme', { rate: 1000 });
  const post = (url: string, body: unknown) => call(url, { body, headers: { 'x-api-key': key } });
  const many = <T>(n: number, value: T): T[] => new Array<T>(n).fill(value);

  t.test('/filter/batch with 100,000 items → one too_long issue', async (t) => {
    const res = await post(`${gw.proxyUrl}/filter/batch`, { items: many(100_000, 0) });
    assertSmall422(t, res);
    t.same(res.json<Detail>().detail[0].loc, ['body', 'items']);
    t.equal(res.json<Detail>().detail[0].type, 'too_long');
  });

  t.test('/v1/chat/completions with 100,000 messages → one too_long issue', async (t) => {
    const res = await post(`${gw.proxyUrl}/v1/chat/completions`, { model: 'gpt-4o-mini', messages: many(100_000, 0) });
    t.equal(assertSmallOpenAi422(t, res).param, 'messages');
  });

  t.test('/v1/embeddings with 100,000 malformed inputs → a small 422', async (t) => {
    const res = await post(`${gw.proxyUrl}/v1/embeddings`, { model: 'text-embedding-3-small', input: many(100_000, {}) });
    const error = assertSmallOpenAi422(t, res);
    t.equal(error.param, 'input');
    t.equal(error.message, 'input: must NOT have more than 8192 items');
  });

  t.test('5,000 unknown fields → at most 10 issues', async (t) => {
    const body: Record<string, unknown> = { content: 'hello' };
    for (let i = 0; i < 5000; i++) body[`field_${i}`] = 1;
    const res = await post(`${gw.proxyUrl}/filter`, body);
    assertSmall422(t, res);
    t.equal(res.json<Detail>().detail[0].type, 'extra_forbidden');
  });

  t.test('an unknown field with a 20,000-character name is clipped, not echoed whole', async (t) => {
    const res = await post(`${gw.proxyUrl}/filter`, { content: 'hello', ['k'.repeat(20_000)]: 1 });
    assertSmall422(t, res);
    const loc = res.json<Detail>().detail[0].loc;
    t.equal(loc[0], 'body');
    t.ok(String(loc[1]).length < 200, 'the field name is clipped');
  });

  t.test('the admin listener is bounded the same way (portal registration)', async (t) => {
    const body: Record<string, unknown> = { email: 'a@example.com', password: 'correct horse battery staple' };
    for (let i = 0; i < 5000; i++) body[`field_${i}`] = 'x'.repeat(50);
    const res = await call(`${gw.adminUrl}/portal/auth/register`, { body });
    assertSmall422(t, res);
  });
});

type Schema = Record<string, unknown>;

/** Every array reachable in a JSON schema, with its path. */
function arrays(schema: unknown, path: string, out: [string, Schema][] = []): [string, Schema][] {
  if (!schema || typeof schema !== 'object') return out;
  const s = schema as Schema;
  if (s.type === 'array') out.push([path, s]);
  for (const [k, v] of Object.entries(s)) {
    if (Array.isArray(v)) v.forEach((x, i) => arrays(x, `${path}/${k}/${i}`, out));
    else if (v && typeof v === 'object') arrays(v, `${path}/${k}`, out);
  }
  return out;
}

t.test('every array a client can send on either listener declares maxItems (checked before its elements)', async (t) => {
  const gw = await startTestGateway(t);
  for (const base of [gw.proxyUrl, gw.adminUrl]) {
    const doc = (await call(`${base}/openapi.json`)).json<{ paths: Record<string, Record<string, Schema>> }>();
    let checked = 0;
    for (const [route, methods] of Object.entries(doc.paths)) {
      for (const [method, op] of Object.entries(methods)) {
        const inputs = [op.requestBody, op.parameters];
        for (const [where, schema] of arrays(inputs, `${method.toUpperCase()} ${route}`)) {
          checked++;
          t.type(schema.maxItems, 'number', `${where} has maxItems`);
        }
      }
    }
    t.ok(checked > 0, `${base}: request arrays found`);
  }
});
