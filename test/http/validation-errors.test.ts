import t from 'tap';
import { startTestGateway } from '../helpers/gateway.js';
import { call } from '../helpers/http.js';

interface Detail {
  detail: { loc: (string | number)[]; msg: string; type: string }[];
}

t.test('bad input gets a 4xx with a clear shape, never a 500 (SPEC §7)', async (t) => {
  const gw = await startTestGateway(t, { config: { bodyLimitBytes: 4096, contentLimitBytes: 1024, batchMaxItems: 3 } });
  const key = await gw.key('acme', { rate: 1000 });
  const post = (path: string, init: { body?: unknown; raw?: string; headers?: Record<string, string> }) =>
    call(`${gw.proxyUrl}${path}`, { ...init, headers: { 'x-api-key': key, ...init.headers } });

  const cases: [string, string, { body?: unknown; raw?: string }, Detail['detail']][] = [
    ['missing field', '/filter', { body: {} }, [{ loc: ['body', 'content'], msg: 'Field required', type: 'missing' }]],
    ['wrong type', '/filter', { body: { content: 42 } }, [{ loc: ['body', 'content'], msg: 'must be string', type: 'string_type' }]],
    ['unknown field (a typo never passes silently)', '/filter', { body: { content: 'x', stict: true } }, [{ loc: ['body', 'stict'], msg: 'Extra inputs are not permitted', type: 'extra_forbidden' }]],
    ['bad enum', '/filter', { body: { content: 'x', kind: 'email' } }, [{ loc: ['body', 'kind'], msg: 'Input should be one of prompt, tool_result, tool_call, output', type: 'enum' }]],
    ['malformed JSON', '/filter', { raw: '{"content": "x' }, [{ loc: ['body'], msg: 'Invalid JSON', type: 'json_invalid' }]],
    ['empty batch', '/filter/batch', { body: { items: [] } }, [{ loc: ['body', 'items'], msg: 'must NOT have fewer than 1 items', type: 'too_short' }]],
    ['nested item error', '/filter/batch', { body: { items: [{ content: 'a' }, { content: 1 }] } }, [{ loc: ['body', 'items', 1, 'content'], msg: 'must be string', type: 'string_type' }]],
    ['batch over the configured limit', '/filter/batch', { body: { items: [{ content: 'a' }, { content: 'b' }, { content: 'c' }, { content: 'd' }] } }, [{ loc: ['body', 'items'], msg: 'List should have at most 3 items', type: 'too_long' }]],
  ];
  for (const [name, path, init, detail] of cases) {
    t.test(`${name} → 422 validation-error shape`, async (t) => {
      const res = await post(path, init);
      t.equal(res.status, 422);
      t.same(res.json<Detail>(), { detail });
    });
  }

  t.test('a body over BASTION_BODY_LIMIT → 413 in the catalogue shape', async (t) => {
    const res = await post('/filter', { body: { content: 'x'.repeat(5000) } });
    t.equal(res.status, 413);
    t.equal(res.json<{ error: { code: string } }>().error.code, 'BASTION_ERR_PAYLOAD_TOO_LARGE');
  });

  t.test('content over BASTION_CONTENT_LIMIT (bytes, not characters) → 413, never inspected', async (t) => {
    const res = await post('/filter', { body: { content: 'é'.repeat(600) } }); // 1200 bytes, 600 characters
    t.equal(res.status, 413);
    t.same(res.json(), { error: { code: 'BASTION_ERR_CONTENT_TOO_LARGE', message: 'Content exceeds the inspection limit of 1024 bytes.', limit_bytes: 1024 } });
  });

  t.test('a non-JSON content type → 415', async (t) => {
    const res = await post('/filter', { raw: 'content=x', headers: { 'content-type': 'application/x-www-form-urlencoded' } });
    t.equal(res.status, 415);
    t.equal(res.json<{ error: { code: string } }>().error.code, 'BASTION_ERR_UNSUPPORTED_MEDIA_TYPE');
  });

  t.test('an unknown route → 404 in the catalogue shape', async (t) => {
    const res = await call(`${gw.proxyUrl}/nope`);
    t.equal(res.status, 404);
    t.equal(res.json<{ error: { code: string } }>().error.code, 'BASTION_ERR_NOT_FOUND');
  });
});
